/**
 * OpenID Connect providers (Google, Roblox) through openid-client: the issuer's metadata is
 * discovered on first use (and again after a failure), then every callback is checked the library's
 * way: state, issuer (RFC 9207), PKCE, and the ID token's signature, issuer, audience, expiry and
 * nonce. Plain http is allowed only for an issuer on this machine (tests, development).
 */
import type { FastifyBaseLogger } from 'fastify';
import * as client from 'openid-client';
import { isLoopbackHttp, type OAuthProviderId } from '../../config.js';
import { AppError } from '../../errors.js';
import { oauthErrors } from './oauth.errors.js';
import {
  type AuthorizationRequest,
  type CallbackChecks,
  type OAuthProvider,
  optionalString,
  PROVIDER_TIMEOUT_SEC,
  type ProviderProfile,
  providerEmail,
} from './providers.js';

export interface OidcSettings {
  id: OAuthProviderId;
  name: string;
  scope: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** Codes of failed ID token checks (oauth4webapi's and jose's). */
const ID_TOKEN_CODES = new Set([
  'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
  'OAUTH_JWT_TIMESTAMP_CHECK_FAILED',
  'OAUTH_KEY_SELECTION_FAILED',
  'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
  'ERR_JWS_INVALID',
  'ERR_JWT_INVALID',
]);

function errorFields(err: unknown): { code?: unknown; error?: unknown; cause?: unknown } {
  return typeof err === 'object' && err !== null ? (err as { code?: unknown; error?: unknown }) : {};
}

/** What a failed code exchange means for the user (the library's errors, reduced to ours). */
export function mapGrantError(err: unknown, name: string, log: FastifyBaseLogger | undefined): AppError {
  if (err instanceof AppError) return err;
  const e = errorFields(err);
  if (e.code === 'OAUTH_RESPONSE_BODY_ERROR' && e.error === 'invalid_grant')
    return oauthErrors.codeInvalid(name);
  const cause = errorFields(e.cause);
  if (ID_TOKEN_CODES.has(String(e.code)) || ID_TOKEN_CODES.has(String(cause.code))) {
    return oauthErrors.idTokenInvalid(name);
  }
  log?.warn({ provider: name, code: e.code, error: e.error }, 'oauth provider exchange failed');
  return oauthErrors.unavailable(name);
}

export function oidcProvider(s: OidcSettings, log: FastifyBaseLogger | undefined): OAuthProvider {
  let discovered: Promise<client.Configuration> | undefined;
  const issuer = new URL(s.issuer);
  const configuration = (): Promise<client.Configuration> => {
    discovered ??= client
      .discovery(issuer, s.clientId, s.clientSecret, undefined, {
        timeout: PROVIDER_TIMEOUT_SEC,
        // Never for a remote issuer: config.ts refuses http:// anywhere but this machine, and this
        // checks again.
        execute: isLoopbackHttp(issuer) ? [client.allowInsecureRequests] : [],
      })
      .catch((err: unknown) => {
        discovered = undefined;
        log?.warn({ provider: s.id, code: errorFields(err).code }, 'oauth discovery failed');
        throw oauthErrors.unavailable(s.name);
      });
    return discovered;
  };

  return {
    id: s.id,
    name: s.name,
    usesNonce: true,
    async authorizationUrl(r: AuthorizationRequest): Promise<URL> {
      return client.buildAuthorizationUrl(await configuration(), {
        redirect_uri: r.redirectUri,
        scope: s.scope,
        state: r.state,
        ...(r.nonce ? { nonce: r.nonce } : {}),
        code_challenge: r.codeChallenge,
        code_challenge_method: 'S256',
      });
    },
    async profile(callback: URL, checks: CallbackChecks): Promise<ProviderProfile> {
      const config = await configuration();
      let claims: client.IDToken;
      let accessToken: string;
      try {
        const tokens = await client.authorizationCodeGrant(config, callback, {
          pkceCodeVerifier: checks.codeVerifier,
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          idTokenExpected: true,
        });
        const idClaims = tokens.claims();
        if (!idClaims) throw oauthErrors.idTokenInvalid(s.name);
        claims = idClaims;
        accessToken = tokens.access_token;
      } catch (err) {
        throw mapGrantError(err, s.name, log);
      }
      // Providers put profile claims in the ID token or only at the UserInfo endpoint: read both,
      // the library making sure UserInfo speaks of the same subject.
      let info: Record<string, unknown> = {};
      if (config.serverMetadata().userinfo_endpoint) {
        try {
          info = await client.fetchUserInfo(config, accessToken, claims.sub);
        } catch (err) {
          throw mapGrantError(err, s.name, log);
        }
      }
      const all: Record<string, unknown> = { ...info, ...claims };
      const email = providerEmail(all.email);
      return {
        subject: claims.sub,
        email,
        emailVerified: email !== undefined && all.email_verified === true,
        displayName:
          optionalString(all.preferred_username) ?? optionalString(all.name) ?? optionalString(all.nickname),
      };
    },
  };
}
