import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { bearer, cookieHeader, createUser, login, setCookies, signedIn } from '../../test/helpers/auth.js';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('register', () => {
  it('creates an Explorer account and refuses the same e-mail in another case', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: '  New.Person@Example.com ', password: 'a long enough password' },
    });
    // Surrounding spaces fail the e-mail format, so send it trimmed and mixed-case.
    expect(res.statusCode).toBe(422);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: 'New.Person@Example.com', password: 'a long enough password' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({
      id: expect.any(Number),
      email: 'new.person@example.com',
      plan: 'Explorer',
      subscription_status: 'none',
      tracked_games: [],
      is_admin: false,
      email_verified: false,
    });
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: 'NEW.person@example.com', password: 'another long password' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      detail: 'An account with this e-mail already exists.',
      code: 'email_taken',
    });
  });

  it.each([
    [{ email: 'x@example.com', password: 'short' }, 'body.password'],
    [{ email: 'not-an-email', password: 'long enough password' }, 'body.email'],
    [{ password: 'long enough password' }, 'body.email'],
    [{ email: 'x@example.com', password: 'p'.repeat(129) }, 'body.password'],
  ])('refuses %o naming %s', async (payload, field) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'validation_failed', field });
  });
});

describe('login', () => {
  it('sets exactly the three cookies with the right attributes', async () => {
    const u = await createUser(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: u.email, password: u.password },
    });
    expect(res.statusCode).toBe(200);
    const cookies = setCookies(res);
    expect(cookies.map((c) => c.name).sort()).toEqual(['svc_access', 'svc_csrf', 'svc_refresh']);
    const byName = Object.fromEntries(cookies.map((c) => [c.name, c.attributes]));
    expect(byName.svc_access).toEqual({ 'max-age': '900', path: '/', httponly: true, samesite: 'Lax' });
    expect(byName.svc_refresh).toEqual({
      'max-age': '2592000',
      path: '/api/auth/refresh',
      httponly: true,
      samesite: 'Lax',
    });
    expect(byName.svc_csrf).toEqual({ path: '/', samesite: 'Lax' });
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toEqual({
      access_token: expect.any(String),
      token_type: 'bearer',
      expires_in: 900,
      refresh_token: expect.any(String),
    });
    expect(cookies.find((c) => c.name === 'svc_access')?.value).toBe(body.access_token);
    expect(cookies.find((c) => c.name === 'svc_refresh')?.value).toBe(body.refresh_token);
  });

  it('leaves the refresh token out of the body for browsers (Origin or Sec-Fetch-Site)', async () => {
    const u = await createUser(t);
    for (const headers of [
      { origin: 'http://localhost:8080' },
      { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' },
      { 'sec-fetch-site': 'none' },
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers,
        payload: { email: u.email, password: u.password },
      });
      expect(Object.keys(res.json()).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    }
  });

  it('gives the refresh token to fetch-based clients that send only Sec-Fetch-Mode', async () => {
    // Node's, Deno's and Bun's fetch send Sec-Fetch-Mode: cors, and neither Origin nor Sec-Fetch-Site.
    const u = await createUser(t);
    const headers = { 'sec-fetch-mode': 'cors' };
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers,
      payload: { email: u.email, password: u.password },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { refresh_token: string };
    expect(body.refresh_token).toEqual(expect.any(String));
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers,
      payload: { refresh_token: body.refresh_token },
    });
    expect(refreshed.statusCode).toBe(200);
    expect(Object.keys(refreshed.json()).sort()).toEqual([
      'access_token',
      'expires_in',
      'refresh_token',
      'token_type',
    ]);
    const browser = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { ...headers, 'sec-fetch-site': 'same-origin' },
      payload: { refresh_token: (refreshed.json() as { refresh_token: string }).refresh_token },
    });
    expect(browser.statusCode).toBe(200);
    expect(Object.keys(browser.json()).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
  });

  it('marks every cookie Secure when served over HTTPS', async () => {
    const https = await buildTestApp({ env: { PUBLIC_URL: 'https://svc.example.com' } });
    try {
      const u = await createUser(https);
      const res = await https.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: u.email, password: u.password },
      });
      for (const c of setCookies(res)) expect(c.attributes.secure).toBe(true);
    } finally {
      await https.close();
    }
  });

  it('answers a wrong password and an unknown e-mail with the same 401', async () => {
    const u = await createUser(t);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: u.email, password: 'nope nope nope' },
    });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'nobody@example.com', password: 'nope nope nope' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ detail: 'Wrong e-mail or password.', code: 'not_authenticated' });
    expect(unknown.json()).toEqual(wrong.json());
    expect(setCookies(wrong)).toEqual([]);
  });
});

