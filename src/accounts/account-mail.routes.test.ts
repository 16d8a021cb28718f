import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { bearer, cookieHeader, createUser, login, setCookies } from '../../test/helpers/auth.js';
import { testEngines } from '../../test/helpers/db.js';
import { fixedClock } from '../clock.js';
import { type Kv, memoryKv } from '../kv/index.js';
import { sha256 } from './tokens.js';

const PUBLIC_URL = 'https://svc.example';
const RESET_INVALID = {
  detail: 'This password reset link is invalid, expired or already used; ask for a new one.',
  code: 'reset_token_invalid',
  field: 'body.token',
};
const VERIFY_INVALID = {
  detail: 'This verification link is invalid, expired or already used; ask for a new one.',
  code: 'verification_token_invalid',
  field: 'body.token',
};

let ipCounter = 0;
/** A fresh client address per test, so the per-IP limits of one test do not reach the next. */
function freshIp(): string {
  ipCounter += 1;
  return `198.51.100.${ipCounter}`;
}

describe.each(testEngines())('e-mail verification and password reset (%s)', (engine) => {
  const clock = fixedClock('2026-06-01T10:00:00Z');
  let kv: Kv;
  let t: TestApp;
  beforeAll(async () => {
    kv = memoryKv(() => clock.now().getTime());
    t = await buildTestApp({ engine, clock, kv, env: { PUBLIC_URL } });
  });
  afterAll(async () => {
    await t.close();
    await kv.close();
  });

  const post = (url: string, payload: unknown, remoteAddress = freshIp(), headers = {}) =>
    t.app.inject({ method: 'POST', url, payload: payload as object, remoteAddress, headers });

  const mailsTo = async (email: string) =>
    (
      await t.testDb.db.query<{ to_address: string; subject: string; body: string; sent_at: Date | null }>(
        'SELECT to_address, subject, body, sent_at FROM outbox WHERE to_address = $1 ORDER BY id',
        [email],
      )
    ).rows;

  /** The token of the last link to `path` mailed to `email`. */
  const lastToken = async (email: string, path: string): Promise<string> => {
    const mails = await mailsTo(email);
    const body = mails.at(-1)?.body ?? '';
    const match = new RegExp(`^${PUBLIC_URL}${path}\\?token=([A-Za-z0-9_-]{43})$`, 'm').exec(body);
    if (!match) throw new Error(`no ${path} link mailed`);
    return match[1]!;
  };

  const me = (accessToken: string) =>
    t.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${accessToken}` } });

  describe('POST /api/auth/password/forgot', () => {
    it('answers an unknown and a known address alike, and mails a working link only to the known one', async () => {
      const u = await createUser(t);
      const unknown = `nobody-${Date.now()}@example.com`;
      const a = await post('/api/auth/password/forgot', { email: unknown });
      const b = await post('/api/auth/password/forgot', { email: u.email.toUpperCase() });
      for (const res of [a, b]) {
        expect(res.statusCode).toBe(202);
        expect(res.json()).toEqual({ status: 'accepted' });
        expect(res.headers['set-cookie']).toBeUndefined();
      }
      expect(a.body).toBe(b.body);
      expect(await mailsTo(unknown)).toEqual([]);
      const mails = await mailsTo(u.email);
      expect(mails).toEqual([
        {
          to_address: u.email,
          subject: '[svc] Reset your password',
          body: expect.stringContaining(`${PUBLIC_URL}/reset-password?token=`),
          sent_at: null,
        },
      ]);
      // Only the hash of the token is stored.
      const token = await lastToken(u.email, '/reset-password');
      const stored = await t.testDb.db.query<{ token_hash: string; kind: string }>(
        'SELECT token_hash, kind FROM account_tokens WHERE user_id = $1',
        [u.id],
      );
      expect(stored.rows).toEqual([{ token_hash: sha256(token), kind: 'reset' }]);
    });

    it('refuses a malformed address with 422', async () => {
      const res = await post('/api/auth/password/forgot', { email: 'not-an-email' });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'validation_failed', field: 'body.email' });
    });
  });

  describe('POST /api/auth/password/reset', () => {
    it('sets the new password once, ends every session, and refuses a replay', async () => {
      const u = await createUser(t);
      const before = await login(t.app, u.email, u.password);
      await post('/api/auth/password/forgot', { email: u.email });
      const token = await lastToken(u.email, '/reset-password');

      const res = await post('/api/auth/password/reset', { token, password: 'a brand new password' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'password_reset' });

      // Every session ended: the access token and the refresh token are dead.
      expect((await me(before.accessToken)).statusCode).toBe(401);
      const refreshed = await post('/api/auth/refresh', { refresh_token: before.refreshToken });
      expect(refreshed.statusCode).toBe(401);
      // The old password is gone, the new one works.
      expect((await post('/api/auth/login', { email: u.email, password: u.password })).statusCode).toBe(401);
      const after = await login(t.app, u.email, 'a brand new password');
      expect((await me(after.accessToken)).statusCode).toBe(200);

      const replay = await post('/api/auth/password/reset', { token, password: 'yet another password' });
      expect(replay.statusCode).toBe(422);
      expect(replay.json()).toEqual(RESET_INVALID);
      expect(
        (await post('/api/auth/login', { email: u.email, password: 'a brand new password' })).statusCode,
      ).toBe(200);
    });

    it('refuses a token after its hour and an unknown token', async () => {
      const u = await createUser(t);
      await post('/api/auth/password/forgot', { email: u.email });
      const token = await lastToken(u.email, '/reset-password');
      clock.advance(3_600_000 + 1000);
      const expired = await post('/api/auth/password/reset', { token, password: 'a brand new password' });
      expect(expired.statusCode).toBe(422);
      expect(expired.json()).toEqual(RESET_INVALID);
      const unknown = await post('/api/auth/password/reset', {
        token: 'x'.repeat(43),
        password: 'a brand new password',
      });
      expect(unknown.json()).toEqual(RESET_INVALID);
      // The password is unchanged.
      expect((await post('/api/auth/login', { email: u.email, password: u.password })).statusCode).toBe(200);
    });

    it('voids the other reset links of the account', async () => {
      const u = await createUser(t);
      const ip = freshIp();
      await post('/api/auth/password/forgot', { email: u.email }, ip);
      const first = await lastToken(u.email, '/reset-password');
      await post('/api/auth/password/forgot', { email: u.email }, ip);
      const second = await lastToken(u.email, '/reset-password');
      expect(second).not.toBe(first);
      const ok = await post('/api/auth/password/reset', { token: second, password: 'a brand new password' });
      expect(ok.statusCode).toBe(200);
      const stale = await post('/api/auth/password/reset', {
        token: first,
        password: 'another new password',
      });
      expect(stale.json()).toEqual(RESET_INVALID);
    });

    it('applies the registration length rules to the new password', async () => {
      const res = await post('/api/auth/password/reset', { token: 'x'.repeat(43), password: 'short' });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'validation_failed', field: 'body.password' });
    });
  });

  describe('e-mail verification', () => {
    it('registration mails a link; POST /api/auth/verify flips email_verified once', async () => {
      const email = `fresh-${Date.now()}@example.com`;
      const reg = await post('/api/auth/register', { email, password: 'a long enough password' });
      expect(reg.statusCode).toBe(200);
      expect(reg.json()).toMatchObject({ email, email_verified: false });
      const mails = await mailsTo(email);
      expect(mails).toEqual([
        {
          to_address: email,
          subject: '[svc] Confirm your e-mail address',
          body: expect.stringContaining(`${PUBLIC_URL}/verify-email?token=`),
          sent_at: null,
        },
      ]);
      const s = await login(t.app, email, 'a long enough password');
      expect((await me(s.accessToken)).json()).toMatchObject({ email_verified: false });

      const token = await lastToken(email, '/verify-email');
      const res = await post('/api/auth/verify', { token });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'verified' });
      expect((await me(s.accessToken)).json()).toMatchObject({ email_verified: true });

      const replay = await post('/api/auth/verify', { token });
      expect(replay.statusCode).toBe(422);
      expect(replay.json()).toEqual(VERIFY_INVALID);
    });

    it('refuses a verification link after 24 hours, and a reset token', async () => {
      const email = `late-${Date.now()}@example.com`;
      await post('/api/auth/register', { email, password: 'a long enough password' });
      const token = await lastToken(email, '/verify-email');
      await post('/api/auth/password/forgot', { email });
      const resetToken = await lastToken(email, '/reset-password');
      expect((await post('/api/auth/verify', { token: resetToken })).json()).toEqual(VERIFY_INVALID);
      clock.advance(24 * 3_600_000 + 1000);
      const res = await post('/api/auth/verify', { token });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual(VERIFY_INVALID);
    });

    it('resends a link to a signed-in unverified user, and answers 409 once verified', async () => {
      const email = `resend-${Date.now()}@example.com`;
      await post('/api/auth/register', { email, password: 'a long enough password' });
      const s = await login(t.app, email, 'a long enough password');
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/verify/resend',
        headers: bearer(s),
        remoteAddress: freshIp(),
      });
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ status: 'sent' });
      expect(await mailsTo(email)).toHaveLength(2);
      expect(
        (await post('/api/auth/verify', { token: await lastToken(email, '/verify-email') })).statusCode,
      ).toBe(200);
      const again = await t.app.inject({
        method: 'POST',
        url: '/api/auth/verify/resend',
        headers: bearer(s),
      });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({
        detail: 'This e-mail address is already verified.',
        code: 'email_already_verified',
      });
      const anonymous = await t.app.inject({ method: 'POST', url: '/api/auth/verify/resend' });
      expect(anonymous.statusCode).toBe(401);
    });

    it('a password reset verifies the address (the link reached it)', async () => {
      const email = `reset-verifies-${Date.now()}@example.com`;
      await post('/api/auth/register', { email, password: 'a long enough password' });
      await post('/api/auth/password/forgot', { email });
      const token = await lastToken(email, '/reset-password');
      expect(
        (await post('/api/auth/password/reset', { token, password: 'a brand new password' })).statusCode,
      ).toBe(200);
      const s = await login(t.app, email, 'a brand new password');
      expect((await me(s.accessToken)).json()).toMatchObject({ email_verified: true });
    });
  });

  describe('POST /api/auth/password/change', () => {
    it('refuses a wrong current password with 403 and changes it with the right one', async () => {
      const u = await createUser(t);
      const s = await login(t.app, u.email, u.password);
      const wrong = await t.app.inject({
        method: 'POST',
        url: '/api/auth/password/change',
        headers: bearer(s),
        payload: { current_password: 'not my password', new_password: 'a brand new password' },
      });
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json()).toEqual({
        detail: 'The current password is wrong.',
        code: 'current_password_wrong',
      });
      expect((await me(s.accessToken)).statusCode).toBe(200);

      const ok = await t.app.inject({
        method: 'POST',
        url: '/api/auth/password/change',
        headers: bearer(s),
        payload: { current_password: u.password, new_password: 'a brand new password' },
      });
      expect(ok.statusCode).toBe(200);
      const body = ok.json() as { access_token: string; refresh_token: string };
      expect(body).toEqual({
        access_token: expect.any(String),
        token_type: 'bearer',
        expires_in: 900,
        refresh_token: expect.any(String),
      });
      expect(setCookies(ok).map((c) => c.name)).toEqual(['svc_access', 'svc_refresh', 'svc_csrf']);
      // The earlier session ended; the new one works.
      expect((await me(s.accessToken)).statusCode).toBe(401);
      expect((await me(body.access_token)).statusCode).toBe(200);
      expect((await post('/api/auth/login', { email: u.email, password: u.password })).statusCode).toBe(401);
      expect(
        (await post('/api/auth/login', { email: u.email, password: 'a brand new password' })).statusCode,
      ).toBe(200);
    });

    it('needs the CSRF header with cookies and refuses API keys', async () => {
      const u = await createUser(t);
      const s = await login(t.app, u.email, u.password);
      const payload = { current_password: u.password, new_password: 'a brand new password' };
      const noCsrf = await t.app.inject({
        method: 'POST',
        url: '/api/auth/password/change',
        headers: { cookie: cookieHeader({ svc_access: s.cookies.svc_access }) },
        payload,
      });
      expect(noCsrf.statusCode).toBe(403);
      expect(noCsrf.json()).toMatchObject({ code: 'csrf_invalid' });
      const key = await t.app.inject({
        method: 'POST',
        url: '/api/keys',
        headers: bearer(s),
        payload: { name: 'k', scopes: ['read'] },
      });
      const viaKey = await t.app.inject({
        method: 'POST',
        url: '/api/auth/password/change',
        headers: { 'x-api-key': (key.json() as { key: string }).key },
        payload,
      });
      expect(viaKey.statusCode).toBe(403);
      expect(viaKey.json()).toMatchObject({ code: 'api_key_read_only' });
    });
  });

  describe('rate limits', () => {
    it('limits mails to one address from many IPs, known or not, with 429 and Retry-After', async () => {
      for (const email of [(await createUser(t)).email, `ghost-${Date.now()}@example.com`]) {
        for (let i = 0; i < 5; i++) {
          expect((await post('/api/auth/password/forgot', { email })).statusCode).toBe(202);
        }
        const refused = await post('/api/auth/password/forgot', { email });
        expect(refused.statusCode).toBe(429);
        expect(refused.headers['retry-after']).toBe('720');
        expect(refused.json()).toEqual({
          detail: 'Too many requests for account e-mails; wait before trying again.',
          code: 'rate_limited',
        });
      }
    });

    it('limits forgot and reset requests from one IP', async () => {
      const ip = freshIp();
      for (let i = 0; i < 30; i++) {
        const res = await post(
          '/api/auth/password/forgot',
          { email: `many-${i}-${Date.now()}@example.com` },
          ip,
        );
        expect(res.statusCode).toBe(202);
      }
      const refused = await post('/api/auth/password/forgot', { email: 'one-more@example.com' }, ip);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('120');

      const resetIp = freshIp();
      for (let i = 0; i < 30; i++) {
        const res = await post(
          '/api/auth/password/reset',
          { token: `guess${i}`, password: 'a brand new pw' },
          resetIp,
        );
        expect(res.statusCode).toBe(422);
      }
      const guess = await post(
        '/api/auth/password/reset',
        { token: 'guess', password: 'a brand new pw' },
        resetIp,
      );
      expect(guess.statusCode).toBe(429);
    });
  });

  it('logs no token, password or address', async () => {
    const u = await createUser(t);
    await post('/api/auth/password/forgot', { email: u.email });
    const token = await lastToken(u.email, '/reset-password');
    await post('/api/auth/password/reset', { token, password: 'secret new password 1' });
    await post('/api/auth/password/reset', { token, password: 'secret new password 2' });
    const email = `logged-${Date.now()}@example.com`;
    await post('/api/auth/register', { email, password: 'secret register pw' });
    const verifyToken = await lastToken(email, '/verify-email');
    await post('/api/auth/verify', { token: verifyToken });
    const text = t.logs.text;
    for (const secret of [token, verifyToken, 'secret new password', 'secret register pw', u.email, email]) {
      expect(text).not.toContain(secret);
    }
  });
});
