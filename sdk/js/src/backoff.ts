/** Retry timing: exponential backoff with full jitter, and the server's Retry-After. */

export interface BackoffOptions {
  /** The first retry's ceiling in ms (default 500). */
  baseMs: number;
  /** The ceiling never grows past this, in ms (default 30 000). */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, maxMs: 30_000 };

/** The ceiling of the wait before retry number `attempt` (1 = the first retry): base·2^(attempt-1), capped. */
export function backoffCeiling(attempt: number, options: BackoffOptions = DEFAULT_BACKOFF): number {
  const exp = Math.min(Math.max(attempt, 1) - 1, 52);
  return Math.min(options.maxMs, options.baseMs * 2 ** exp);
}

/**
 * Full jitter ("Exponential Backoff And Jitter", AWS Architecture Blog): a uniform draw in
 * [0, ceiling), so clients that failed together do not retry together. `random` returns [0, 1).
 */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number {
  return Math.floor(random() * backoffCeiling(attempt, options));
}

/**
 * A Retry-After header in ms from `nowMs`: delay-seconds or an HTTP date (RFC 9110 §10.2.3); null
 * when absent or unreadable. Never negative.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its weekday and month; Date.parse would also read "-3" as a year.
  if (!/[a-z]/i.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}
