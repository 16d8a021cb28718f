import { describe, expect, it } from 'vitest';
import { clearFailures, countFailure, failureCount, waitingMs } from './failure-wait.js';
import { memoryKv } from './memory.js';

describe('failure counters with a wait', () => {
  it('counts failures in a window, waits as told, and forgets on clear', async () => {
    let now = 1_000_000;
    const kv = memoryKv(() => now);
    const waitFor = (n: number) => (n >= 3 ? 5_000 : 0);
    expect(await countFailure(kv, 'k', now, 60_000, waitFor)).toBe(1);
    expect(await countFailure(kv, 'k', now, 60_000, waitFor)).toBe(2);
    expect(await waitingMs(kv, 'k', now)).toBe(0);
    expect(await countFailure(kv, 'k', now, 60_000, waitFor)).toBe(3);
    expect(await waitingMs(kv, 'k', now)).toBe(5_000);
    now += 2_000;
    expect(await waitingMs(kv, 'k', now)).toBe(3_000);
    expect(await failureCount(kv, 'k')).toBe(3);
    await clearFailures(kv, 'k');
    expect(await waitingMs(kv, 'k', now)).toBe(0);
    expect(await failureCount(kv, 'k')).toBe(0);
  });

  it('starts a new count when the window has passed', async () => {
    let now = 0;
    const kv = memoryKv(() => now);
    await countFailure(kv, 'k', now, 60_000, () => 0);
    now += 61_000;
    expect(await countFailure(kv, 'k', now, 60_000, () => 0)).toBe(1);
  });
});
