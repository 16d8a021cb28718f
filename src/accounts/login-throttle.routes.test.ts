import { describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { createUser } from '../../test/helpers/auth.js';
import { fixedClock } from '../clock.js';
import { memoryKv } from '../kv/index.js';

const GUESSER = '203.0.113.7';
const OWNER = '198.51.100.4';

function loginFrom(t: TestApp, remoteAddress: string, email: string, password: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress,
    payload: { email, password },
  });
}

/** An app whose clock (and store expiry) the test moves. */
async function appAt(start: string, env?: Record<string, string>) {
  const clock = fixedClock(start);
  const kv = memoryKv(() => clock.now().getTime());
  const t = await buildTestApp({ clock, kv, ...(env ? { env } : {}) });
  return { t, clock, kv };
}

describe('failed sign-ins never lock the owner out', () => {
  it('lets the right password in from a clean address while another address keeps guessing', async () => {
    const { t, clock, kv } = await appAt('2026-06-01T10:00:00Z');
    try {
      const u = await createUser(t);
      const guesses: number[] = [];
      // 60 guesses, one a second: the guesser's waits double, so most are refused unchecked.
      for (let i = 0; i < 60; i++) {
        guesses.push((await loginFrom(t, GUESSER, u.email, 'wrong password!')).statusCode);
        clock.advance(1000);
      }
      // Checked at 0-5 s (free), then after waits of 1, 2, 4, 8 and 16 s; the 11th failure (36 s)
      // starts a 32 s wait.
      expect(guesses.filter((s) => s === 401)).toHaveLength(11);
      expect(guesses.filter((s) => s === 429)).toHaveLength(49);
      const owner = await loginFrom(t, OWNER, u.email, u.password);
      expect(owner.statusCode).toBe(200);
      // The guesser stays slowed down, even when it finally sends the right password.
      const guesser = await loginFrom(t, GUESSER, u.email, u.password);
      expect(guesser.statusCode).toBe(429);
      expect(guesser.headers['retry-after']).toBe('8');
      expect(guesser.json()).toEqual({
        detail: 'Too many failed sign-in attempts; wait before trying again.',
        code: 'rate_limited',
      });
    } finally {
      await t.close();
      await kv.close();
    }
  });

  it('slows down guessing from many addresses for addresses that already failed, not for clean ones', async () => {
    const { t, kv } = await appAt('2026-06-01T10:00:00Z');
    try {
      const u = await createUser(t);
      // 11 addresses, one wrong guess each: the account's 11th failure starts its wait (1 s).
      for (let i = 1; i <= 11; i++) {
        expect((await loginFrom(t, `192.0.2.${i}`, u.email, 'wrong password!')).statusCode).toBe(401);
      }
      // An address that failed on this account is refused unchecked while the account waits...
      const again = await loginFrom(t, '192.0.2.1', u.email, 'another wrong one');
      expect(again.statusCode).toBe(429);
      expect(again.headers['retry-after']).toBe('1');
      const right = await loginFrom(t, '192.0.2.2', u.email, u.password);
      expect(right.statusCode).toBe(429);
      // ...a fresh address is checked as usual: a wrong password is 401, the right one gets in.
      expect((await loginFrom(t, '192.0.2.50', u.email, 'wrong password!')).statusCode).toBe(401);
      expect((await loginFrom(t, OWNER, u.email, u.password)).statusCode).toBe(200);
    } finally {
      await t.close();
      await kv.close();
    }
  });

  it('clears the address’s record on the account after a success', async () => {
    const { t, kv } = await appAt('2026-06-01T10:00:00Z');
    try {
      const u = await createUser(t);
      for (let i = 0; i < 5; i++) {
        expect((await loginFrom(t, OWNER, u.email, 'wrong password!')).statusCode).toBe(401);
      }
      expect((await loginFrom(t, OWNER, u.email, u.password)).statusCode).toBe(200);
      // Five more free failures, not a wait after the first.
      for (let i = 0; i < 5; i++) {
        expect((await loginFrom(t, OWNER, u.email, 'wrong password!')).statusCode).toBe(401);
      }
      expect((await loginFrom(t, OWNER, u.email, u.password)).statusCode).toBe(200);
    } finally {
      await t.close();
      await kv.close();
    }
  });
});

describe('authentication has its own per-IP bucket', () => {
  it('signs in after anonymous market reads used up the anonymous bucket', async () => {
    const { t, kv } = await appAt('2026-06-01T12:00:00Z', {
      ENTITLEMENTS: JSON.stringify({ anonymousRatePerMin: 3, authRatePerMin: 2 }),
    });
    try {
      const u = await createUser(t);
      const reads: number[] = [];
      for (let i = 0; i < 4; i++) reads.push((await t.app.inject({ url: '/api/trending' })).statusCode);
      expect(reads[3]).toBe(429);
      const first = await loginFrom(t, '127.0.0.1', u.email, u.password);
      expect(first.statusCode).toBe(200);
      expect(first.headers['ratelimit-policy']).toBe('"auth";q=2;w=60');
      expect(first.headers.ratelimit).toBe('"auth";r=1;t=30');
      const register = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email: 'another@example.com', password: 'a long enough password' },
      });
      expect(register.statusCode).toBe(200);
      // The auth bucket is limited on its own: the third request in the minute is refused.
      const third = await t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refresh_token: 'x' },
      });
      expect(third.statusCode).toBe(429);
      expect(third.headers['retry-after']).toBe('30');
      expect(third.json()).toEqual({ detail: 'Too many requests; slow down.', code: 'rate_limited' });
    } finally {
      await t.close();
      await kv.close();
    }
  });
});
