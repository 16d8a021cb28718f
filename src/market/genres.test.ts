import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeGenreOpportunities, freeShape, type GenreGameInput, percentileRanks } from './genres.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const NAMES = new Map([
  ['simulation', 'Simulation'],
  ['obby_platformer', 'Obby & platformer'],
  ['survival', 'Survival'],
  ['education', 'Education'],
]);

function game(
  universeId: number,
  genre: string,
  ccu: number,
  created: string | null,
  passes: [number | null, number | null] = [null, null],
): GenreGameInput {
  const createdAt = created === null ? null : new Date(created);
  return { universeId, genre, ccu, createdAt, gamepassCount: passes[0], gamepassMedianPrice: passes[1] };
}

const OLD = '2020-01-01';

/**
 * A four-genre platform. Platform CCU = 16005 + 1209 + 3300 + 131 = 20645 over 6 + 8 + 5 + 2 = 21
 * active games, so R = 983.0952. Demand per game ranks education < obby < survival < simulation,
 * so demand_pct = 0, 1/3, 2/3, 1.
 */
const PLATFORM: GenreGameInput[] = [
  // simulation: CCU 16005 (the 5-CCU game is inactive), 6 active → demand 2667.5.
  game(1, 'simulation', 4000, '2026-01-01', [5, 100]), // 5 × 100 / 4000 × 1000 = 125
  game(2, 'simulation', 3000, '2021-01-01', [10, 50]), // 166.67
  game(3, 'simulation', 3000, '2025-07-01', [null, 100]), // pass list not read yet: left out
  game(4, 'simulation', 2500, '2018-01-01', [2, 200]), // 160
  game(5, 'simulation', 2000, null, [0, null]), // 0
  game(6, 'simulation', 1500, '2019-01-01', [4, 25]), // 66.67
  game(7, 'simulation', 5, OLD),
  // obby_platformer: CCU 1209 (8 active of 10) → demand 151.125; the 200-CCU game is new.
  ...[300, 250, 200, 150, 100, 100, 50, 50, 9, 0].map((c, i) =>
    game(100 + i, 'obby_platformer', c, c === 200 ? '2026-05-01' : OLD),
  ),
  // survival: CCU 3300, 5 active → demand 660; the 1000 and 500 games are new; 1 pass of 100 each.
  ...[1000, 800, 600, 500, 400].map((c, i) =>
    game(200 + i, 'survival', c, c === 1000 ? '2025-12-01' : c === 500 ? '2026-04-01' : OLD, [1, 100]),
  ),
  // education: CCU 131, only 2 active → demand 65.5; no baseline.
  game(300, 'education', 100, '2026-02-01'),
  game(301, 'education', 20, OLD),
  game(302, 'education', 8, OLD),
  game(303, 'education', 3, OLD),
];
const BASELINE = new Map([
  ['simulation', 13000],
  ['obby_platformer', 1300],
  ['survival', 3000],
]);

