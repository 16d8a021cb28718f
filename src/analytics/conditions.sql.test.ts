/**
 * What conditionSql means on real rows, on each engine: numbers and strings are different values,
 * a missing field never matches neq, contains reads strings and lists, comparisons skip non-numbers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDb, type TestDb, testEngines } from '../../test/helpers/db.js';
import { type ConditionT, conditionSql } from './conditions.js';

/** The columns conditionSql reads from an events row. */
const ROWS: { id: number; type: string; country: string | null; payload: Record<string, unknown> }[] = [
  { id: 1, type: 'level', country: 'DE', payload: { level: 5, title: 'the vip lounge' } },
  { id: 2, type: 'level', country: 'US', payload: { level: '5' } },
  { id: 3, type: 'session_start', country: 'DE', payload: {} },
  { id: 4, type: 'custom', country: null, payload: { name: 'x', tags: ['vip', 'beta'], meta: { tier: 2 } } },
  { id: 5, type: 'level', country: 'BR', payload: { level: 'high' } },
];

describe.each(testEngines())('conditionSql on real rows (%s)', (engine) => {
  let t: TestDb;

  beforeAll(async () => {
    t = await emptyDb(engine);
    await t.db.exec(
      'CREATE TABLE ev (id int, type text, platform text, country text, game_id text, payload jsonb)',
    );
    for (const r of ROWS) {
      await t.db.query(`INSERT INTO ev VALUES ($1, $2, 'platform_1', $3, 'g1', $4::jsonb)`, [
        r.id,
        r.type,
        r.country,
        JSON.stringify(r.payload),
      ]);
    }
  });
  afterAll(() => t.dispose());

  async function matching(
    conditions: ConditionT[],
    extra: { match?: 'all' | 'any'; event_type?: string } = {},
  ): Promise<number[]> {
    const c = conditionSql({ conditions, ...extra }, 'e', 1);
    const r = await t.db.query<{ id: number }>(`SELECT id FROM ev e WHERE ${c.sql} ORDER BY id`, c.params);
    return r.rows.map((row) => row.id);
  }

  it('tells a number from a string with eq', async () => {
    expect(await matching([{ field: 'payload.level', op: 'eq', value: 5 }])).toEqual([1]);
    expect(await matching([{ field: 'payload.level', op: 'eq', value: '5' }])).toEqual([2]);
  });

  it('never matches neq where the payload field is missing', async () => {
    // Rows 3 and 4 have no level: they are not "a level other than 5".
    expect(await matching([{ field: 'payload.level', op: 'neq', value: 5 }])).toEqual([2, 5]);
  });

  it('reads contains as a substring of a string and as an element of a list', async () => {
    expect(await matching([{ field: 'payload.title', op: 'contains', value: 'vip' }])).toEqual([1]);
    expect(await matching([{ field: 'payload.tags', op: 'contains', value: 'vip' }])).toEqual([4]);
    // A list element must equal the value, not merely contain it.
    expect(await matching([{ field: 'payload.tags', op: 'contains', value: 'vi' }])).toEqual([]);
    expect(await matching([{ field: 'country', op: 'contains', value: 'E' }])).toEqual([1, 3]);
  });

  it('skips non-numbers with gt instead of failing', async () => {
    // '5' and 'high' are strings: no match, and no cast error either.
    expect(await matching([{ field: 'payload.level', op: 'gt', value: 3 }])).toEqual([1]);
    expect(await matching([{ field: 'payload.level', op: 'lte', value: 5 }])).toEqual([1]);
  });

  it('reads exists, in and nested fields', async () => {
    expect(await matching([{ field: 'payload.level', op: 'exists' }])).toEqual([1, 2, 5]);
    expect(await matching([{ field: 'payload.level', op: 'in', value: [5, 'high'] }])).toEqual([1, 5]);
    expect(await matching([{ field: 'payload.meta.tier', op: 'eq', value: 2 }])).toEqual([4]);
    expect(await matching([{ field: 'country', op: 'in', value: ['DE', 'BR'] }])).toEqual([1, 3, 5]);
  });

  it('combines with match all or any, and keeps one event type', async () => {
    const both: ConditionT[] = [
      { field: 'country', op: 'eq', value: 'DE' },
      { field: 'payload.level', op: 'exists' },
    ];
    expect(await matching(both)).toEqual([1]);
    expect(await matching(both, { match: 'any' })).toEqual([1, 2, 3, 5]);
    expect(await matching(both, { match: 'any', event_type: 'session_start' })).toEqual([3]);
  });
});
