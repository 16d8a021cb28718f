import { type Static, Type } from 'typebox';
import { OneOf } from '../http/schemas.js';
import { PLANS } from '../plans.js';
import { ASSIGNABLE_ROLES, PERMISSION_NAMES, ROLES } from '../roles.js';

export const RoleSchema = OneOf(ROLES, {
  description: 'owner, admin, editor or viewer (see GET /api/team: your_permissions).',
});
export const AssignableRoleSchema = OneOf(ASSIGNABLE_ROLES, {
  description: 'admin, editor or viewer (ownership is transferred, never given).',
});
const PermissionSchema = OneOf(PERMISSION_NAMES);

const TeamName = Type.String({
  minLength: 1,
  maxLength: 80,
  pattern: '\\S',
  description: '1 to 80 characters, not only spaces (trimmed).',
});

export const Member = Type.Object(
  {
    user_id: Type.Integer(),
    email: Type.String(),
    role: RoleSchema,
    joined_at: Type.String({ format: 'date-time' }),
  },
  { title: 'TeamMember' },
);

export const Invite = Type.Object(
  {
    id: Type.Integer(),
    email: Type.String(),
    role: AssignableRoleSchema,
    invited_by: Type.Union([Type.Integer(), Type.Null()]),
    expires_at: Type.String({ format: 'date-time' }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'TeamInvite' },
);
export type InviteT = Static<typeof Invite>;

const Status = OneOf(['active', 'cancelled'] as const, {
  description:
    "cancelled: a shared team whose owner's plan is no longer Enterprise (its surfaces answer 403 plan_upgrade_required until the owner upgrades; nothing is deleted).",
});

export const Team = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    personal: Type.Boolean({
      description: 'The team every account has for itself (one seat, no invitations).',
    }),
    status: Status,
    plan: OneOf(PLANS, { description: "The team's plan: its owner's." }),
    seats: Type.Integer({ description: 'Members the team can have, the owner included.' }),
    seats_used: Type.Integer(),
    your_role: Type.Union([RoleSchema, Type.Null()], {
      description: 'null for a service administrator outside the team.',
    }),
    your_permissions: Type.Array(PermissionSchema, {
      description: 'What your role may do (the permission table).',
    }),
    created_at: Type.String({ format: 'date-time' }),
    members: Type.Array(Member),
    invites: Type.Array(Invite, {
      description: 'Pending invitations (not accepted, cancelled or expired).',
    }),
  },
  { $id: 'Team' },
);
export type TeamT = Static<typeof Team>;

export const Membership = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    personal: Type.Boolean(),
    role: RoleSchema,
    status: Status,
    members: Type.Integer(),
    joined_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'TeamMembership' },
);
export type MembershipT = Static<typeof Membership>;

export const CreateTeamBody = Type.Object({ name: TeamName }, { additionalProperties: false });
export const RenameTeamBody = Type.Object({ name: TeamName }, { additionalProperties: false });
export const InviteBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254 }),
    role: AssignableRoleSchema,
  },
  { additionalProperties: false },
);
export const AcceptBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200, description: 'The token of the mailed link.' }) },
  { additionalProperties: false },
);
export const RoleBody = Type.Object({ role: AssignableRoleSchema }, { additionalProperties: false });
export const TransferBody = Type.Object(
  {
    user_id: Type.Integer({
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'An admin of the team.',
    }),
  },
  { additionalProperties: false },
);
export const SeatsBody = Type.Object(
  {
    seats: Type.Union([Type.Integer({ minimum: 1, maximum: 10_000 }), Type.Null()], {
      description: "The team's seats; null: the plan's number (ENTITLEMENTS teamSeats).",
    }),
  },
  { additionalProperties: false },
);
export const UserIdParams = Type.Object({
  user_id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
});
export const InviteIdParams = Type.Object({
  invite_id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
});
export const TeamIdParams = Type.Object({
  team_id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
});
export const MembershipList = Type.Object({ teams: Type.Array(Type.Ref('TeamMembership')) });