describe('GET /api/auth/me', () => {
  it('works with the session cookie and with the bearer token, returning every User field', async () => {
    const s = await signedIn(t);
    const viaCookie = await t.app.inject({
      url: '/api/auth/me',
      headers: { cookie: cookieHeader({ svc_access: s.cookies.svc_access }) },
    });
    const viaBearer = await t.app.inject({ url: '/api/auth/me', headers: bearer(s) });
    const expected = {
      id: s.userId,
      email: s.email,
      plan: 'Explorer',
      subscription_status: 'none',
      tracked_games: [],
      is_admin: false,
      email_verified: true,
    };
    expect(viaCookie.statusCode).toBe(200);
    expect(viaCookie.json()).toEqual(expected);
    expect(viaBearer.json()).toEqual(expected);
  });

  it('lists tracked games by universe id', async () => {
    const s = await signedIn(t);
    await t.testDb.db.query(
      'INSERT INTO tracked_games (user_id, team_id, universe_id) SELECT $1, team_id, u FROM users, unnest(ARRAY[$2::bigint, $3::bigint]) u WHERE id = $1',
      [s.userId, 994732206, 383310974],
    );
    expect((await t.app.inject({ url: '/api/auth/me', headers: bearer(s) })).json().tracked_games).toEqual([
      383310974, 994732206,
    ]);
  });

  it('answers 401 without credentials and with a forged or malformed token', async () => {
    const none = await t.app.inject({ url: '/api/auth/me' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    expect(none.json()).toEqual({ detail: 'Authentication is required.', code: 'not_authenticated' });
    const forged = await t.app.inject({
      url: '/api/auth/me',
      headers: { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.' },
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().code).toBe('token_invalid');
    const basic = await t.app.inject({
      url: '/api/auth/me',
      headers: { authorization: 'Basic dXNlcjpwdw==' },
    });
    expect(basic.json().code).toBe('token_invalid');
  });
});

describe('sessions', () => {
  it('a second login kills the first login’s access and refresh tokens', async () => {
    const u = await createUser(t);
    const first = await login(t.app, u.email, u.password);
    const second = await login(t.app, u.email, u.password);
    expect((await t.app.inject({ url: '/api/auth/me', headers: bearer(first) })).statusCode).toBe(401);
    expect(
      (
        await t.app.inject({
          url: '/api/auth/me',
          headers: { cookie: cookieHeader({ svc_access: first.cookies.svc_access }) },
        })
      ).statusCode,
    ).toBe(401);
    const refreshOld = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refresh_token: first.refreshToken },
    });
    expect(refreshOld.statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/auth/me', headers: bearer(second) })).statusCode).toBe(200);
  });

  it('logout kills every token and clears the cookies', async () => {
    const s = await signedIn(t);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(s) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'logged_out' });
    const cleared = setCookies(res);
    expect(cleared.map((c) => c.name).sort()).toEqual(['svc_access', 'svc_csrf', 'svc_refresh']);
    for (const c of cleared) expect(c.value).toBe('');
    expect((await t.app.inject({ url: '/api/auth/me', headers: bearer(s) })).statusCode).toBe(401);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refresh_token: s.refreshToken },
    });
    expect(refresh.statusCode).toBe(401);
  });
});

