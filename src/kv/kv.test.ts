import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kv } from './kv.js';
import { memoryKv } from './memory.js';
import { redisKv } from './redis.js';

const REDIS_URL = process.env.REDIS_URL;
const stores: [string, () => Promise<Kv>][] = [['memory', async () => memoryKv()]];
if (REDIS_URL) stores.push(['redis', () => redisKv(REDIS_URL, `svc-test:${randomUUID()}:`)]);

describe.each(stores)('%s store', (_name, open) => {
  let kv: Kv;
  beforeAll(async () => {
    kv = await open();
  });
  afterAll(async () => {
    await kv.close();
  });

  it('sets, reads and deletes values', async () => {
    await kv.set('a', 'one', 60_000);
    expect(await kv.get('a')).toBe('one');
    await kv.del('a');
    expect(await kv.get('a')).toBeNull();
  });

  it('expires values after their ttl', async () => {
    await kv.set('short', 'x', 30);
    await new Promise((r) => setTimeout(r, 80));
    expect(await kv.get('short')).toBeNull();
  });

  it('counts with incr', async () => {
    expect(await kv.incr('n', 60_000)).toBe(1);
    expect(await kv.incr('n', 60_000)).toBe(2);
    expect(await kv.incr('n', 60_000)).toBe(3);
  });

  it('allows a burst, refuses the next request with Retry-After, and refills over time', async () => {
    const rule = { burst: 3, emissionMs: 1000 }; // 3 at once, then one per second
    const t0 = 1_800_000_000_000;
    const first = await kv.rateLimit('rl', rule, t0);
    expect(first).toEqual({ allowed: true, remaining: 2, resetSec: 1, retryAfterSec: 0 });
    expect(await kv.rateLimit('rl', rule, t0)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await kv.rateLimit('rl', rule, t0)).toEqual({
      allowed: true,
      remaining: 0,
      resetSec: 3,
      retryAfterSec: 0,
    });
    expect(await kv.rateLimit('rl', rule, t0)).toEqual({
      allowed: false,
      remaining: 0,
      resetSec: 3,
      retryAfterSec: 1,
    });
    expect(await kv.rateLimit('rl', rule, t0 + 999)).toMatchObject({ allowed: false });
    expect(await kv.rateLimit('rl', rule, t0 + 1000)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await kv.rateLimit('rl', rule, t0 + 10_000)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('keeps separate buckets per key', async () => {
    const rule = { burst: 1, emissionMs: 60_000 };
    const now = 1_800_000_000_000;
    expect((await kv.rateLimit('user:1', rule, now)).allowed).toBe(true);
    expect((await kv.rateLimit('user:1', rule, now)).allowed).toBe(false);
    expect((await kv.rateLimit('user:2', rule, now)).allowed).toBe(true);
  });
});

describe.runIf(REDIS_URL)('redis store shared by two processes', () => {
  it('enforces one limit across two clients', async () => {
    const prefix = `svc-test:${randomUUID()}:`;
    const a = await redisKv(REDIS_URL!, prefix);
    const b = await redisKv(REDIS_URL!, prefix);
    try {
      const rule = { burst: 10, emissionMs: 6000 };
      const now = 1_800_000_000_000;
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).rateLimit('shared', rule, now)),
      );
      expect(results.filter((r) => r.allowed)).toHaveLength(10);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
