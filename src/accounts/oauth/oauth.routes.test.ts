import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { cookieHeader, createUser, type LoggedIn, login, setCookies } from '../../../test/helpers/auth.js';
import { testEngines } from '../../../test/helpers/db.js';
import {
  callback,
  flowCookieOf,
  type ProviderHop,
  startAndAuthorize,
  throughProvider,
} from '../../../test/helpers/oauth-flow.js';
import { startOidcProvider, type TestOidcProvider } from '../../../test/helpers/oauth-oidc.js';
import { startPlainProvider, type TestPlainProvider } from '../../../test/helpers/oauth-plain.js';
import { fixedClock } from '../../clock.js';
import { type Kv, memoryKv } from '../../kv/index.js';

const PUBLIC_URL = 'https://svc.example';
let serial = 0;
/** A provider subject (and address part) no other test uses. */
function fresh(prefix: string): string {
  serial += 1;
  return `${prefix}-${serial}-${Date.now()}`;
}

function errorPage(res: LightMyRequestResponse, page = '/signin'): string | undefined {
  expect(res.statusCode).toBe(302);
  const location = new URL(String(res.headers.location), PUBLIC_URL);
  expect(location.pathname).toBe(page);
  return location.searchParams.get('oauth_error') ?? undefined;
}

function sessionCookies(res: LightMyRequestResponse): LoggedIn['cookies'] {
  const session = setCookies(res).filter((c) => c.name !== 'svc_oauth');
  return Object.fromEntries(session.map((c) => [c.name, c.value])) as LoggedIn['cookies'];
}

