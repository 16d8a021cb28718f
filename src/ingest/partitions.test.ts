import { describe, expect, it } from 'vitest';
import type { Queryable } from '../db/index.js';
import { Partitions } from './partitions.js';

/** A Queryable that records the tables each CREATE names. */
function recorder(): { q: Queryable; created: string[] } {
  const created: string[] = [];
  const q = {
    exec: async (sql: string) => {
      created.push(/CREATE TABLE IF NOT EXISTS (\w+)/.exec(sql)?.[1] ?? sql);
    },
  } as unknown as Queryable;
  return { q, created };
}

describe('Partitions.ensure', () => {
  it('creates each month of the times once, whether given as Dates or ISO strings, and again after forget', async () => {
    const { q, created } = recorder();
    const partitions = new Partitions();
    await partitions.ensure(q, [
      '2027-01-01T00:00:00Z',
      new Date('2026-12-31T23:59:59.999Z'),
      new Date('2026-12-01T00:00:00Z'),
      new Date('2027-01-15T08:00:00Z'),
    ]);
    expect(created).toEqual(['events_p202701', 'events_p202612']);
    // Cached: nothing is created for months already made.
    await partitions.ensure(q, [new Date('2026-12-24T12:00:00Z'), '2027-01-31T23:00:00Z']);
    expect(created).toHaveLength(2);
    partitions.forget(2026, 12);
    await partitions.ensure(q, [new Date('2026-12-24T12:00:00Z'), new Date('2027-01-02T00:00:00Z')]);
    expect(created).toEqual(['events_p202701', 'events_p202612', 'events_p202612']);
  });
});