describe('refresh', () => {
  it('rotates; replaying a used token answers refresh_reused and kills the token it minted', async () => {
    const s = await signedIn(t);
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refresh_token: s.refreshToken },
    });
    expect(first.statusCode).toBe(200);
    const rotated = first.json() as { access_token: string; refresh_token: string };
    expect(rotated.refresh_token).not.toBe(s.refreshToken);
    expect(
      (
        await t.app.inject({
          url: '/api/auth/me',
          headers: { authorization: `Bearer ${rotated.access_token}` },
        })
      ).statusCode,
    ).toBe(200);

    const replay = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refresh_token: s.refreshToken },
    });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({
      detail: 'This refresh token was already used; the session has been revoked.',
      code: 'refresh_reused',
    });
    const minted = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refresh_token: rotated.refresh_token },
    });
    expect(minted.statusCode).toBe(401);
    expect(
      (
        await t.app.inject({
          url: '/api/auth/me',
          headers: { authorization: `Bearer ${rotated.access_token}` },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('answers 401 for an unknown token and for no token at all', async () => {
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refresh_token: 'made-up' },
    });
    expect(unknown.json()).toEqual({
      detail: 'The refresh token is invalid, expired or revoked.',
      code: 'token_invalid',
    });
    const none = await t.app.inject({ method: 'POST', url: '/api/auth/refresh' });
    expect(none.statusCode).toBe(401);
    expect(none.json().code).toBe('not_authenticated');
  });

  it('with the cookie, needs the CSRF header and sets new cookies', async () => {
    const s = await signedIn(t);
    const cookie = cookieHeader({ svc_refresh: s.cookies.svc_refresh, svc_csrf: s.cookies.svc_csrf });
    const noHeader = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie } });
    expect(noHeader.statusCode).toBe(403);
    expect(noHeader.json().code).toBe('csrf_invalid');
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { cookie, 'x-csrf-token': s.cookies.svc_csrf, origin: 'http://localhost:8080' },
    });
    expect(ok.statusCode).toBe(200);
    expect(
      setCookies(ok)
        .map((c) => c.name)
        .sort(),
    ).toEqual(['svc_access', 'svc_csrf', 'svc_refresh']);
    expect(ok.json().refresh_token).toBeUndefined();
  });
});

describe('CSRF on cookie-authenticated state changes', () => {
  it('refuses a missing, a wrong and another session’s token; accepts the right one', async () => {
    const a = await signedIn(t);
    const b = await signedIn(t);
    const post = (headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/api/keys', headers, payload: { name: 'k', scopes: ['read'] } });
    const cookieA = cookieHeader({ svc_access: a.cookies.svc_access, svc_csrf: a.cookies.svc_csrf });

    const missing = await post({ cookie: cookieA });
    expect(missing.statusCode).toBe(403);
    expect(missing.json()).toEqual({
      detail: 'Missing or invalid X-CSRF-Token header (send the value of the svc_csrf cookie).',
      code: 'csrf_invalid',
    });
    expect((await post({ cookie: cookieA, 'x-csrf-token': `${a.cookies.svc_csrf}x` })).statusCode).toBe(403);
    // B's token, planted as both cookie and header next to A's session: minted for another session.
    const planted = cookieHeader({ svc_access: a.cookies.svc_access, svc_csrf: b.cookies.svc_csrf });
    expect((await post({ cookie: planted, 'x-csrf-token': b.cookies.svc_csrf })).statusCode).toBe(403);
    expect((await post({ cookie: cookieA, 'x-csrf-token': a.cookies.svc_csrf })).statusCode).toBe(200);
  });

  it('checks multipart requests before reading their body', async () => {
    const a = await signedIn(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/keys',
      headers: {
        cookie: cookieHeader({ svc_access: a.cookies.svc_access, svc_csrf: a.cookies.svc_csrf }),
        'content-type': 'multipart/form-data; boundary=x',
      },
      payload: '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nk\r\n--x--\r\n',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('csrf_invalid');
  });

  it('does not apply to bearer requests or to reads', async () => {
    const a = await signedIn(t);
    const viaBearer = await t.app.inject({
      method: 'POST',
      url: '/api/keys',
      headers: bearer(a),
      payload: { name: 'k', scopes: ['read'] },
    });
    expect(viaBearer.statusCode).toBe(200);
    const read = await t.app.inject({
      url: '/api/keys',
      headers: { cookie: cookieHeader({ svc_access: a.cookies.svc_access }) },
    });
    expect(read.statusCode).toBe(200);
  });
});
