/**
 * Progressive slow-down of failed logins, per account and per client IP: after a few free
 * failures each further one doubles the wait (1 s, 2 s, 4 s … up to 15 min) before the next try is
 * even checked. Counters live in the Kv store, so several processes share them through Redis.
 */
import { errors } from '../errors.js';
import type { Kv } from '../kv/index.js';

const WINDOW_MS = 15 * 60_000;
const MAX_DELAY_SEC = 15 * 60;

export interface ThrottleScope {
  key: string;
  /** Failures allowed before delays start. */
  free: number;
}

export function loginScopes(email: string, ip: string): ThrottleScope[] {
  return [
    { key: `login:acct:${email}`, free: 5 },
    { key: `login:ip:${ip}`, free: 20 }, // an office or school may share one address
  ];
}

/** Throws 429 with Retry-After while any scope is in its waiting period. */
export async function assertNotThrottled(kv: Kv, scopes: ThrottleScope[], nowMs: number): Promise<void> {
  for (const scope of scopes) {
    const until = Number(await kv.get(`${scope.key}:until`));
    if (until > nowMs) {
      throw errors.rateLimited(
        (until - nowMs) / 1000,
        'Too many failed sign-in attempts; wait before trying again.',
      );
    }
  }
}

export async function recordFailure(kv: Kv, scopes: ThrottleScope[], nowMs: number): Promise<void> {
  for (const scope of scopes) {
    const failures = await kv.incr(`${scope.key}:n`, WINDOW_MS);
    if (failures > scope.free) {
      const delaySec = Math.min(MAX_DELAY_SEC, 2 ** (failures - scope.free - 1));
      await kv.set(`${scope.key}:until`, String(nowMs + delaySec * 1000), delaySec * 1000);
    }
  }
}

/** A successful login clears the account's counter (not the IP's). */
export async function recordSuccess(kv: Kv, email: string): Promise<void> {
  await kv.del(`login:acct:${email}:n`);
  await kv.del(`login:acct:${email}:until`);
}
