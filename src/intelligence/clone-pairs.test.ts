import { describe, expect, it } from 'vitest';
import { creationGapDays, orderPair, type PairGame, sameCreator } from './clone-pairs.js';

const g = (
  universe_id: number,
  created: string | null,
  ccu: number | null,
  creator_id: number | null = 1,
): PairGame => ({
  universe_id,
  creator_id,
  creator_type: 'User',
  creator_name: 'Maker',
  created_at: created ? new Date(created) : null,
  ccu,
});

const ids = ([o, c]: [PairGame, PairGame]) => [o.universe_id, c.universe_id];

describe('clone pairs', () => {
  it('takes the game created first as the original, undated games last', () => {
    expect(ids(orderPair(g(1, '2025-02-01', 9), g(2, '2025-01-01', 0)))).toEqual([2, 1]);
    expect(ids(orderPair(g(1, null, 900), g(2, '2025-01-01', 0)))).toEqual([2, 1]);
  });

  it('breaks a tie by the busier game, then the lower universe id', () => {
    expect(ids(orderPair(g(1, '2025-01-01', 5), g(2, '2025-01-01', 7)))).toEqual([2, 1]);
    expect(ids(orderPair(g(1, null, null), g(2, null, 0)))).toEqual([1, 2]);
    expect(ids(orderPair(g(3, '2025-01-01', 5), g(2, '2025-01-01', 5)))).toEqual([2, 3]);
  });

  it('measures the creation gap in days with one decimal, null when a date is unknown', () => {
    expect(creationGapDays(g(1, '2025-01-01T00:00:00Z', 0), g(2, '2025-01-11T06:00:00Z', 0))).toBe(10.3);
    expect(creationGapDays(g(1, '2025-01-01', 0), g(2, null, 0))).toBeNull();
  });

  it('tells the same creator by id and type, by name when an id is unknown', () => {
    expect(sameCreator(g(1, null, 0, 5), g(2, null, 0, 5))).toBe(true);
    expect(sameCreator(g(1, null, 0, 5), { ...g(2, null, 0, 5), creator_type: 'Group' })).toBe(false);
    expect(sameCreator(g(1, null, 0, null), { ...g(2, null, 0, 7), creator_name: 'maker' })).toBe(true);
  });
});
