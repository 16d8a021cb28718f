import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BreakoutInput, breakoutRadar, zScores } from './breakout.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const OLD = '2019-01-01';

function game(
  placeId: number,
  genre: string,
  ccu: number,
  votes: [number | null, number | null],
  created: string | null,
  visits: [number | null, number | null],
): BreakoutInput {
  return {
    universeId: placeId + 1000,
    placeId,
    name: `Game ${placeId}`,
    creator: `Creator ${placeId}`,
    genre,
    ccu,
    visits: ccu * 100,
    likes: votes[0],
    dislikes: votes[1],
    createdAt: created === null ? null : new Date(created),
    visitsGained24h: visits[0],
    meanDailyVisitsGainedPrev7d: visits[1],
  };
}

/**
 * Five games (fewer than 100, so winsorising clips nothing; only the biggest game is in the top 1%).
 *   momentum m = ln((gained24h + 1)/(mean7d + 1)); engagement e = like ratio × ln(1 + CCU)
 *   11: m = ln(10000/10000) = 0;          e = 0.9 × ln 5001 = 7.665654
 *   12: m = ln(3000/1000) = 1.098612;    e = 0.8 × ln 401 = 4.795169
 *   13: m = ln(100/200) = −0.693147;     no votes → simulation median of 0.9, 0.8 = 0.85; e = 0.85 × ln 101 = 3.922853
 *   14: no history → m = 0 (neutral);   no votes → obby median 0.3; e = 0.3 × ln 1 = 0
 *   15: m = ln(2000/1000) = 0.693147;    e = 0.3 × ln 1001 = 2.072627
 * m: mean 0.219722, sd 0.620720 → z = −0.353981, 1.415919, −1.470662, −0.353981, 0.762704
 * e: mean 3.691261, sd 2.581218 → z = 1.539736, 0.427669, 0.089722, −1.430050, −0.627084
 * 0.6·zm + 0.4·ze = 0.403506, 1.020619, −0.846508, −0.784409, 0.206789
 * ranks 13 < 14 < 15 < 11 < 12 → percentiles 0, 25, 50, 75, 100.
 */
const SMALL: BreakoutInput[] = [
  game(11, 'simulation', 5000, [900, 100], OLD, [9999, 9999]),
  game(12, 'simulation', 400, [80, 20], '2026-05-01', [2999, 999]),
  game(13, 'simulation', 100, [null, null], OLD, [99, 199]),
  game(14, 'obby_platformer', 0, [0, 0], null, [null, null]),
  game(15, 'obby_platformer', 1000, [30, 70], '2025-01-01', [1999, 999]),
];

