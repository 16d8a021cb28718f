import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KeywordFacts } from './keywords.repo.js';
import { scoreTrends } from './trends.js';

const facts = (genre: string, keyword: string, f: Partial<KeywordFacts>): KeywordFacts => ({
  genre,
  keyword,
  games: 4,
  title_games: 4,
  demand: 400,
  previous_demand: 400,
  top3: 300,
  top20: 400,
  top20_new: 0,
  ...f,
});

describe('keyword scores', () => {
  it('scores each keyword within its list as the genre score does, and ranks each sort order', () => {
    const rows = scoreTrends(
      [
        // demand/game 250, growth 0.25, top3 0.75, newcomers 0.5.
        facts('', 'pet', { demand: 1000, previous_demand: 800, top3: 750, top20: 1000, top20_new: 500 }),
        // demand/game 100, growth −0.5, a lone giant.
        facts('', 'tycoon', { demand: 400, previous_demand: 800, top3: 400 }),
        // demand/game 25, no previous demand: growth null (score's growth part 0.5).
        facts('', 'obby', { demand: 100, previous_demand: 0, top3: 100, top20: 100, top20_new: 100 }),
        facts('rpg', 'pet', {
          demand: 90,
          previous_demand: 100,
          games: 3,
          title_games: 1,
          top3: 90,
          top20: 90,
        }),
      ],
      '2026-11-30',
    );
    const pet = rows.find((r) => r.genre === '' && r.keyword === 'pet')!;
    // 0.40·1 + 0.35·1/(1+e^−2) + 0.25·0.5·√0.25 = 0.4 + 0.30823 + 0.0625 → 77.
    expect(pet).toEqual({
      genre: '',
      keyword: 'pet',
      through_day: '2026-11-30',
      games: 4,
      title_games: 4,
      demand: 1000,
      previous_demand: 800,
      growth: 0.25,
      demand_per_game: 250,
      top3_share: 0.75,
      newcomer_share: 0.5,
      score: 77,
      rank_score: 1,
      rank_demand: 1,
      rank_growth: 1,
    });
    const tycoon = rows.find((r) => r.keyword === 'tycoon')!;
    // 0.40·0.5 + 0.35·1/(1+e^4) + 0 = 0.2 + 0.00629 → 21.
    expect([tycoon.score, tycoon.growth, tycoon.top3_share, tycoon.rank_score, tycoon.rank_growth]).toEqual([
      21, -0.5, 1, 2, 2,
    ]);
    const obby = rows.find((r) => r.keyword === 'obby')!;
    // 0 + 0.35·0.5 + 0.25·1·√0 = 0.175 → 18 (Math.round(17.5) = 18).
    expect([
      obby.score,
      obby.growth,
      obby.newcomer_share,
      obby.rank_score,
      obby.rank_demand,
      obby.rank_growth,
    ]).toEqual([18, null, 1, 3, 3, 3]);
    // A lone keyword in its list sits at the middle percentile: 0.4·0.5 + 0.35·1/(1+e^0.8) + 0.
    const rpg = rows.find((r) => r.genre === 'rpg')!;
    expect([rpg.score, rpg.growth, rpg.demand_per_game, rpg.rank_score]).toEqual([31, -0.1, 30, 1]);
  });
});

describe('keyword scores (properties)', () => {
  const factsArb = fc.array(
    fc.record({
      genre: fc.constantFrom('', 'rpg', 'simulation'),
      keyword: fc.stringMatching(/^[a-z]{2,8}$/),
      games: fc.integer({ min: 1, max: 500 }),
      demand: fc.double({ min: 0, max: 1e6, noNaN: true }),
      previous_demand: fc.double({ min: 0, max: 1e6, noNaN: true }),
      top3: fc.double({ min: 0, max: 1, noNaN: true }),
      top20: fc.double({ min: 0, max: 1, noNaN: true }),
      newcomer: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
    { maxLength: 40 },
  );

  it('every score is 0–100 and each sort order ranks its list 1..n with no gap or tie', () => {
    fc.assert(
      fc.property(factsArb, (raw) => {
        // One row per (genre, keyword), shares consistent with demand (top 3 ⊆ top 20 ⊆ all).
        const seen = new Set<string>();
        const facts: KeywordFacts[] = [];
        for (const r of raw) {
          const key = `${r.genre}|${r.keyword}`;
          if (seen.has(key)) continue;
          seen.add(key);
          const top20 = r.demand * Math.max(r.top3, r.top20);
          facts.push({
            genre: r.genre,
            keyword: r.keyword,
            games: r.games,
            title_games: r.games,
            demand: r.demand,
            previous_demand: r.previous_demand,
            top3: r.demand * r.top3 * (top20 > 0 ? 1 : 0),
            top20,
            top20_new: top20 * r.newcomer,
          });
        }
        const rows = scoreTrends(facts, '2026-12-01');
        expect(rows).toHaveLength(facts.length);
        for (const r of rows) {
          expect(r.score).toBeGreaterThanOrEqual(0);
          expect(r.score).toBeLessThanOrEqual(100);
          expect(r.top3_share).toBeLessThanOrEqual(1);
        }
        for (const genre of new Set(rows.map((r) => r.genre))) {
          const list = rows.filter((r) => r.genre === genre);
          const expected = list.map((_, i) => i + 1);
          for (const key of ['rank_score', 'rank_demand', 'rank_growth'] as const) {
            expect(list.map((r) => r[key]).sort((a, b) => a - b)).toEqual(expected);
          }
          // The opportunity order never puts a lower score first.
          const byRank = [...list].sort((a, b) => a.rank_score - b.rank_score);
          for (let i = 1; i < byRank.length; i++)
            expect(byRank[i - 1]!.score).toBeGreaterThanOrEqual(byRank[i]!.score);
        }
      }),
    );
  });
});
