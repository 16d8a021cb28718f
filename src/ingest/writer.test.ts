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

  it('fetches the next claim while one is written, and hands it back when that write fails', async () => {
    const log: string[] = [];
    const claim = (name: string, fail = false) => ({
      write: async () => {
        log.push(`write ${name} starts`);
        await new Promise((r) => setTimeout(r, 20));
        if (fail) throw new Error(`${name} failed`);
        log.push(`write ${name} ends`);
        return { batches: 1, events: 500 };
      },
      done: async () => {
        log.push(`done ${name}`);
      },
      retry: async () => {
        log.push(`retry ${name}`);
      },
    });
    const claims = [claim('a'), claim('b', true), claim('c')];
    const queue = {
      kind: 'jetstream',
      depth: () => claims.length,
      refreshDepth: async () => {},
      next: async () => {
        const next = claims.shift() ?? null;
        log.push(next ? 'fetch' : 'fetch: none');
        return next;
      },
    } as unknown as IngestQueue;
    const db = { transaction: (fn: (tx: unknown) => Promise<unknown>) => fn({}) } as unknown as Db;
    const writer = new IngestWriter({ db, clock: systemClock, queue });
    await expect(writer.flush()).rejects.toThrow('b failed');
    expect(log).toEqual([
      'fetch',
      'fetch', // b, while a is written
      'write a starts',
      'write a ends',
      'done a',
      'fetch', // c, while b is written
      'write b starts',
      'retry b',
      'retry c', // fetched ahead, handed back rather than left to the ack wait
    ]);
    // Nothing was lost: c is written by the next run.
    claims.unshift(claim('c'));
    log.length = 0;
    expect(await writer.flush()).toBe(500);
    expect(log).toEqual(['fetch', 'fetch: none', 'write c starts', 'write c ends', 'done c']);
  });
});