describe('computeGenreOpportunities', () => {
  const result = computeGenreOpportunities(PLATFORM, BASELINE, NOW, NAMES);
  const byName = new Map(result.map((o) => [o.name, o]));

  it('orders genres by opportunity score, best first', () => {
    expect(result.map((o) => [o.name, o.opportunity_score])).toEqual([
      ['simulation', 77],
      ['survival', 57],
      ['obby_platformer', 29],
      ['education', 20],
    ]);
  });

  it('computes a strong genre exactly as worked by hand', () => {
    // growth = 16005/13000 − 1 = 0.231154; saturation = 983.0952 / (983.0952 + 2667.5) = 0.269297
    // top3 = (4000 + 3000 + 3000)/16005 = 0.624805; newcomers (games 1 and 3) = 7000/16005 = 0.437363
    // depth: median of [0, 66.67, 125, 160, 166.67] (game 3's list is not read yet) = 125
    // score: growth_score = 1/(1 + e^−1.849231) = 0.864104; openness = 0.437363 × √0.375195 = 0.267899
    // 100 × (0.40 × 1 + 0.35 × 0.864104 + 0.25 × 0.267899) = 76.94 → 77; ≥ 65 with saturation < 0.6
    expect(byName.get('simulation')).toEqual({
      name: 'simulation',
      display_name: 'Simulation',
      total_games: 7,
      total_ccu: 16005,
      avg_ccu: 2286.43,
      growth_rate: 0.2312,
      saturation_index: 0.2693,
      opportunity_score: 77,
      monetization_depth: 125,
      demand_per_game: 2667.5,
      top3_share: 0.6248,
      newcomer_share: 0.4374,
      entry_verdict: 'strong',
      recommendation:
        'Demand per game is 2,667.5 CCU (percentile 100 among genres) and the genre grew 23.1% in a week; ' +
        'saturation 0.2693 leaves room: a strong entry (opportunity 77).',
      locked: false,
    });
  });

  it('enters with an edge when the score is short of strong but nothing says avoid', () => {
    // growth 3300/3000 − 1 = 0.1 → growth_score 1/(1 + e^−0.8) = 0.689974
    // top3 2400/3300 = 0.727273; newcomers 1500/3300 = 0.454545 → openness 0.454545 × √0.272727 = 0.237379
    // 100 × (0.40 × 2/3 + 0.35 × 0.689974 + 0.25 × 0.237379) = 56.75 → 57
    // saturation 983.0952 / 1643.0952 = 0.598318 < 0.6; depth: median of 100, 125, 166.67, 200, 250
    expect(byName.get('survival')).toMatchObject({
      growth_rate: 0.1,
      saturation_index: 0.5983,
      opportunity_score: 57,
      monetization_depth: 166.67,
      demand_per_game: 660,
      top3_share: 0.7273,
      newcomer_share: 0.4545,
      entry_verdict: 'enter_with_edge',
    });
  });

  it('avoids a crowded genre that shrank', () => {
    // growth 1209/1300 − 1 = −0.07 → growth_score 1/(1 + e^0.56) = 0.363547
    // top3 750/1209 = 0.620347; newcomer 200/1209 = 0.165426 → openness 0.165426 × √0.379653 = 0.101929
    // 100 × (0.40/3 + 0.35 × 0.363547 + 0.25 × 0.101929) = 28.61 → 29; saturation 983.0952/1134.2202
    expect(byName.get('obby_platformer')).toMatchObject({
      display_name: 'Obby & platformer',
      total_games: 10,
      total_ccu: 1209,
      avg_ccu: 120.9,
      growth_rate: -0.07,
      saturation_index: 0.8668,
      opportunity_score: 29,
      monetization_depth: null, // no pass list read in the genre
      demand_per_game: 151.13,
      entry_verdict: 'avoid',
      recommendation:
        'A crowded genre (saturation 0.8668) and the genre shrank 7.0% in a week: avoid. ' +
        'Demand per game is 151.13 CCU (percentile 33 among genres).',
    });
  });

  it('calls a genre with fewer than 5 active games unproven, and has no growth without a baseline', () => {
    // top3 128/131 = 0.977099, newcomer 100/131 = 0.763359 → openness 0.763359 × √0.022901 = 0.115520
    // 100 × (0 + 0.35 × 0.5 + 0.25 × 0.115520) = 20.39 → 20
    expect(byName.get('education')).toMatchObject({
      growth_rate: null,
      saturation_index: 0.9375,
      opportunity_score: 20,
      demand_per_game: 65.5,
      top3_share: 0.9771,
      newcomer_share: 0.7634,
      entry_verdict: 'unproven',
      recommendation:
        'Only 2 of its games have 10 or more CCU, too few to judge the genre: unproven. ' +
        'Demand per game is 65.5 CCU (percentile 0 among genres).',
    });
  });
});

/** Five active games, one of them dominant: 10000 + 4 × 100 = 10400 CCU. */
const DOMINATED = [10_000, 100, 100, 100, 100].map((c, i) => game(400 + i, 'shooter', c, OLD));
/** Five small active games: 250 CCU, demand 50. */
const SMALL = [50, 50, 50, 50, 50].map((c, i) => game(500 + i, 'puzzle', c, OLD));

describe('entry verdict branches', () => {
  it('avoids a genre whose 3 biggest games hold 80% or more, even when it grows and has room', () => {
    // R = 10650/10 = 1065; saturation = 1065/(1065 + 2080) = 0.338633; growth 10400/10000 − 1 = 0.04
    // score = 100 × (0.40 × 1 + 0.35/(1 + e^−0.32) + 0) = 60.28 → 60, short of strong
    const [shooter] = computeGenreOpportunities(
      [...DOMINATED, ...SMALL],
      new Map([
        ['shooter', 10_000],
        ['puzzle', 250],
      ]),
      NOW,
      new Map(),
    );
    expect(shooter).toMatchObject({
      name: 'shooter',
      display_name: 'Shooter',
      opportunity_score: 60,
      saturation_index: 0.3386,
      growth_rate: 0.04,
      top3_share: 0.9808,
      entry_verdict: 'avoid',
      recommendation:
        'The 3 biggest games hold 98.1% of genre CCU, so newcomers fight entrenched leaders: avoid. ' +
        'Opportunity 60, saturation 0.3386, and the genre grew 4.0% in a week.',
    });
  });

  it('calls a genre with 5 active games but no baseline unproven', () => {
    const [shooter] = computeGenreOpportunities([...DOMINATED, ...SMALL], new Map(), NOW, new Map());
    expect(shooter).toMatchObject({
      growth_rate: null,
      entry_verdict: 'unproven',
      recommendation:
        'Demand per game is 2,080 CCU (percentile 100 among genres) and saturation 0.3386, but there is no ' +
        'CCU baseline from 7 days ago yet, so growth is unknown: unproven.',
    });
  });

  it('treats a zero baseline as no baseline rather than infinite growth', () => {
    const [shooter] = computeGenreOpportunities(DOMINATED, new Map([['shooter', 0]]), NOW, new Map());
    expect(shooter?.growth_rate).toBeNull();
  });
});

