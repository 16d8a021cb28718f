/**
 * Discord and X: OAuth 2.0 authorization code with PKCE (S256) and their documented endpoints.
 * The state is checked by the service before anything here runs; the code is exchanged with the
 * client id and secret in HTTP Basic, and the user is read with the access token.
 *
 * Discord: authorize `/oauth2/authorize`, token `/api/oauth2/token`, user `/api/users/@me`
 * (`{id, username, global_name, email, verified}` with scope `identify email`).
 * X: authorize `x.com/i/oauth2/authorize`, token `api.x.com/2/oauth2/token`, user
 * `api.x.com/2/users/me` (`{data: {id, name, username}}`; X gives no e-mail address).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { OAuthClient, OAuthProviderId } from '../../config.js';
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

interface PlainSettings extends OAuthClient {
  id: OAuthProviderId;
  name: string;
  scope: string;
  authorizeUrl: string;
  tokenUrl: string;
  userUrl: string;
  /** The user endpoint's JSON as a profile; undefined when it is not the documented shape. */
  readUser(body: unknown): ProviderProfile | undefined;
}

/** RFC 6749 §2.3.1: id and secret are form-encoded before they go into Basic. */
function basic(c: OAuthClient): string {
  const enc = (v: string) => encodeURIComponent(v).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${enc(c.clientId)}:${enc(c.clientSecret)}`).toString('base64')}`;
}

async function json(res: Response): Promise<unknown> {
  try {
    return await res.json();
  } catch {
    return undefined;
  }
}

function field(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
}

function plainProvider(s: PlainSettings, log: FastifyBaseLogger | undefined): OAuthProvider {
  const failed = (why: string, extra: Record<string, unknown> = {}) => {
    log?.warn({ provider: s.id, why, ...extra }, 'oauth provider exchange failed');
    return oauthErrors.unavailable(s.name);
  };
  const send = async (url: string, init: RequestInit): Promise<Response> => {
    try {
      return await fetch(url, {
        ...init,
        redirect: 'error',
        signal: AbortSignal.timeout(PROVIDER_TIMEOUT_SEC * 1000),
      });
    } catch {
      throw failed('unreachable');
    }
  };

  async function exchange(code: string, checks: CallbackChecks): Promise<string> {
    const res = await send(s.tokenUrl, {
      method: 'POST',
      headers: {
        authorization: basic(s),
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: checks.redirectUri,
        code_verifier: checks.codeVerifier,
        client_id: s.clientId,
      }),
    });
    const body = await json(res);
    if (!res.ok) {
      if (field(body, 'error') === 'invalid_grant') throw oauthErrors.codeInvalid(s.name);
      throw failed('token endpoint refused', { status: res.status, error: String(field(body, 'error')) });
    }
    const token = field(body, 'access_token');
    if (typeof token !== 'string' || token === '') throw failed('token response without access_token');
    return token;
  }

  return {
    id: s.id,
    name: s.name,
    usesNonce: false,
    async authorizationUrl(r: AuthorizationRequest): Promise<URL> {
      const url = new URL(s.authorizeUrl);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: s.clientId,
        redirect_uri: r.redirectUri,
        scope: s.scope,
        state: r.state,
        code_challenge: r.codeChallenge,
        code_challenge_method: 'S256',
      }).toString();
      return url;
    },
    async profile(callback: URL, checks: CallbackChecks): Promise<ProviderProfile> {
      const code = callback.searchParams.get('code');
      if (!code) throw oauthErrors.codeInvalid(s.name);
      const accessToken = await exchange(code, checks);
      const res = await send(s.userUrl, {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      });
      if (!res.ok) throw failed('user endpoint refused', { status: res.status });
      const profile = s.readUser(await json(res));
      if (!profile) throw failed('user endpoint answered an unexpected shape');
      return profile;
    },
  };
}

/** A provider's user id: a non-empty string of at most 255 characters. */
function subjectOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= 255 ? value : undefined;
}

export function discordProvider(
  c: OAuthClient & { baseUrl: string },
  log: FastifyBaseLogger | undefined,
): OAuthProvider {
  return plainProvider(
    {
      ...c,
      id: 'discord',
      name: 'Discord',
      scope: 'identify email',
      authorizeUrl: `${c.baseUrl}/oauth2/authorize`,
      tokenUrl: `${c.baseUrl}/api/oauth2/token`,
      userUrl: `${c.baseUrl}/api/users/@me`,
      readUser(body) {
        const subject = subjectOf(field(body, 'id'));
        if (!subject) return undefined;
        const email = providerEmail(field(body, 'email'));
        return {
          subject,
          email,
          emailVerified: email !== undefined && field(body, 'verified') === true,
          displayName: optionalString(field(body, 'username')) ?? optionalString(field(body, 'global_name')),
        };
      },
    },
    log,
  );
}

export function xProvider(
  c: OAuthClient & { baseUrl: string; apiUrl: string },
  log: FastifyBaseLogger | undefined,
): OAuthProvider {
  return plainProvider(
    {
      ...c,
      id: 'x',
      name: 'X',
      // users/me needs tweet.read besides users.read.
      scope: 'users.read tweet.read',
      authorizeUrl: `${c.baseUrl}/i/oauth2/authorize`,
      tokenUrl: `${c.apiUrl}/2/oauth2/token`,
      userUrl: `${c.apiUrl}/2/users/me`,
      readUser(body) {
        const data = field(body, 'data');
        const subject = subjectOf(field(data, 'id'));
        if (!subject) return undefined;
        return {
          subject,
          email: undefined,
          emailVerified: false,
          displayName: optionalString(field(data, 'username')) ?? optionalString(field(data, 'name')),
        };
      },
    },
    log,
  );
}