describe('breakoutRadar', () => {
  it('scores a small market exactly as worked by hand and leaves out the old top-1% game', () => {
    const out = breakoutRadar(SMALL, NOW);
    expect(out.map((g) => [g.place_id, g.score])).toEqual([
      [12, 100],
      [15, 50],
      [14, 25],
      [13, 0],
    ]);
    expect(out[0]).toEqual({
      place_id: 12,
      universe_id: 1012,
      name: 'Game 12',
      creator: 'Creator 12',
      genre: 'simulation',
      ccu: 400,
      score: 100,
      visits: 40_000,
      likes: 80,
    });
    expect(out.find((g) => g.place_id === 13)?.likes).toBe(0); // unknown likes read as 0
  });

  it('keeps a top-1% game when it was created within the last 180 days', () => {
    const young = SMALL.map((g) => (g.placeId === 11 ? { ...g, createdAt: new Date('2026-03-01') } : g));
    expect(breakoutRadar(young, NOW).map((g) => [g.place_id, g.score])).toEqual([
      [12, 100],
      [11, 75],
      [15, 50],
      [14, 25],
      [13, 0],
    ]);
  });

  it('leaves out games 181 days old that are in the top 1%, and keeps games 180 days old', () => {
    const at = (days: number) => new Date(NOW.getTime() - days * 86_400_000);
    const one = (createdAt: Date) => breakoutRadar([{ ...SMALL[0]!, createdAt }], NOW);
    expect(one(at(180))).toHaveLength(1);
    expect(one(at(181))).toHaveLength(0);
  });

  it('treats the top 1% of 200 games as the 2 biggest and honours the top limit', () => {
    const games = Array.from({ length: 200 }, (_, i) =>
      game(i + 1, 'rpg', i + 1, [50, 50], OLD, [100 + i, 100]),
    );
    const all = breakoutRadar(games, NOW, 500);
    expect(all).toHaveLength(198);
    expect(all.map((g) => g.place_id)).not.toContain(200);
    expect(all.map((g) => g.place_id)).not.toContain(199);
    // Both momentum and engagement grow with the index, so the order is by CCU and the best of the
    // eligible games is the 3rd biggest: percentile (197 lower)/(199) = 98.99 → 99.
    expect(all.slice(0, 3).map((g) => [g.place_id, g.score])).toEqual([
      [198, 99],
      [197, 98.5],
      [196, 98],
    ]);
    expect(breakoutRadar(games, NOW)).toHaveLength(50);
    expect(breakoutRadar(games, NOW, 3).map((g) => g.place_id)).toEqual([198, 197, 196]);
    expect(breakoutRadar(games, NOW, 0)).toEqual([]);
    expect(breakoutRadar([], NOW)).toEqual([]);
  });

  it('gives identical games the same score and orders ties by CCU, then place id', () => {
    const twin = (placeId: number, ccu: number) => game(placeId, 'rpg', ccu, [10, 10], OLD, [100, 100]);
    const out = breakoutRadar([twin(3, 50), twin(2, 50), twin(1, 50), twin(9, 60)], NOW);
    // Game 9 is the top 1%; the three twins tie at (0 lower + 0.5 × 2 equal)/3 = 1/3 → 33.3.
    expect(out.map((g) => [g.place_id, g.score])).toEqual([
      [1, 33.3],
      [2, 33.3],
      [3, 33.3],
    ]);
  });

  it('does not let one viral game mute the momentum of the rest (winsorised log momentum)', () => {
    // 100 games: 97 flat ones, a viral game (1e9 visits after none), a game tripling its visits (M)
    // and a big, well-liked, flat game (P, new so it is eligible). The viral game's log momentum is
    // clipped to the 99th percentile, M's: without that the spread it causes would sink M below P.
    const games = [
      game(1, 'x', 100, [50, 50], OLD, [1e9, 0]),
      game(2, 'x', 100, [50, 50], OLD, [2999, 999]),
      game(3, 'x', 5000, [90, 10], '2026-05-01', [1000, 1000]),
      ...Array.from({ length: 97 }, (_, i) => game(100 + i, 'x', 100, [50, 50], OLD, [1000, 1000])),
    ];
    expect(breakoutRadar(games, NOW, 3).map((g) => [g.place_id, g.score])).toEqual([
      [1, 99.5],
      [2, 99.5],
      [3, 98],
    ]);
  });
});

describe('zScores', () => {
  it('standardises with the population deviation and gives 0 when all values are equal', () => {
    expect(zScores([1, 3])).toEqual([-1, 1]);
    expect(zScores([4, 4, 4])).toEqual([0, 0, 0]);
  });
});

const messy = fc.oneof(
  fc.double(),
  fc.integer({ min: 0, max: 1_000_000 }),
  fc.constantFrom(0, Number.NaN, Number.POSITIVE_INFINITY, -5),
);
const arbitraryGame = fc.record({
  universeId: fc.integer(),
  placeId: fc.integer({ min: 1, max: 1_000_000 }),
  name: fc.string(),
  creator: fc.string(),
  genre: fc.constantFrom('a', 'b', 'c'),
  ccu: messy,
  visits: messy,
  likes: fc.option(messy),
  dislikes: fc.option(messy),
  createdAt: fc.option(
    fc.date({ min: new Date('2015-01-01'), max: new Date('2027-01-01'), noInvalidDate: true }),
  ),
  visitsGained24h: fc.option(messy),
  meanDailyVisitsGainedPrev7d: fc.option(messy),
});

describe('properties', () => {
  it('keeps scores in 0..100, numbers finite and the order by score, for arbitrary inputs', () => {
    fc.assert(
      fc.property(
        fc.array(arbitraryGame, { maxLength: 150 }),
        fc.integer({ min: 0, max: 60 }),
        (games, top) => {
          const out = breakoutRadar(games, NOW, top);
          expect(out.length).toBeLessThanOrEqual(Math.min(top, games.length));
          for (const g of out) {
            expect(g.score).toBeGreaterThanOrEqual(0);
            expect(g.score).toBeLessThanOrEqual(100);
            for (const v of [g.score, g.ccu, g.visits, g.likes]) expect(Number.isFinite(v)).toBe(true);
          }
          for (let i = 1; i < out.length; i++)
            expect(out[i - 1]!.score).toBeGreaterThanOrEqual(out[i]!.score);
        },
      ),
    );
  });
});
