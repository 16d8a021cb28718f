/**
 * A small key-value store with expiry and an atomic rate-limit step: in process memory by default,
 * in Redis when REDIS_URL is set, so that several processes share limits, counters and caches.
 */

/** Generic cell rate algorithm (a token bucket kept as one timestamp): `burst` requests at once,
 * then one every `emissionMs`. Read limits: burst = per-minute limit, emission = 60 s / limit. */
export interface RateRule {
  burst: number;
  emissionMs: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Requests still allowed right now. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSec: number;
  /** When refused: seconds until one request is allowed. */
  retryAfterSec: number;
}

export interface SetOptions {
  /** The value is a cache: a copy of what the database holds, which whoever changes the source
   * deletes. A store may drop it, and the resilient store does while Redis is unreachable (a copy
   * other processes cannot delete must not be served); a read then misses and goes to the source. */
  cache?: boolean;
}

export interface Kv {
  readonly kind: 'memory' | 'redis';
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number, options?: SetOptions): Promise<void>;
  del(key: string): Promise<void>;
  /** Adds 1 (creating the key with `ttlMs` when absent) and returns the new count. */
  incr(key: string, ttlMs: number): Promise<number>;
  /** One request against `rule` for `key` at `nowMs`, atomically. */
  rateLimit(key: string, rule: RateRule, nowMs: number): Promise<RateDecision>;
  close(): Promise<void>;
}

/** Turns the bucket's theoretical arrival time after this request into a decision. */
export function decide(allowed: boolean, tatMs: number, nowMs: number, rule: RateRule): RateDecision {
  const capacityMs = rule.burst * rule.emissionMs;
  const usedMs = Math.max(0, tatMs - nowMs);
  return {
    allowed,
    remaining: allowed ? Math.max(0, Math.floor((capacityMs - usedMs) / rule.emissionMs)) : 0,
    resetSec: Math.ceil(usedMs / 1000),
    retryAfterSec: allowed ? 0 : Math.max(1, Math.ceil((usedMs + rule.emissionMs - capacityMs) / 1000)),
  };
}

/** The GCRA step on a stored arrival time; shared by both stores (Redis runs the same in Lua). */
export function gcraStep(
  storedTat: number | null,
  nowMs: number,
  rule: RateRule,
): { allowed: boolean; tat: number } {
  const tat = Math.max(storedTat ?? nowMs, nowMs);
  const next = tat + rule.emissionMs;
  if (next - nowMs > rule.burst * rule.emissionMs) return { allowed: false, tat };
  return { allowed: true, tat: next };
}
