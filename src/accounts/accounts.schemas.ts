import { type Static, Type } from 'typebox';
import { IdParams, OneOf } from '../http/schemas.js';
import { PLANS, SUBSCRIPTION_STATUSES } from '../plans.js';
import { API_KEY_SCOPES } from './api-keys.service.js';
import { PASSWORD_MAX, PASSWORD_MIN } from './passwords.js';

const Email = Type.String({
  format: 'email',
  maxLength: 254,
  description: 'Matched case-insensitively; stored in lower case.',
});

export const User = Type.Object(
  {
    id: Type.Integer(),
    email: Type.String(),
    plan: OneOf(PLANS),
    subscription_status: OneOf(SUBSCRIPTION_STATUSES),
    tracked_games: Type.Array(Type.Integer(), { description: 'Universe ids of tracked games' }),
    is_admin: Type.Boolean(),
    email_verified: Type.Boolean({
      description:
        'Whether the address was confirmed through the mailed link. Unverified accounts work, but get no alert e-mails.',
    }),
  },
  { $id: 'User', title: 'User' },
);

export const RegisterBody = Type.Object({
  email: Email,
  password: Type.String({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX }),
});

export const LoginBody = Type.Object({
  email: Email,
  password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX }),
});

export const LoginResult = Type.Object(
  {
    access_token: Type.String({
      description: 'JWT; send as Authorization: Bearer <token>. Web clients ignore it.',
    }),
    token_type: Type.Literal('bearer'),
    expires_in: Type.Integer({ description: 'Seconds until the access token expires' }),
    refresh_token: Type.Optional(
      Type.String({
        description:
          'Only for non-browser clients (requests with neither Origin nor Sec-Fetch-Mode); single use.',
      }),
    ),
  },
  { $id: 'LoginResult', title: 'LoginResult' },
);

const NewPassword = Type.String({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX });
const MailedToken = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'The token from the link in the e-mail (its `token` query parameter).',
});

export const ForgotPasswordBody = Type.Object({ email: Email });
export const ResetPasswordBody = Type.Object({ token: MailedToken, password: NewPassword });
export const ChangePasswordBody = Type.Object({
  current_password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX }),
  new_password: NewPassword,
});
export const VerifyEmailBody = Type.Object({ token: MailedToken });

export const RefreshBody = Type.Object({
  refresh_token: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});

export const StatusLiteral = <T extends string>(status: T) => Type.Object({ status: Type.Literal(status) });

export const ApiKeyScopes = Type.Array(Type.Enum([...API_KEY_SCOPES]), {
  minItems: 1,
  maxItems: API_KEY_SCOPES.length,
  uniqueItems: true,
});

export const CreateKeyBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  scopes: ApiKeyScopes,
});

export const ApiKey = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    prefix: Type.String({ description: 'The first characters of the key, to recognise it' }),
    scopes: Type.Array(Type.String()),
    created_at: Type.String({ format: 'date-time' }),
    last_used_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { $id: 'ApiKey', title: 'ApiKey' },
);

export const CreatedKey = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  scopes: Type.Array(Type.String()),
  prefix: Type.String(),
  key: Type.String({ description: 'The secret: shown this once, store it now' }),
  created_at: Type.String({ format: 'date-time' }),
});

export const KeyIdParams = IdParams('API key id');
export const UserIdParams = IdParams('User id');

export const AdminUserPatch = Type.Object(
  {
    plan: Type.Optional(Type.String({ description: `One of ${PLANS.join(', ')} (any case)` })),
    subscription_status: Type.Optional(Type.Enum([...SUBSCRIPTION_STATUSES])),
  },
  { minProperties: 1 },
);

export type UserT = Static<typeof User>;
export type LoginResultT = Static<typeof LoginResult>;
export type ApiKeyT = Static<typeof ApiKey>;
export type CreatedKeyT = Static<typeof CreatedKey>;

// Plans and the admin user list --------------------------------------------------------------------

const NullableInt = (description: string) => Type.Union([Type.Integer(), Type.Null()], { description });

export const PlanInfo = Type.Object(
  {
    name: OneOf(PLANS),
    summary: Type.String({ description: 'One line a person can read: what the plan unlocks.' }),
    trending_max: NullableInt('Most trending games per request; null = unlimited.'),
    genre_opportunities: Type.Union([Type.Literal('free'), Type.Literal('full')], {
      description: 'free: names and totals with locked: true; full: every score and recommendation.',
    }),
    ml_prediction: Type.Union([Type.Literal('score'), Type.Literal('detailed')], {
      description: 'score: trend_score only (growth_probability null); detailed: both.',
    }),
    forecast: Type.Union([Type.Object({ points: Type.Integer(), bounds: Type.Boolean() }), Type.Null()], {
      description:
        'Daily forecast points and whether the 80% bounds come with them; null = no forecast (403).',
    }),
    tracked_games: Type.Integer({ description: 'Most games tracked at once.' }),
    alerts: Type.Integer({ description: 'Most alert rules.' }),
    alert_delivery: Type.Array(OneOf(['in_app', 'email', 'webhook'] as const), {
      description: 'Where alerts can be delivered.',
    }),
    dev_lens: Type.Boolean({ description: 'Dev Lens (Creator Hub CSV reports).' }),
    monthly_sdk_events: Type.Integer({ description: 'SDK events accepted per team per calendar month.' }),
    sdk_history_days: NullableInt('Days of SDK analytics history readable; null = unlimited.'),
    read_rate_per_min: Type.Integer({
      description: 'Read API requests per minute, per user or per API key.',
    }),
    team_seats: Type.Integer({
      description:
        'Seats of a shared team (members, owner included) a user on this plan can create; 0 = no shared teams.',
    }),
  },
  { $id: 'PlanInfo', title: 'PlanInfo' },
);

export const PlansResponse = Type.Object({ plans: Type.Array(Type.Ref('PlanInfo')) });

export const AdminUsersQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'Users per page.' }),
  offset: Type.Integer({
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
    default: 0,
    description: 'Users to skip; past the end the page is empty and `total` still counts every match.',
  }),
  q: Type.Optional(
    Type.String({
      maxLength: 254,
      description:
        'Only users whose e-mail contains this text (case-insensitive; % and _ match themselves). Blank = everyone.',
    }),
  ),
});

export const AdminUser = Type.Object(
  {
    id: Type.Integer(),
    email: Type.String(),
    plan: OneOf(PLANS),
    subscription_status: OneOf(SUBSCRIPTION_STATUSES),
    is_admin: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'AdminUser', title: 'AdminUser' },
);

export const AdminUsersPage = Type.Object({
  users: Type.Array(Type.Ref('AdminUser')),
  total: Type.Integer({ description: 'Every user matching `q`, across all pages.' }),
});

export type PlanInfoT = Static<typeof PlanInfo>;
export type AdminUserT = Static<typeof AdminUser>;
export type AdminUsersQueryT = Static<typeof AdminUsersQuery>;
