/**
 * Roles and what each may do in a team: the one table every check reads (the auth guard, the
 * team service, the web app through GET /api/team, and the role × action tests generated from it).
 * A permission a role does not list is denied; so is any string that is not a permission.
 */
export const ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = {
  /** See the team's content: tracked games, alerts, webhooks, Dev Lens reports, API keys (never their secrets), SDK analytics. */
  'content.read': 'see the team’s games, alerts, webhooks, reports, keys and analytics',
  /** Create, change and delete the team's content. */
  'content.write':
    'create, change and delete the team’s games, alerts, webhooks, reports and analytics settings',
  /** See the team: name, seats, members and pending invitations. */
  'team.read': 'see the team, its members and its invitations',
  /** Invite, cancel invitations, change roles (never to or of the owner) and remove members. */
  'members.manage': 'invite people, change roles and remove members',
  /** Rename the team. */
  'settings.manage': 'change the team’s settings',
  /** Create and revoke the team's API keys (shown once, stored hashed). */
  'keys.manage': 'create and revoke the team’s API keys',
  /** Read and export the audit log. */
  'audit.read': 'read the audit log',
  /** Leave the team (the owner transfers ownership first). */
  'team.leave': 'leave the team',
  /** Hand the team to an admin (the old owner becomes an admin). */
  'ownership.transfer': 'transfer ownership',
  /** Delete the team and everything it owns. */
  'team.delete': 'delete the team',
} as const;
export type Permission = keyof typeof PERMISSIONS;
/** Every permission, in table order. */
export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as [Permission, ...Permission[]];

export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  owner: [
    'content.read',
    'content.write',
    'team.read',
    'members.manage',
    'settings.manage',
    'keys.manage',
    'audit.read',
    'ownership.transfer',
    'team.delete',
  ],
  admin: [
    'content.read',
    'content.write',
    'team.read',
    'members.manage',
    'settings.manage',
    'keys.manage',
    'audit.read',
    'team.leave',
  ],
  editor: ['content.read', 'content.write', 'team.read', 'team.leave'],
  viewer: ['content.read', 'team.read', 'audit.read', 'team.leave'],
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Whether `role` may do `permission`; false for anything not in the table. */
export function can(role: Role, permission: string): boolean {
  return (
    Object.hasOwn(ROLE_PERMISSIONS, role) &&
    (ROLE_PERMISSIONS[role] as readonly string[]).includes(permission)
  );
}

/** The permissions a role holds, in table order (GET /api/team shows the caller's). */
export function permissionsOf(role: Role): Permission[] {
  return [...ROLE_PERMISSIONS[role]];
}

/** Roles an invitation or a role change may give: every role but owner (ownership is transferred). */
export const ASSIGNABLE_ROLES = ['admin', 'editor', 'viewer'] as const satisfies readonly Role[];
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];
