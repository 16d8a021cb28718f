/**
 * A cheap per-IP limit on failed API-key lookups (the read API's X-API-Key and SDK ingest's
 * `api_key`): every unknown key costs a database lookup, so after `perMin` failures from one IP
 * within a minute that IP's key requests get 429 for a minute without any lookup. A valid key from
 * a blocked IP is refused too: telling it apart would need the lookup this limit exists to avoid.
 * Counters live in the Kv store (shared through Redis).
 */
import { AppError, errors } from '../errors.js';
import { countFailure, waitingMs } from './failure-wait.js';
import type { Kv } from './kv.js';

const WINDOW_MS = 60_000;

export interface KeyLookupLimit {
  kv: Kv;
  /** Failed lookups allowed per IP per minute. */
  perMin: number;
  nowMs: number;
}

/**
 * Runs `lookup` unless `ip` is blocked (429 rate_limited with Retry-After); a lookup that fails
 * with 401 api_key_invalid counts against the IP.
 */
export async function limitKeyLookups<T>(
  limit: KeyLookupLimit,
  ip: string,
  lookup: () => Promise<T>,
): Promise<T> {
  const { kv, perMin, nowMs } = limit;
  const key = `keyfail:ip:${ip}`;
  const wait = await waitingMs(kv, key, nowMs);
  if (wait > 0) {
    throw errors.rateLimited(
      wait / 1000,
      'Too many requests with an invalid API key from this address; wait before trying again.',
    );
  }
  try {
    return await lookup();
  } catch (err) {
    if (err instanceof AppError && err.code === 'api_key_invalid') {
      await countFailure(kv, key, nowMs, WINDOW_MS, (failures) => (failures >= perMin ? WINDOW_MS : 0));
    }
    throw err;
  }
}