describe('edge cases', () => {
  it('places a lone genre at the platform norm: saturation 0.5 and demand percentile 0.5', () => {
    // 5 active games of 100 CCU, one new: top3 = 0.6, newcomer = 0.2 → openness 0.2 × √0.4 = 0.126491
    // growth 0 → growth_score 0.5; 100 × (0.40 × 0.5 + 0.35 × 0.5 + 0.25 × 0.126491) = 40.66 → 41
    const games = [100, 100, 100, 100, 100].map((c, i) => game(i, 'rpg', c, i === 0 ? '2026-05-01' : OLD));
    const [rpg] = computeGenreOpportunities(games, new Map([['rpg', 500]]), NOW, new Map([['rpg', 'RPG']]));
    expect(rpg).toMatchObject({
      display_name: 'RPG',
      saturation_index: 0.5,
      growth_rate: 0,
      opportunity_score: 41,
      newcomer_share: 0.2,
      top3_share: 0.6,
      entry_verdict: 'enter_with_edge',
    });
    expect(percentileRanks([42])).toEqual([0.5]);
  });

  it('gives a genre with no active games and no CCU demand 0, saturation 1 and null shares', () => {
    const games = [game(1, 'rpg', 100, OLD), game(2, 'social', 0, OLD), game(3, 'social', 4, OLD)];
    const social = computeGenreOpportunities(games, new Map(), NOW, new Map()).find(
      (o) => o.name === 'social',
    );
    expect(social).toMatchObject({
      total_games: 2,
      total_ccu: 4,
      avg_ccu: 2,
      demand_per_game: 0,
      saturation_index: 1,
      monetization_depth: null,
      top3_share: 1,
      entry_verdict: 'unproven',
    });
    const empty = computeGenreOpportunities([game(1, 'social', 0, OLD)], new Map(), NOW, new Map());
    expect(empty[0]).toMatchObject({ top3_share: null, newcomer_share: null, saturation_index: 1 });
  });

  it('ranks demand by mid-rank percentile, ties sharing the average rank', () => {
    expect(percentileRanks([10, 30, 20, 30])).toEqual([0, 5 / 6, 1 / 3, 5 / 6]);
    expect(percentileRanks([7, 7, 7])).toEqual([0.5, 0.5, 0.5]);
  });
});

describe('freeShape', () => {
  it('keeps only names and totals, locks the row and nulls every analytic field', () => {
    const full = computeGenreOpportunities(PLATFORM, BASELINE, NOW, NAMES)[0]!;
    expect(freeShape(full)).toEqual({
      name: 'simulation',
      display_name: 'Simulation',
      total_games: 7,
      total_ccu: 16005,
      avg_ccu: null,
      growth_rate: null,
      saturation_index: null,
      opportunity_score: null,
      monetization_depth: null,
      demand_per_game: null,
      top3_share: null,
      newcomer_share: null,
      entry_verdict: null,
      recommendation: null,
      locked: true,
    });
  });
});

const messyNumber = fc.oneof(
  fc.double({ min: -100, max: 1e7 }),
  fc.integer({ min: 0, max: 100_000 }),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, 0, 10),
);
const arbitraryGame = fc.record({
  universeId: fc.integer({ min: 1, max: 1_000_000 }),
  genre: fc.constantFrom('a', 'b', 'c', 'd'),
  ccu: messyNumber,
  createdAt: fc.option(
    fc.date({ min: new Date('2015-01-01'), max: new Date('2027-01-01'), noInvalidDate: true }),
  ),
  gamepassCount: fc.option(messyNumber),
  gamepassMedianPrice: fc.option(messyNumber),
});

describe('properties', () => {
  it('keeps scores in 0..100, saturation in (0, 1] and every number finite, for arbitrary inputs', () => {
    fc.assert(
      fc.property(
        fc.array(arbitraryGame, { maxLength: 60 }),
        fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), messyNumber),
        (games, base) => {
          const out = computeGenreOpportunities(games, new Map(Object.entries(base)), NOW, new Map());
          expect(out.reduce((s, o) => s + o.total_games, 0)).toBe(games.length);
          for (const o of out) {
            expect(Number.isInteger(o.opportunity_score)).toBe(true);
            expect(o.opportunity_score).toBeGreaterThanOrEqual(0);
            expect(o.opportunity_score).toBeLessThanOrEqual(100);
            expect(o.saturation_index).toBeGreaterThan(0);
            expect(o.saturation_index).toBeLessThanOrEqual(1);
            for (const v of Object.values(o))
              if (typeof v === 'number') expect(Number.isFinite(v)).toBe(true);
            expect(o.recommendation).not.toMatch(/NaN|Infinity|undefined|null/);
          }
          for (let i = 1; i < out.length; i++) {
            expect(out[i - 1]!.opportunity_score!).toBeGreaterThanOrEqual(out[i]!.opportunity_score!);
          }
        },
      ),
    );
  });
});
