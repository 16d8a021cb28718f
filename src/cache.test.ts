import { describe, expect, it } from 'vitest';
import { TtlCache } from './cache.js';

describe('TtlCache', () => {
  it('computes a key once while fresh, again once it has expired', async () => {
    const cache = new TtlCache<number>(1000);
    let runs = 0;
    const compute = async () => ++runs;
    expect(await cache.get('k', 0, compute)).toBe(1);
    expect(await cache.get('k', 999, compute)).toBe(1);
    expect(await cache.get('k', 1000, compute)).toBe(2);
    // A clock that went back never serves an entry from its future.
    expect(await cache.get('k', 500, compute)).toBe(3);
    expect(await cache.get('other', 500, compute)).toBe(4);
  });

  it('shares one computation between concurrent asks, and forgets a failure at once', async () => {
    const cache = new TtlCache<string>(1000);
    let runs = 0;
    const [a, b] = await Promise.all([
      cache.get('k', 0, async () => `v${++runs}`),
      cache.get('k', 0, async () => `v${++runs}`),
    ]);
    expect([a, b, runs]).toEqual(['v1', 'v1', 1]);
    await expect(cache.get('bad', 0, () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('bad', 1, async () => 'ok')).toBe('ok');
  });

  it('starts over past its key bound, and clear() empties it', async () => {
    const cache = new TtlCache<number>(1000, 2);
    let runs = 0;
    const compute = async () => ++runs;
    await cache.get('a', 0, compute);
    await cache.get('b', 0, compute);
    await cache.get('c', 0, compute); // bound reached: a and b dropped
    expect(await cache.get('a', 0, compute)).toBe(4);
    cache.clear();
    expect(await cache.get('a', 0, compute)).toBe(5);
  });
});
