/**
 * Failure counters with a waiting period, in the Kv store (so processes share them through Redis):
 * `<key>:n` counts failures within a window, `<key>:until` holds when the current wait ends. The
 * sign-in throttle and the failed API-key lookup limit are both built on it.
 */
import type { Kv } from './kv.js';

/** How long `key` must still wait (0 when it need not). */
export async function waitingMs(kv: Kv, key: string, nowMs: number): Promise<number> {
  const until = Number(await kv.get(`${key}:until`));
  return until > nowMs ? until - nowMs : 0;
}

/** Failures counted for `key` in its current window. */
export async function failureCount(kv: Kv, key: string): Promise<number> {
  return Number(await kv.get(`${key}:n`));
}

/**
 * Counts one failure (the window starts at the first) and, when `waitFor(failures)` is above 0,
 * makes `key` wait that many milliseconds from now. Answers the count.
 */
export async function countFailure(
  kv: Kv,
  key: string,
  nowMs: number,
  windowMs: number,
  waitFor: (failures: number) => number,
): Promise<number> {
  const failures = await kv.incr(`${key}:n`, windowMs);
  const ms = waitFor(failures);
  if (ms > 0) await kv.set(`${key}:until`, String(nowMs + ms), ms);
  return failures;
}

/** Forgets `key`'s failures and wait. */
export async function clearFailures(kv: Kv, key: string): Promise<void> {
  await kv.del(`${key}:n`);
  await kv.del(`${key}:until`);
}
