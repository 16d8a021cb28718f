/**
 * Progressive slow-down of failed logins. After a few free failures each further one doubles a
 * scope's wait (1 s, 2 s, 4 s … up to 15 min). Counters live in the Kv store, so several processes
 * share them through Redis.
 *
 * Why three scopes, and why only two of them refuse before the password is checked:
 *
 * - per (account, IP) pair: one client guessing one account. Checked before the password: while its
 *   wait runs the pair gets 429 whatever it sends, so the guesser learns nothing.
 * - per IP: one client guessing many accounts (an office or school may share an address, so it
 *   gets more free failures). Checked before the password too.
 * - per account: many IPs guessing one account (distributed guessing). If this wait refused every
 *   request, anyone could lock the real owner out by failing six times, so it never refuses a client
 *   that is clean for this account (no failure from its IP on this account in the window): such a
 *   client has its password checked as usual (right → 200, wrong → 401, which makes it unclean).
 *   Only clients that already failed on this account get 429 while the account's wait runs. A
 *   distributed guesser therefore gets one guess per fresh address while the account is under
 *   attack, and the owner signing in from their own (clean) address is never refused.
 *
 * A refused (429) attempt checks no password and counts no failure. A success clears the pair's
 * counter only: the account's and the IP's keep slowing whoever else is guessing.
 */
import { errors } from '../errors.js';
import { clearFailures, countFailure, failureCount, type Kv, waitingMs } from '../kv/index.js';

const WINDOW_MS = 15 * 60_000;
const MAX_DELAY_SEC = 15 * 60;
const MESSAGE = 'Too many failed sign-in attempts; wait before trying again.';

export interface ThrottleScope {
  key: string;
  /** Failures allowed before delays start. */
  free: number;
}

export interface LoginScopes {
  pair: ThrottleScope;
  ip: ThrottleScope;
  account: ThrottleScope;
}

export function loginScopes(email: string, ip: string): LoginScopes {
  return {
    pair: { key: `login:pair:${ip}:${email}`, free: 5 },
    ip: { key: `login:ip:${ip}`, free: 20 }, // an office or school may share one address
    account: { key: `login:acct:${email}`, free: 10 },
  };
}

function refuse(ms: number): never {
  throw errors.rateLimited(ms / 1000, MESSAGE);
}

/**
 * Throws 429 with Retry-After when this client may not have its password checked now: its pair or
 * its IP is waiting, or the account is waiting and this client already failed on it.
 */
export async function assertNotThrottled(kv: Kv, scopes: LoginScopes, nowMs: number): Promise<void> {
  for (const scope of [scopes.pair, scopes.ip]) {
    const ms = await waitingMs(kv, scope.key, nowMs);
    if (ms > 0) refuse(ms);
  }
  const accountMs = await waitingMs(kv, scopes.account.key, nowMs);
  if (accountMs > 0 && (await failureCount(kv, scopes.pair.key)) > 0) refuse(accountMs);
}

export async function recordFailure(kv: Kv, scopes: LoginScopes, nowMs: number): Promise<void> {
  for (const scope of [scopes.pair, scopes.ip, scopes.account]) {
    await countFailure(kv, scope.key, nowMs, WINDOW_MS, (failures) =>
      failures > scope.free
        ? Math.min(MAX_DELAY_SEC, 2 ** Math.min(30, failures - scope.free - 1)) * 1000
        : 0,
    );
  }
}

/** A successful login clears this client's record on the account (not the account's or the IP's). */
export async function recordSuccess(kv: Kv, scopes: LoginScopes): Promise<void> {
  await clearFailures(kv, scopes.pair.key);
}
