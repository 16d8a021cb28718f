/**
 * Redis (REDIS_URL): connect once without retrying, PING, and report the server's version and
 * the round trip (the median of a few PINGs: one alone is mostly the first packet's luck).
 */
import { Redis } from 'ioredis';
import type { Check, CheckContext, Finding } from './doctor.js';
import { maskUrl } from './mask.js';

const PINGS = 5;

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function check(ctx: CheckContext, url: string): Promise<Finding> {
  const at = maskUrl(url);
  ctx.about(at);
  ctx.step('connecting');
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: ctx.limitMs,
    commandTimeout: ctx.limitMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null, // one attempt: the doctor reports, it does not wait for recovery
  });
  // Without retries a refused connection rejects with "Connection is closed."; the cause is here.
  let cause: Error | undefined;
  redis.on('error', (err: Error) => {
    cause ??= err;
  });
  ctx.defer(() => redis.disconnect());
  try {
    await redis.connect();
  } catch (err) {
    throw cause ?? err;
  }
  ctx.step('PING');
  const rtts: number[] = [];
  for (let i = 0; i < PINGS; i += 1) {
    const started = performance.now();
    const pong = await redis.ping();
    rtts.push(performance.now() - started);
    if (pong !== 'PONG')
      return { status: 'FAIL', detail: `${at} answered PING with ${JSON.stringify(pong)}` };
  }
  const info = await redis.info('server');
  const version = /^redis_version:(\S+)/m.exec(info)?.[1] ?? 'unknown version';
  const rtt = median(rtts);
  return {
    status: 'ok',
    detail: `${at}, Redis ${version}, PING round trip ${rtt < 10 ? rtt.toFixed(2) : Math.round(rtt)} ms`,
  };
}

export const redisCheck: Check = {
  name: 'redis',
  async run(ctx) {
    const url = ctx.config.redisUrl;
    if (!url) {
      return {
        status: 'skip',
        detail: 'REDIS_URL is not set (rate limits and caches are kept in each process’s memory)',
      };
    }
    return check(ctx, url);
  },
};
