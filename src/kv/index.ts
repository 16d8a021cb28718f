/**
 * Shared ephemeral state (rate limits, failure counters, short caches): in memory by default, in
 * Redis when REDIS_URL is set. Holds nothing that must survive a restart: that goes in the database.
 */
import type { Config } from '../config.js';
import type { Kv } from './kv.js';
import { memoryKv } from './memory.js';
import { redisKv } from './redis.js';

export { clearFailures, countFailure, failureCount, waitingMs } from './failure-wait.js';
export {
  KEY_LOOKUPS_BLOCKED_DETAIL,
  type KeyLookup,
  type KeyLookupLimit,
  lookUpKey,
} from './key-lookup-throttle.js';
export { decide, gcraStep, type Kv, type RateDecision, type RateRule } from './kv.js';
export { memoryKv } from './memory.js';
export { redisKv } from './redis.js';

export function connectKv(config: Pick<Config, 'redisUrl'>): Promise<Kv> {
  return config.redisUrl ? redisKv(config.redisUrl) : Promise.resolve(memoryKv());
}
