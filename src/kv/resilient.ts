/**
 * The store of a process with REDIS_URL: Redis while it answers, this process's memory while it
 * does not, so that losing Redis never fails or stalls a request and never stops a process from
 * starting.
 *
 * Every Redis command is bounded (redis.ts: no offline queue, so a disconnected client fails at
 * once, and a command timeout for a Redis that hangs). The first command that fails opens a
 * circuit, as the ingest queue does for NATS (ingest/jetstream.ts): that operation and every one
 * after it go to an in-process memoryKv without trying Redis, and a PING every `probeMs` (1 s)
 * closes the circuit once Redis answers. One warning when it opens, one info when it closes, never
 * one per request. A process that starts while Redis is down starts with the circuit open.
 *
 * What each kind of use gets while the circuit is open:
 * - Rate limits (rateLimit: read, ingest and account-mail limits): decided in memory, so each
 *   process enforces the whole limit on its own; with N processes up to N times the limit gets
 *   through. Refusing every request, or none, would be worse.
 * - Failure counters (the sign-in throttle and the failed API-key lookups: incr, get, set, del on
 *   their keys): counted in memory, per process, like the rate limits; a wait they impose holds on
 *   the process that counted it.
 * - Caches (set with `{ cache: true }`: the auth state, team memberships): not stored, so every
 *   read misses and goes to the database. A cached copy is only right where whoever changes the
 *   source can delete it: a logout or a plan change on another process cannot reach this one's
 *   memory, and would go unnoticed here for the cache's life (30 s). The price is a database read
 *   per authenticated request while degraded.
 * - OAuth state, single use (incr): counted in memory, so single use per process. A callback
 *   replayed to another process passes this check, but it still needs its sealed flow cookie and an
 *   authorization code, which the provider redeems only once.
 * - Deletes: from memory always (an entry counted in an earlier outage must not outlive its clear);
 *   those that did not reach Redis (made while the circuit was open, or failed), and cache sets that
 *   failed (a timed-out SET may still land), are remembered (the newest MAX_UNSENT keys) and
 *   deleted from Redis before the circuit closes: a Redis that was out of reach but kept its data
 *   would otherwise serve an auth state a logout here deleted. What this cannot cover: a process
 *   that still reaches Redis while this one does not may serve such a copy until this one is back
 *   or the copy expires.
 * When the circuit closes Redis's counts apply again, whatever memory counted meanwhile; memory
 * keeps its entries until they expire (a next outage finds its waits).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kv, RateDecision, RateRule, SetOptions } from './kv.js';
import { memoryKv } from './memory.js';
import type { RedisKv } from './redis.js';

export const DEGRADED_MESSAGE = 'Redis unreachable: rate limits and caches are per process until it is back';
export const RECOVERED_MESSAGE = 'Redis is back: rate limits and caches are shared again';

/** Deletes remembered for Redis while it is unreachable; beyond it the oldest are forgotten (each
 * is one key of a short-lived cache or counter, which expires in Redis by itself). */
export const MAX_UNSENT = 10_000;
/** Remembered deletes sent at once when Redis is back. */
const REPLAY_CHUNK = 100;

export interface ResilientKvOptions {
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  /** How often an open circuit pings Redis (default 1 s). */
  probeMs?: number;
  /** The fallback store (default a new memoryKv); closed with this store. */
  memory?: Kv;
}

export interface ResilientKv extends Kv {
  /** Whether the circuit is open (the memory store answers). */
  readonly degraded: boolean;
}

/** Why a command failed, for the log: its code or message (ioredis's never hold the URL). */
function reasonOf(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return err instanceof Error ? err.message : String(err);
}

export function resilientKv(redis: RedisKv, options: ResilientKvOptions): ResilientKv {
  const memory = options.memory ?? memoryKv();
  const probeMs = options.probeMs ?? 1_000;
  const { log } = options;
  let open = false;
  let closed = false;
  let probe: NodeJS.Timeout | undefined;
  // Insertion order is age: a key deleted again moves to the end.
  const unsent = new Set<string>();

  const remember = (key: string) => {
    unsent.delete(key);
    unsent.add(key);
    if (unsent.size > MAX_UNSENT) {
      const oldest = unsent.values().next().value;
      if (oldest !== undefined) unsent.delete(oldest);
    }
  };

  /** Redis answers and every remembered delete reached it. */
  const reachable = async (): Promise<boolean> => {
    try {
      await redis.ping();
      while (unsent.size > 0) {
        const keys = [...unsent].slice(0, REPLAY_CHUNK);
        await Promise.all(keys.map((key) => redis.del(key)));
        for (const key of keys) unsent.delete(key);
      }
      return true;
    } catch {
      return false;
    }
  };

  const schedule = () => {
    probe = setTimeout(() => {
      probe = undefined;
      void reachable().then((ok) => {
        if (closed) return;
        if (!ok) return schedule();
        open = false;
        log.info(RECOVERED_MESSAGE);
      });
    }, probeMs);
    probe.unref();
  };

  const trip = (reason: string) => {
    if (open || closed) return;
    open = true;
    log.warn({ reason }, DEGRADED_MESSAGE);
    schedule();
  };

  /** `onRedis` unless the circuit is open or it fails (then `failed`, and the circuit opens);
   * `onMemory` otherwise. */
  async function use<T>(
    onRedis: () => Promise<T>,
    onMemory: () => Promise<T>,
    failed?: () => void,
  ): Promise<T> {
    if (!open) {
      try {
        return await onRedis();
      } catch (err) {
        failed?.();
        trip(reasonOf(err));
      }
    }
    return onMemory();
  }

  if (!redis.ready) trip(redis.lastError ? reasonOf(redis.lastError) : 'not connected');

  return {
    kind: 'redis',
    get degraded() {
      return open;
    },
    get: (key) =>
      use(
        () => redis.get(key),
        () => memory.get(key),
      ),
    set(key: string, value: string, ttlMs: number, setOptions?: SetOptions) {
      if (setOptions?.cache) {
        return use(
          () => redis.set(key, value, ttlMs),
          async () => {},
          () => remember(key),
        );
      }
      return use(
        () => redis.set(key, value, ttlMs),
        () => memory.set(key, value, ttlMs),
      );
    },
    async del(key) {
      await memory.del(key);
      await use(
        () => redis.del(key),
        async () => remember(key),
      );
    },
    incr: (key, ttlMs) =>
      use(
        () => redis.incr(key, ttlMs),
        () => memory.incr(key, ttlMs),
      ),
    rateLimit: (key: string, rule: RateRule, nowMs: number): Promise<RateDecision> =>
      use(
        () => redis.rateLimit(key, rule, nowMs),
        () => memory.rateLimit(key, rule, nowMs),
      ),
    async close() {
      closed = true;
      if (probe) clearTimeout(probe);
      await redis.close();
      await memory.close();
    },
  };
}
