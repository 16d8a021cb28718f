/**
 * A cheap per-IP limit on failed API-key lookups (the read API's X-API-Key and SDK ingest's
 * `api_key`): every unknown key costs a database lookup, so after `perMin` failures from one IP
 * within a minute that IP's key requests are refused for a minute without any lookup. A valid key
 * from a blocked IP is refused too: telling it apart would need the lookup this limit exists to
 * avoid. Counters live in the Kv store (shared through Redis).
 */
import { countFailure, waitingMs } from './failure-wait.js';
import type { Kv } from './kv.js';

const WINDOW_MS = 60_000;

export interface KeyLookupLimit {
  kv: Kv;
  /** Failed lookups allowed per IP per minute. */
  perMin: number;
  nowMs: number;
}

/** What a limited lookup found: the key, no key (counted against the IP), or nothing asked
 * because the IP is blocked for `retryAfterSec`. */
export type KeyLookup<T> =
  | { kind: 'found'; key: T }
  | { kind: 'unknown' }
  | { kind: 'blocked'; retryAfterSec: number };

/** Runs `lookup` (null: no such live key) unless `ip` is blocked; a miss counts against the IP. */
export async function lookUpKey<T>(
  limit: KeyLookupLimit,
  ip: string,
  lookup: () => Promise<T | null>,
): Promise<KeyLookup<T>> {
  const { kv, perMin, nowMs } = limit;
  const counter = `keyfail:ip:${ip}`;
  const wait = await waitingMs(kv, counter, nowMs);
  if (wait > 0) return { kind: 'blocked', retryAfterSec: wait / 1000 };
  const key = await lookup();
  if (key !== null) return { kind: 'found', key };
  await countFailure(kv, counter, nowMs, WINDOW_MS, (failures) => (failures >= perMin ? WINDOW_MS : 0));
  return { kind: 'unknown' };
}

export const KEY_LOOKUPS_BLOCKED_DETAIL =
  'Too many requests with an invalid API key from this address; wait before trying again.';
