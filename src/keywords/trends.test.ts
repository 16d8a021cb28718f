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