describe.each(testEngines())('sign-in with Google, Roblox, Discord and X (%s)', (engine) => {
  const clock = fixedClock(new Date());
  let kv: Kv;
  let t: TestApp;
  let oidc: TestOidcProvider;
  let discord: TestPlainProvider;
  let x: TestPlainProvider;

  beforeAll(async () => {
    [oidc, discord, x] = await Promise.all([
      startOidcProvider(PUBLIC_URL),
      startPlainProvider('discord', PUBLIC_URL),
      startPlainProvider('x', PUBLIC_URL),
    ]);
    kv = memoryKv(() => clock.now().getTime());
    t = await buildTestApp({
      engine,
      clock,
      kv,
      env: {
        PUBLIC_URL,
        OAUTH_GOOGLE_CLIENT_ID: oidc.clients.google.id,
        OAUTH_GOOGLE_CLIENT_SECRET: oidc.clients.google.secret,
        OAUTH_GOOGLE_ISSUER: oidc.issuer,
        OAUTH_ROBLOX_CLIENT_ID: oidc.clients.roblox.id,
        OAUTH_ROBLOX_CLIENT_SECRET: oidc.clients.roblox.secret,
        OAUTH_ROBLOX_ISSUER: oidc.issuer,
        OAUTH_DISCORD_CLIENT_ID: discord.client.id,
        OAUTH_DISCORD_CLIENT_SECRET: discord.client.secret,
        OAUTH_DISCORD_BASE_URL: discord.url,
        OAUTH_X_CLIENT_ID: x.client.id,
        OAUTH_X_CLIENT_SECRET: x.client.secret,
        OAUTH_X_BASE_URL: x.url,
        OAUTH_X_API_URL: x.url,
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await kv?.close();
    await Promise.all([oidc?.close(), discord?.close(), x?.close()]);
  });

  const userCount = async () =>
    (await t.testDb.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users')).rows[0]!.n;
  const identityCount = async () =>
    (await t.testDb.db.query<{ n: number }>('SELECT count(*)::int AS n FROM user_identities')).rows[0]!.n;
  const me = (cookies: Partial<LoggedIn['cookies']>) =>
    t.app.inject({ url: '/api/auth/me', headers: { cookie: cookieHeader(cookies) } });
  const identities = (cookies: LoggedIn['cookies']) =>
    t.app.inject({ url: '/api/auth/identities', headers: { cookie: cookieHeader(cookies) } });
  /** A whole sign-in as a browser; the callback's answer. */
  const signIn = async (provider: string, options: { returnTo?: string; json?: boolean } = {}) =>
    callback(t.app, await startAndAuthorize(t.app, provider, PUBLIC_URL, options), options);

  /** Signs in (and so makes) an account through X; its cookies and user id. */
  const xAccount = async () => {
    const id = fresh('x');
    x.signInAs({ id, name: 'X User', username: id });
    const cookies = sessionCookies(await signIn('x'));
    const user = (await me(cookies)).json() as { id: number };
    return { cookies, userId: user.id, subject: id };
  };

  it('lists the enabled providers in their fixed order', async () => {
    const res = await t.app.inject({ url: '/api/auth/providers' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      providers: [
        { id: 'google', name: 'Google' },
        { id: 'roblox', name: 'Roblox' },
        { id: 'discord', name: 'Discord' },
        { id: 'x', name: 'X' },
      ],
    });
  });

  describe('GET /api/auth/oauth/{provider}/start', () => {
    it('redirects to the provider with PKCE S256, state and nonce, in a sealed HttpOnly cookie', async () => {
      const res = await t.app.inject({
        url: '/api/auth/oauth/google/start',
        query: { return_to: '/market' },
      });
      expect(res.statusCode).toBe(302);
      const to = new URL(String(res.headers.location));
      expect(`${to.origin}`).toBe(oidc.issuer);
      const q = to.searchParams;
      expect(q.get('client_id')).toBe(oidc.clients.google.id);
      expect(q.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/auth/oauth/google/callback`);
      expect(q.get('response_type')).toBe('code');
      expect(q.get('scope')).toBe('openid email profile');
      expect(q.get('code_challenge_method')).toBe('S256');
      expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(q.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(q.get('nonce')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const cookie = setCookies(res).find((c) => c.name === 'svc_oauth')!;
      expect(cookie.attributes).toMatchObject({
        path: '/api/auth/oauth',
        httponly: true,
        samesite: 'Lax',
        secure: true,
        'max-age': '600',
      });
      // Sealed: neither the state nor the verifier can be read from it.
      expect(cookie.value).not.toContain(q.get('state'));
    });

    it('sends no nonce to the plain OAuth 2.0 providers', async () => {
      const res = await t.app.inject({ url: '/api/auth/oauth/discord/start' });
      const to = new URL(String(res.headers.location));
      expect(`${to.origin}${to.pathname}`).toBe(`${discord.url}/oauth2/authorize`);
      expect(to.searchParams.get('scope')).toBe('identify email');
      expect(to.searchParams.get('nonce')).toBeNull();
      const xStart = await t.app.inject({ url: '/api/auth/oauth/x/start' });
      const xTo = new URL(String(xStart.headers.location));
      expect(`${xTo.origin}${xTo.pathname}`).toBe(`${x.url}/i/oauth2/authorize`);
      expect(xTo.searchParams.get('scope')).toBe('users.read tweet.read');
    });

    it('answers 404 provider_not_enabled for an unknown provider', async () => {
      const res = await t.app.inject({ url: '/api/auth/oauth/github/start' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        detail: 'This sign-in provider is unknown or not enabled here.',
        code: 'provider_not_enabled',
      });
    });

    it('refuses a return_to that leaves the site', async () => {
      for (const returnTo of ['https://evil.example/', '//evil.example/', '/\\evil.example']) {
        const res = await t.app.inject({
          url: '/api/auth/oauth/google/start',
          query: { return_to: returnTo },
        });
        expect(res.statusCode).toBe(422);
        expect(res.json()).toMatchObject({ code: 'validation_failed', field: 'query.return_to' });
      }
    });
  });

  describe('signing in', () => {
    it('makes a new account from Google with its verified address, whose cookies work on /api/auth/me', async () => {
      const email = `${fresh('ada')}@example.com`;
      oidc.signInAs({ sub: fresh('g'), email: email.toUpperCase(), email_verified: true, name: 'Ada L' });
      const before = await userCount();
      const res = await signIn('google', { returnTo: '/market?period=7d' });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/market?period=7d');
      expect(res.headers['cache-control']).toBe('no-store');
      const cookies = setCookies(res);
      expect(cookies.map((c) => c.name).sort()).toEqual([
        'svc_access',
        'svc_csrf',
        'svc_oauth',
        'svc_refresh',
      ]);
      expect(cookies.find((c) => c.name === 'svc_access')!.attributes).toMatchObject({
        httponly: true,
        path: '/',
      });
      expect(cookies.find((c) => c.name === 'svc_refresh')!.attributes).toMatchObject({
        httponly: true,
        path: '/api/auth/refresh',
      });
      // The flow cookie is cleared.
      expect(cookies.find((c) => c.name === 'svc_oauth')!.value).toBe('');
      expect(await userCount()).toBe(before + 1);

      const jar = sessionCookies(res);
      const who = await me(jar);
      expect(who.statusCode).toBe(200);
      expect(who.json()).toMatchObject({ email, plan: 'Explorer', email_verified: true });
      const linked = await identities(jar);
      expect(linked.json()).toEqual({
        identities: [
          {
            provider: 'google',
            name: 'Google',
            subject: expect.any(String),
            display_name: 'Ada L',
            email,
            created_at: expect.any(String),
            last_used_at: expect.any(String),
          },
        ],
        has_password: false,
      });
      // Neither the code nor the state reaches the log.
      const hop = String(res.raw.req.url);
      expect(hop).toContain('code=');
      expect(t.logs.text).toContain('/api/auth/oauth/google/callback');
      expect(t.logs.text).not.toContain(new URL(hop, PUBLIC_URL).searchParams.get('code'));
      // No password: a password sign-in fails like a wrong password.
      const pw = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password: 'anything at all' },
      });
      expect(pw.statusCode).toBe(401);
      expect(pw.json()).toMatchObject({ code: 'not_authenticated' });
    });

    it('signs the same identity in again to the same account, ending the earlier session', async () => {
      const sub = fresh('g');
      oidc.signInAs({ sub, email: `${sub}@example.com`, email_verified: true });
      const first = sessionCookies(await signIn('google'));
      const firstId = (await me(first)).json().id as number;
      const count = await userCount();
      const second = sessionCookies(await signIn('google'));
      expect((await me(second)).json().id).toBe(firstId);
      expect(await userCount()).toBe(count);
      // One session per account, as with passwords.
      expect((await me(first)).statusCode).toBe(401);
    });

    it('answers a JSON client like POST /api/auth/login', async () => {
      const sub = fresh('g');
      oidc.signInAs({ sub, email: `${sub}@example.com`, email_verified: true });
      const res = await signIn('google', { json: true });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        access_token: expect.any(String),
        token_type: 'bearer',
        expires_in: 900,
        refresh_token: expect.any(String),
      });
    });

    it('signs in to an existing account whose address is verified on both sides, and links it', async () => {
      const u = await createUser(t); // created verified
      const count = await userCount();
      const sub = fresh('g');
      oidc.signInAs({ sub, email: u.email, email_verified: true });
      const res = await signIn('google');
      expect(res.headers.location).toBe('/');
      const jar = sessionCookies(res);
      expect((await me(jar)).json()).toMatchObject({ id: u.id, email: u.email });
      expect(await userCount()).toBe(count);
      const linked = (await identities(jar)).json() as {
        identities: { subject: string }[];
        has_password: boolean;
      };
      expect(linked.identities.map((i) => i.subject)).toEqual([sub]);
      expect(linked.has_password).toBe(true);
    });

    it('does not sign in to an account that has not verified the address: account_link_required, no account', async () => {
      const email = `${fresh('unverified')}@example.com`;
      const reg = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email, password: 'a long enough password' },
      });
      expect(reg.json()).toMatchObject({ email_verified: false });
      const [users, links] = [await userCount(), await identityCount()];
      oidc.signInAs({ sub: fresh('g'), email, email_verified: true });
      expect(errorPage(await signIn('google'))).toBe('account_link_required');
      oidc.signInAs({ sub: fresh('g'), email, email_verified: true });
      const json = await signIn('google', { json: true });
      expect(json.statusCode).toBe(409);
      expect(json.json()).toEqual({
        detail:
          'An account with this e-mail address exists, but its address is not verified: sign in with your password and link Google on your account page.',
        code: 'account_link_required',
      });
      expect([await userCount(), await identityCount()]).toEqual([users, links]);
    });

    it('refuses an address the provider has not verified, and makes no account', async () => {
      const users = await userCount();
      oidc.signInAs({ sub: fresh('g'), email: `${fresh('nv')}@example.com`, email_verified: false });
      expect(errorPage(await signIn('google'))).toBe('provider_email_unverified');
      const id = fresh('d');
      discord.signInAs({ id, username: id, email: `${id}@example.com`, verified: false });
      const res = await signIn('discord', { json: true });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'provider_email_unverified' });
      expect(await userCount()).toBe(users);
    });

    it('stores the Roblox user id and username, on an account with a placeholder address', async () => {
      const sub = String(1_000_000 + serial++);
      oidc.signInAs({ sub, name: 'Builder Bob', preferred_username: 'builderbob' });
      const jar = sessionCookies(await signIn('roblox'));
      const who = (await me(jar)).json();
      expect(who).toMatchObject({ email: `roblox-${sub}@users.noreply.invalid`, email_verified: false });
      expect((await identities(jar)).json().identities).toEqual([
        expect.objectContaining({
          provider: 'roblox',
          name: 'Roblox',
          subject: sub,
          display_name: 'builderbob',
          email: null,
        }),
      ]);
    });

    it('makes accounts from Discord (verified address) and X (no address)', async () => {
      const id = fresh('d');
      discord.signInAs({
        id,
        username: `disc_${serial}`,
        global_name: 'Disc',
        email: `${id}@Example.com`,
        verified: true,
      });
      const d = sessionCookies(await signIn('discord', { returnTo: '/tracking' }));
      expect((await me(d)).json()).toMatchObject({ email: `${id}@example.com`, email_verified: true });
      // The code went with the PKCE verifier and the registered redirect URI.
      const sent = discord.tokenRequests.at(-1)!;
      expect(sent.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/auth/oauth/discord/callback`);
      expect(sent.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43}$/);

      const account = await xAccount();
      expect((await me(account.cookies)).json()).toMatchObject({
        email: `x-${account.subject}@users.noreply.invalid`,
        email_verified: false,
      });
    });
  });

  describe('refusals', () => {
    it('refuses a state that does not match, a missing flow cookie and an expired flow', async () => {
      const users = await userCount();
      oidc.signInAs({ sub: fresh('g'), email: `${fresh('s')}@example.com`, email_verified: true });
      const hop = await startAndAuthorize(t.app, 'google', PUBLIC_URL);
      const wrong = new URL(hop.callback);
      wrong.searchParams.set('state', 'not-the-state');
      expect(errorPage(await callback(t.app, { ...hop, callback: wrong }))).toBe('oauth_state_invalid');
      expect(errorPage(await callback(t.app, { ...hop, flowCookie: '' }))).toBe('oauth_state_invalid');
      const forged = await callback(
        t.app,
        { ...hop, flowCookie: `${hop.flowCookie.slice(0, -4)}AAAA` },
        { json: true },
      );
      expect(forged.statusCode).toBe(400);
      expect(forged.json()).toEqual({
        detail: 'This sign-in attempt is unknown, expired or was started in another browser; start again.',
        code: 'oauth_state_invalid',
      });
      // The state of another provider's flow does not finish this one.
      const other = await callback(t.app, {
        ...hop,
        callback: new URL(hop.callback.href.replace('/google/', '/roblox/')),
      });
      expect(errorPage(other)).toBe('oauth_state_invalid');

      oidc.signInAs({ sub: fresh('g'), email: `${fresh('s')}@example.com`, email_verified: true });
      const late = await startAndAuthorize(t.app, 'google', PUBLIC_URL);
      // (The clock only moves forward: the rate limits' buckets follow it.)
      clock.advance(10 * 60_000 + 1);
      expect(errorPage(await callback(t.app, late))).toBe('oauth_state_invalid');
      expect(await userCount()).toBe(users);
    });

    it('uses a state once: the same callback again is refused', async () => {
      oidc.signInAs({ sub: fresh('g'), email: `${fresh('r')}@example.com`, email_verified: true });
      const hop = await startAndAuthorize(t.app, 'google', PUBLIC_URL);
      expect((await callback(t.app, hop)).headers.location).toBe('/');
      expect(errorPage(await callback(t.app, hop))).toBe('oauth_state_invalid');
    });

    it('refuses a replayed code (the provider says invalid_grant) and makes no account', async () => {
      for (const provider of ['google', 'discord'] as const) {
        const id = fresh(provider);
        oidc.signInAs({ sub: id, email: `${id}@example.com`, email_verified: true });
        discord.signInAs({ id, username: id, email: `${id}@example.com`, verified: true });
        const used = await startAndAuthorize(t.app, provider, PUBLIC_URL);
        expect((await callback(t.app, used)).statusCode).toBe(302);
        const users = await userCount();
        // A fresh flow (valid state and cookie) carrying the code that was already exchanged.
        const next = await startAndAuthorize(t.app, provider, PUBLIC_URL);
        const replay = new URL(next.callback);
        replay.searchParams.set('code', used.callback.searchParams.get('code')!);
        const res = await callback(t.app, { ...next, callback: replay }, { json: true });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: 'oauth_code_invalid' });
        expect(await userCount()).toBe(users);
      }
    });

    it('refuses an ID token with another nonce than the flow sent', async () => {
      const users = await userCount();
      oidc.signInAs({ sub: fresh('g'), email: `${fresh('n')}@example.com`, email_verified: true });
      const hop = await startAndAuthorize(t.app, 'google', PUBLIC_URL, {
        tamper: (authorize) => authorize.searchParams.set('nonce', 'a-nonce-this-flow-never-sent'),
      });
      const res = await callback(t.app, hop, { json: true });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        detail:
          'The ID token from Google failed its checks (signature, audience, expiry or nonce); start again.',
        code: 'oauth_id_token_invalid',
      });
      expect(await userCount()).toBe(users);
    });

    it('reports an error the provider sends back (the user cancelled) and makes no account', async () => {
      const users = await userCount();
      oidc.refuseNext('access_denied');
      expect(errorPage(await signIn('google'))).toBe('oauth_provider_error');
      x.refuseNext('access_denied');
      const res = await signIn('x', { json: true });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        detail: 'The sign-in was cancelled or refused at X.',
        code: 'oauth_provider_error',
      });
      expect(await userCount()).toBe(users);
    });
  });

  describe('linking and unlinking', () => {
    const csrfHeaders = (cookies: LoggedIn['cookies']) => ({
      cookie: cookieHeader(cookies),
      'x-csrf-token': cookies.svc_csrf,
    });
    /** POST /link, then the provider; the hop to finish with the session's cookies. */
    const startLink = async (provider: string, cookies: LoggedIn['cookies']): Promise<ProviderHop> => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/auth/oauth/${provider}/link`,
        headers: csrfHeaders(cookies),
      });
      expect(res.statusCode).toBe(200);
      const url = new URL((res.json() as { authorize_url: string }).authorize_url);
      return { callback: await throughProvider(url, PUBLIC_URL), flowCookie: flowCookieOf(res) };
    };

    it('links a provider to the signed-in account, which then signs in with it', async () => {
      const u = await createUser(t);
      const session = await login(t.app, u.email, u.password);
      const sub = String(2_000_000 + serial++);
      oidc.signInAs({ sub, preferred_username: 'linkedcreator' });
      const hop = await startLink('roblox', session.cookies);
      const done = await callback(t.app, hop, { cookies: session.cookies });
      expect(done.statusCode).toBe(302);
      expect(done.headers.location).toBe('/account');
      expect((await identities(session.cookies)).json()).toMatchObject({
        identities: [{ provider: 'roblox', subject: sub, display_name: 'linkedcreator' }],
        has_password: true,
      });
      const again = sessionCookies(await signIn('roblox'));
      expect((await me(again)).json()).toMatchObject({ id: u.id });
    });

    it('needs the CSRF token to start linking, and the same session to finish', async () => {
      const u = await createUser(t);
      const session = await login(t.app, u.email, u.password);
      const noCsrf = await t.app.inject({
        method: 'POST',
        url: '/api/auth/oauth/discord/link',
        headers: { cookie: cookieHeader(session.cookies) },
      });
      expect(noCsrf.statusCode).toBe(403);
      expect(noCsrf.json()).toMatchObject({ code: 'csrf_invalid' });

      const id = fresh('d');
      discord.signInAs({ id, username: id, email: `${id}@example.com`, verified: true });
      const hop = await startLink('discord', session.cookies);
      // Back without the session that started it (signed out, another browser profile…).
      expect(errorPage(await callback(t.app, hop), '/account')).toBe('oauth_link_session_lost');
      expect(await identityCount()).toBeGreaterThan(0);
      expect((await identities(session.cookies)).json()).toMatchObject({ identities: [] });
    });

    it('refuses to link an identity that belongs to another account (409)', async () => {
      const owner = await xAccount();
      const u = await createUser(t);
      const session = await login(t.app, u.email, u.password);
      x.signInAs({ id: owner.subject, name: 'X User', username: owner.subject });
      const hop = await startLink('x', session.cookies);
      const res = await callback(t.app, hop, { cookies: session.cookies, json: true });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        detail: 'This X account is linked to another account.',
        code: 'identity_linked_elsewhere',
      });
    });

    it('unlinks, but never the last way to sign in', async () => {
      const account = await xAccount();
      const last = await t.app.inject({
        method: 'DELETE',
        url: '/api/auth/oauth/x',
        headers: csrfHeaders(account.cookies),
      });
      expect(last.statusCode).toBe(409);
      expect(last.json()).toEqual({
        detail: 'This is the only way to sign in to your account: link another provider first.',
        code: 'last_sign_in_method',
      });

      const id = fresh('d');
      discord.signInAs({ id, username: id, email: `${id}@example.com`, verified: true });
      const hop = await startLink('discord', account.cookies);
      expect((await callback(t.app, hop, { cookies: account.cookies })).headers.location).toBe('/account');

      const unlinkX = await t.app.inject({
        method: 'DELETE',
        url: '/api/auth/oauth/x',
        headers: csrfHeaders(account.cookies),
      });
      expect(unlinkX.statusCode).toBe(200);
      expect(unlinkX.json()).toEqual({ status: 'unlinked' });
      const again = await t.app.inject({
        method: 'DELETE',
        url: '/api/auth/oauth/x',
        headers: csrfHeaders(account.cookies),
      });
      expect(again.statusCode).toBe(404);
      expect(again.json()).toMatchObject({ code: 'identity_not_linked' });
      const unlinkDiscord = await t.app.inject({
        method: 'DELETE',
        url: '/api/auth/oauth/discord',
        headers: csrfHeaders(account.cookies),
      });
      expect(unlinkDiscord.statusCode).toBe(409);
      expect((await identities(account.cookies)).json()).toMatchObject({
        identities: [{ provider: 'discord' }],
        has_password: false,
      });
    });

    it('lets an account with a password unlink its only provider', async () => {
      const u = await createUser(t);
      const session = await login(t.app, u.email, u.password);
      const id = fresh('x');
      x.signInAs({ id, name: 'X', username: id });
      await callback(t.app, await startLink('x', session.cookies), { cookies: session.cookies });
      const res = await t.app.inject({
        method: 'DELETE',
        url: '/api/auth/oauth/x',
        headers: csrfHeaders(session.cookies),
      });
      expect(res.statusCode).toBe(200);
      expect((await identities(session.cookies)).json()).toEqual({ identities: [], has_password: true });
    });
  });
});

describe('with no provider configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists none and answers 404 provider_not_enabled for each', async () => {
    expect((await t.app.inject({ url: '/api/auth/providers' })).json()).toEqual({ providers: [] });
    for (const provider of ['google', 'roblox', 'discord', 'x']) {
      for (const path of ['start', 'callback']) {
        const res = await t.app.inject({
          url: `/api/auth/oauth/${provider}/${path}`,
          headers: { accept: 'application/json' },
        });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ code: 'provider_not_enabled' });
      }
    }
  });
});
