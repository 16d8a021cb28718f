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

/** Redis-backed store; every key is namespaced by `prefix` so tests and tenants never collide. */
export async function redisKv(url: string, prefix = 'svc:'): Promise<Kv> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: true });
  redis.on('error', () => {}); // reconnects by itself; failing commands surface as errors
  await redis.connect();
  const k = (key: string) => `${prefix}${key}`;
  return {
    kind: 'redis',
    get: (key) => redis.get(k(key)),
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
