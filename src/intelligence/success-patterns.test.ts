import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  analysePatterns,
  commonTitleKeywords,
  MIN_ELIGIBLE,
  NUMERIC_FEATURES,
  type NumericFeature,
  type PatternGame,
  splitByGrowth,
} from './success-patterns.js';

const noFeatures = (): Record<NumericFeature, number | null> =>
  Object.fromEntries(NUMERIC_FEATURES.map((f) => [f, null])) as Record<NumericFeature, number | null>;

/** Game i: baseline 100, current 100 + 10·i (growth 0.1·i); i ≥ 15 is the top quartile of 20. */
function game(i: number): PatternGame {
  const top = i >= 15;
  return {
    universeId: i + 1,
    name: (top ? i < 19 : i === 0) ? `Pet Simulator ${i}` : `Obby ${i}`,
    current: 100 + 10 * i,
    baseline: 100,
    features: {
      ...noFeatures(),
      // Top: 4, 4.5, 5, 5.5, 6 updates per 30 days; the rest 0, 1 or 2: complete separation.
      updates_per_30d: top ? 4 + (i - 15) * 0.5 : i % 3,
      max_players: 20,
      like_ratio: i % 2 === 0 ? 0.9 : 0.8,
    },
  };
}

const twenty = Array.from({ length: 20 }, (_, i) => game(i));

describe('success patterns', () => {
  it('splits at the 75th percentile of growth (linear interpolation)', () => {
    const { threshold, top, rest } = splitByGrowth(twenty);
    // (20 − 1) · 0.75 = 14.25: between 1.4 and 1.5.
    expect(threshold).toBeCloseTo(1.425, 12);
    expect(top.map((g) => g.universeId)).toEqual([16, 17, 18, 19, 20]);
    expect(rest).toHaveLength(15);
  });

  it('finds the feature that separates the groups and says so; the others get no pattern', () => {
    const a = analysePatterns(twenty)!;
    expect(a.growthThreshold).toBe(1.425);
    expect(a.top).toEqual({ n: 5, medianGrowth: 1.7 });
    expect(a.rest).toEqual({ n: 15, medianGrowth: 0.7 });
    const updates = a.features.find((f) => f.feature === 'updates_per_30d')!;
    // Every top value above every other: δ = 1; the interval's low end is 2·W − 1 with W the Wilson
    // lower limit of 5 of 5 (5 / (5 + 1.96²) = 0.5655).
    expect(updates).toMatchObject({
      kind: 'numeric',
      measure: 'cliffs_delta',
      top: { n: 5, value: 5 },
      rest: { n: 15, value: 1 },
      effect: 1,
      ci_low: 0.131,
      ci_high: 1,
      significant: true,
    });
    expect(updates.pattern).toBe(
      "The fastest-growing games update more often than the rest (median 5 vs 1 updates per 30 days; Cliff's δ 1, 95% CI 0.13 to 1; 5 vs 15 games).",
    );
    expect(a.features.find((f) => f.feature === 'max_players')).toMatchObject({
      effect: 0,
      significant: false,
      pattern: null,
    });
    // Unknown everywhere: counted, not measured.
    expect(a.features.find((f) => f.feature === 'age_days')).toMatchObject({
      top: { n: 0, value: null },
      effect: null,
      ci_low: null,
      pattern: null,
    });
  });

  it('compares the commonest title keywords as a difference of proportions', () => {
    const a = analysePatterns(twenty)!;
    // "pet", "simulator" and "pet simulator" are on 4 of the 5 top titles and 1 of the 15 others.
    const pet = a.features.find((f) => f.feature === 'title:pet simulator')!;
    expect(pet).toMatchObject({
      kind: 'title_keyword',
      measure: 'difference_in_proportions',
      top: { n: 5, value: 0.8 },
      rest: { n: 15, value: 0.0667 },
      effect: 0.7333,
      significant: true,
    });
    expect(pet.ci_low).toBeGreaterThan(0);
    expect(pet.pattern).toMatch(
      /^“pet simulator” is in 80% of the fastest-growing games’ titles against 7% of the rest/,
    );
    // "obby" is on the other 15: 1 of 5 against 14 of 15.
    expect(a.features.find((f) => f.feature === 'title:obby')).toMatchObject({
      effect: -0.7333,
      significant: true,
    });
  });

  it('puts significant features first, by the size of the effect', () => {
    const a = analysePatterns(twenty)!;
    expect(a.features.map((f) => f.feature)).toEqual([
      'updates_per_30d',
      'title:obby',
      'title:pet',
      'title:pet simulator',
      'title:simulator',
      'like_ratio',
      'max_players',
      'age_days',
      'description_length',
      'favorites_per_1k_visits',
      'gamepass_count',
      'gamepass_max_price',
      'gamepass_median_price',
      'title_words',
    ]);
  });

  it(`needs ${MIN_ELIGIBLE} eligible games`, () => {
    expect(analysePatterns(twenty.slice(0, MIN_ELIGIBLE - 1))).toBeNull();
  });

  it('keeps keywords on at least 5 titles, commonest first, then alphabetically', () => {
    const titles = new Map<number, string[]>();
    for (let i = 0; i < 6; i++) titles.set(i, i < 5 ? ['b', 'a'] : ['b', 'c']);
    expect(commonTitleKeywords(titles)).toEqual(['b', 'a']);
  });

  it('partitions any market and only words a pattern when the interval excludes zero', () => {
    const arbitraryGame = fc.record({
      current: fc.integer({ min: 10, max: 1000 }),
      baseline: fc.integer({ min: 10, max: 1000 }),
      updates: fc.option(fc.integer({ min: 0, max: 10 })),
      title: fc.constantFrom('Pet Simulator', 'Obby', 'Tycoon', 'Pet Tycoon', 'Zombie Obby'),
    });
    fc.assert(
      fc.property(fc.array(arbitraryGame, { minLength: MIN_ELIGIBLE, maxLength: 60 }), (raw) => {
        const games = raw.map((r, i) => ({
          universeId: i + 1,
          name: r.title,
          current: r.current,
          baseline: r.baseline,
          features: { ...noFeatures(), updates_per_30d: r.updates },
        }));
        const a = analysePatterns(games)!;
        expect(a.top.n + a.rest.n).toBe(games.length);
        expect(a.top.n).toBeGreaterThanOrEqual(Math.floor(games.length / 4));
        for (const f of a.features) {
          expect(f.pattern !== null).toBe(f.significant);
          if (f.effect === null) continue;
          expect(f.ci_low!).toBeLessThanOrEqual(f.effect + 1e-4);
          expect(f.ci_high!).toBeGreaterThanOrEqual(f.effect - 1e-4);
          if (f.significant) expect(f.ci_low! >= 0 || f.ci_high! <= 0).toBe(true);
          else expect(f.ci_low! <= 0 && f.ci_high! >= 0).toBe(true);
        }
      }),
    );
  });
});
