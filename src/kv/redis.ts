import { Redis } from 'ioredis';
import { decide, type Kv, type RateDecision, type RateRule } from './kv.js';

// The same GCRA step as gcraStep() in kv.ts, run atomically inside Redis.
const GCRA = `
local now = tonumber(ARGV[1])
local emission = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1]) or ARGV[1])
if tat < now then tat = now end
local nxt = tat + emission
if nxt - now > burst * emission then return {0, tostring(tat)} end
redis.call('SET', KEYS[1], tostring(nxt), 'PX', math.max(1, math.ceil(nxt - now)))
return {1, tostring(nxt)}
`;

const INCR = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n
`;

/** How long one command may take before it fails (Redis answers in well under a millisecond; a
 * request must never wait on a Redis that hangs). */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

/** How long a store that need not connect waits for its first connection. */
const START_WAIT_MS = 1_000;

export interface RedisKvOptions {
  commandTimeoutMs?: number;
  /** Whether opening fails when Redis cannot be reached (default). When false the store opens
   * anyway, its commands fail at once until the client, reconnecting in the background, is back. */
  required?: boolean;
}

/** The Redis store, with what the resilient store (resilient.ts) needs to watch it. */
export interface RedisKv extends Kv {
  /** Whether the client is connected now. */
  readonly ready: boolean;
  /** The client's latest connection error (why it is not ready). */
  readonly lastError: Error | undefined;
  /** Resolves when Redis answers a PING (within the command timeout). */
  ping(): Promise<void>;
}

/**
 * Redis-backed store; every key is namespaced by `prefix` so tests and tenants never collide.
 * Every command is bounded: no offline queue (a disconnected client fails a command at once rather
 * than holding it until a reconnect), no retry of a command whose connection dropped, and a command
 * timeout. The client reconnects by itself, at most a second apart.
 */
export async function redisKv(url: string, prefix = 'svc:', options: RedisKvOptions = {}): Promise<RedisKv> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
  });
  // It reconnects by itself and failing commands surface as errors; a refused connection rejects
  // with "Connection is closed.", its cause is the error event.
  let lastError: Error | undefined;
  redis.on('error', (err: Error) => {
    lastError = err;
  });
  if (options.required ?? true) {
    try {
      await redis.connect();
    } catch (err) {
      redis.disconnect();
      throw lastError ?? err;
    }
  } else {
    // A Redis that accepts the connection but never answers would hold connect() for good: wait a
    // moment for it, then open anyway (not ready: commands fail until the client connects).
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      redis.connect().catch(() => {}),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, START_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
  }
  const k = (key: string) => `${prefix}${key}`;
  return {
    kind: 'redis',
    get ready() {
      return redis.status === 'ready';
    },
    get lastError() {
      return lastError;
    },
    async ping() {
      await redis.ping();
    },
    get: (key) => redis.get(k(key)),
    // A cache (options.cache) is kept like any value: every process deletes it here.
    async set(key, value, ttlMs) {
      await redis.set(k(key), value, 'PX', Math.max(1, Math.ceil(ttlMs)));
    },
    async del(key) {
      await redis.del(k(key));
    },
    async incr(key, ttlMs) {
      return Number(await redis.eval(INCR, 1, k(key), String(Math.max(1, Math.ceil(ttlMs)))));
    },
    async rateLimit(key: string, rule: RateRule, nowMs: number): Promise<RateDecision> {
      const [allowed, tat] = (await redis.eval(
        GCRA,
        1,
        k(key),
        String(nowMs),
        String(rule.emissionMs),
        String(rule.burst),
      )) as [number, string];
      return decide(allowed === 1, Number(tat), nowMs, rule);
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
