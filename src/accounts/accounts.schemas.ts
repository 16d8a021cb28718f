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
