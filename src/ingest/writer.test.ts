import { describe, expect, it } from 'vitest';
import { systemClock } from '../clock.js';
import type { Db } from '../db/index.js';
import type { IngestQueue } from './queue.js';
import { IngestWriter } from './writer.js';

describe('IngestWriter', () => {
  it('logs a failed run once, however many ticks pass while it waits to fail', async () => {
    const errors: unknown[] = [];
    let fetches = 0;
    // A queue whose fetch waits 300 ms and then fails, as a fetch from a NATS that went away does.
    const queue = {
      kind: 'outbox',
      depth: () => 1,
      refreshDepth: async () => {},
      next: () => {
        fetches += 1;
        return new Promise((_, reject) =>
          setTimeout(() => reject(Object.assign(new Error('timed out'), { code: 'TIMEOUT' })), 300),
        );
      },
    } as unknown as IngestQueue;
    const writer = new IngestWriter({
      db: {} as Db,
      clock: systemClock,
      queue,
      log: { error: (obj: unknown) => errors.push(obj), warn: () => {} },
    });
    writer.start(20);
    await new Promise((r) => setTimeout(r, 450));
    await writer.stop();
    // Each run (one fetch) failed and was logged once; about 20 ticks passed meanwhile.
    expect(fetches).toBeGreaterThanOrEqual(1);
    expect(fetches).toBeLessThanOrEqual(2);
    expect(errors).toEqual(Array.from({ length: fetches }, () => ({ code: 'TIMEOUT' })));
  });
});
