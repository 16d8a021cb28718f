import { type Static, Type } from 'typebox';
import { OAUTH_PROVIDER_IDS } from '../../config.js';
import { OneOf } from '../../http/schemas.js';

/** Any string: an unknown or disabled provider is 404 provider_not_enabled, not a validation error. */
export const ProviderParams = Type.Object({
  provider: Type.String({
    minLength: 1,
    maxLength: 32,
    description: `One of ${OAUTH_PROVIDER_IDS.join(', ')} (enabled ones: GET /api/auth/providers).`,
  }),
});

/** A path on this site (never another origin): `/`, then anything but a second `/` or `\`. */
export const ReturnTo = Type.String({
  pattern: '^/([^/\\\\\\u0000-\\u001f\\u007f][^\\u0000-\\u001f\\u007f]*)?$',
  maxLength: 512,
  description: 'Where to go afterwards: a path on this site such as `/market` (default `/`).',
});

export const StartQuery = Type.Object({ return_to: Type.Optional(ReturnTo) });

export const LinkBody = Type.Object({ return_to: Type.Optional(ReturnTo) });

const Param = (description: string) => Type.Optional(Type.String({ maxLength: 4096, description }));

/** What a provider appends to the redirect URI (other parameters are read from the raw URL too). */
export const CallbackQuery = Type.Object({
  code: Param('The authorization code.'),
  state: Param('The state this service sent to the provider.'),
  error: Param('The provider refused or the user cancelled (e.g. access_denied).'),
  error_description: Param('The provider\u2019s explanation of `error`.'),
  iss: Param('The issuer that answered (RFC 9207), checked for OpenID Connect providers.'),
});

export const ProviderInfo = Type.Object(
  {
    id: OneOf(OAUTH_PROVIDER_IDS),
    name: Type.String({ description: 'How to show it: Google, Roblox, Discord, X.' }),
  },
  { $id: 'OAuthProvider', title: 'OAuthProvider' },
);

export const ProvidersResult = Type.Object({
  providers: Type.Array(Type.Ref('OAuthProvider'), {
    description: 'The enabled providers, in a fixed order (Google, Roblox, Discord, X).',
  }),
});

export const Identity = Type.Object(
  {
    provider: OneOf(OAUTH_PROVIDER_IDS),
    name: Type.String({ description: 'The provider as shown: Google, Roblox, Discord, X.' }),
    subject: Type.String({
      description: "The provider's id of the account (for Roblox: the Roblox user id).",
    }),
    display_name: Type.Union([Type.String(), Type.Null()], {
      description: 'The account name at the provider (Roblox, Discord, X: the username).',
    }),
    email: Type.Union([Type.String(), Type.Null()], {
      description: 'The address the provider gave at the last sign-in, if any.',
    }),
    created_at: Type.String({ format: 'date-time' }),
    last_used_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Identity', title: 'Identity' },
);

export const IdentitiesResult = Type.Object({
  identities: Type.Array(Type.Ref('Identity')),
  has_password: Type.Boolean({
    description:
      'Whether the account can also sign in with a password (accounts made by a provider have none).',
  }),
});

export const LinkResult = Type.Object({
  authorize_url: Type.String({
    description: "The provider's sign-in page: send the browser there (the flow's cookie is set).",
  }),
});

export type IdentityT = Static<typeof Identity>;
export type ProviderInfoT = Static<typeof ProviderInfo>;

export const oauthSchemas = [ProviderInfo, Identity];
