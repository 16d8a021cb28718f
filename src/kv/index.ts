/**
 * Shared ephemeral state (rate limits, failure counters, short caches): in memory by default, in
 * Redis when REDIS_URL is set (falling back to memory while Redis is unreachable: resilient.ts).
 * Holds nothing that must survive a restart: that goes in the database.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Kv } from './kv.js';
import { memoryKv } from './memory.js';
import { redisKv } from './redis.js';
import { resilientKv } from './resilient.js';

export { clearFailures, countFailure, failureCount, waitingMs } from './failure-wait.js';
export {
  KEY_LOOKUPS_BLOCKED_DETAIL,
  type KeyLookup,
  type KeyLookupLimit,
  lookUpKey,
} from './key-lookup-throttle.js';
export {
  decide,
  gcraStep,
  type Kv,
  type RateDecision,
  type RateRule,
  type SetOptions,
} from './kv.js';
export { memoryKv } from './memory.js';
export { type RedisKv, redisKv } from './redis.js';
export { type ResilientKv, resilientKv } from './resilient.js';

/** The process's store: memory, or Redis with memory to fall back on. Never fails on a Redis that
 * is down: the process starts degraded (one warning in `log`) and moves to Redis once it answers. */
export async function connectKv(
  config: Pick<Config, 'redisUrl'>,
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>,
): Promise<Kv> {
  if (!config.redisUrl) return memoryKv();
  return resilientKv(await redisKv(config.redisUrl, 'svc:', { required: false }), { log });
}
