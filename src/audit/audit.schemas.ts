import { type Static, Type } from 'typebox';

/** Every action the log records (the `action` filter takes one of them). */
export const AUDIT_ACTIONS = [
  'member.signed_in',
  'team.created',
  'team.renamed',
  'team.deleted',
  'team.seats_changed',
  'invite.created',
  'invite.revoked',
  'invite.accepted',
  'member.role_changed',
  'member.removed',
  'member.left',
  'ownership.transferred',
  'api_key.created',
  'api_key.revoked',
  'plan.changed',
  'password.changed',
  'password.reset',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AuditEntry = Type.Object(
  {
    id: Type.Integer(),
    at: Type.String({ format: 'date-time' }),
    team_id: Type.Union([Type.Integer(), Type.Null()]),
    actor_id: Type.Union([Type.Integer(), Type.Null()], { description: 'The user who acted.' }),
    actor_email: Type.Union([Type.String(), Type.Null()], {
      description: "The actor's e-mail address when the entry was written.",
    }),
    action: Type.String({ description: `One of: ${AUDIT_ACTIONS.join(', ')}.` }),
    target_type: Type.Union([Type.String(), Type.Null()], {
      description: 'What the action was done to: user, invite, api_key, team.',
    }),
    target_id: Type.Union([Type.String(), Type.Null()]),
    ip: Type.Union([Type.String(), Type.Null()]),
    user_agent: Type.Union([Type.String(), Type.Null()]),
    before: Type.Unknown({ description: 'The state before the change, where it applies (null otherwise).' }),
    after: Type.Unknown({ description: 'The state after the change, where it applies (null otherwise).' }),
  },
  { $id: 'AuditEntry' },
);
export type AuditEntryT = Static<typeof AuditEntry>;

const auditFilters = {
  action: Type.Optional(
    Type.Union(
      AUDIT_ACTIONS.map((a) => Type.Literal(a)),
      { description: 'Only this action.' },
    ),
  ),
  actor_id: Type.Optional(
    Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Only what this user did.' }),
  ),
  target_type: Type.Optional(
    Type.Union(
      [Type.Literal('user'), Type.Literal('invite'), Type.Literal('api_key'), Type.Literal('team')],
      {
        description: 'Only actions on this kind of thing.',
      },
    ),
  ),
  since: Type.Optional(Type.String({ format: 'date-time', description: 'Entries at or after this time.' })),
  until: Type.Optional(Type.String({ format: 'date-time', description: 'Entries before this time.' })),
  cursor: Type.Optional(
    Type.String({
      pattern: '^[1-9][0-9]{0,15}$',
      description: 'next_cursor of the previous page: the entries after it (older).',
    }),
  ),
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'Entries per page (JSON).' }),
  format: Type.Union([Type.Literal('json'), Type.Literal('csv')], {
    default: 'json',
    description:
      'csv: every matching entry from the cursor on (at most 100,000 rows), as a download, newest first; limit does not apply.',
  }),
};

export const TeamAuditQuery = Type.Object(auditFilters);
export type TeamAuditQueryT = Static<typeof TeamAuditQuery>;

export const AdminAuditQuery = Type.Object({
  ...auditFilters,
  team_id: Type.Optional(
    Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "Only this team's entries." }),
  ),
});
export type AdminAuditQueryT = Static<typeof AdminAuditQuery>;

export const AuditPage = Type.Object({
  entries: Type.Array(Type.Ref('AuditEntry')),
  next_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as cursor for the next (older) page; null at the end.',
  }),
});
