/**
 * Role names as the team pages show them. What a role may do is never decided here: pages read
 * `your_permissions` from GET /api/team. Records over the schema's enums, so a role added to the
 * API fails the type check until it is named here.
 */
import type { Schemas } from '../../api/client';

export type Role = Schemas['Team']['members'][number]['role'];
export type AssignableRole = Schemas['Team']['invites'][number]['role'];

export const ROLE_LABEL: Record<Role, string> = {
  owner: 'Owner',
  admin: 'Admin',
  editor: 'Editor',
  viewer: 'Viewer',
};

/** The roles an invitation or a role change can give (ownership is transferred), with a hint. */
export const ASSIGNABLE: Record<AssignableRole, string> = {
  admin: 'Admin: members, settings, team games and keys',
  editor: 'Editor: creates and edits the team’s content',
  viewer: 'Viewer: read-only, audit log included',
};
export const ASSIGNABLE_ROLES = Object.keys(ASSIGNABLE) as AssignableRole[];

export function isAssignable(role: string): role is AssignableRole {
  return Object.hasOwn(ASSIGNABLE, role);
}
