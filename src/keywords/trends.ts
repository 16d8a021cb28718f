/**
 * Keyword scores: from each keyword's facts (keywords.repo.ts keywordFacts) to the ranked rows the
 * trending lists serve. Pure, so the formula is tested on hand-made facts.
 */
import { opportunityScore, percentileRanks } from '../market/index.js';
import type { KeywordFacts, TrendRow } from './keywords.repo.js';

/** A keyword needs this many games with readings in the period to be listed. */
export const MIN_GAMES = 3;
/** Games created this many days before the period's end or later are newcomers. */
export const NEWCOMER_DAYS = 365;

export const TRENDS_METHOD =
  'Keywords: the words and two-word phrases of game titles and descriptions (the first 1,000 characters, at ' +
  'most 30 keywords beyond the title), lower-cased, accents stripped, with stop words, platform filler ' +
  '(roblox, game, update, free, new, …), numbers and one-letter words removed; a phrase is two kept words ' +
  'that stood next to each other. Each game counts once per keyword. Over the period (the last `period_days` ' +
  'complete UTC days) and the same number of days before it: games = games with the keyword and a daily ' +
  'rollup in the period; demand = Σ of those games’ mean daily CCU over the period; previous_demand = the ' +
  'same over the days before (games then without readings count 0, games that stopped count 0 now); ' +
  'growth = demand / previous_demand − 1 (null when previous_demand is 0); demand_per_game = demand / games; ' +
  'top3_share = share of demand held by its 3 busiest games; newcomer_share = among its 20 busiest games, ' +
  `the share of their demand held by games created in the ${NEWCOMER_DAYS} days up to the period's end. ` +
  'opportunity_score = round(100 × (0.40·demand_pct + 0.35·growth_score + 0.25·openness)) as the genre ' +
  'score: demand_pct = mid-rank percentile of demand_per_game among the keywords of the same list, ' +
  'growth_score = 1 / (1 + e^(−8·growth)) (0.5 when growth is null), openness = newcomer_share × ' +
  `(1 − top3_share)^0.5. Listed: keywords with at least ${MIN_GAMES} games. Computed once a day, after the ` +
  'day’s rollup, with each game’s current keywords.';

const round = (x: number, places: number) => Math.round(x * 10 ** places) / 10 ** places;

/** The ranked rows of every scope of one period: scored within their scope, ranked in each sort order. */
export function scoreTrends(facts: readonly KeywordFacts[], throughDay: string): TrendRow[] {
  const scopes = new Map<string, KeywordFacts[]>();
  for (const f of facts) {
    const list = scopes.get(f.genre);
    if (list) list.push(f);
    else scopes.set(f.genre, [f]);
  }
  const out: TrendRow[] = [];
  for (const list of scopes.values()) {
    const perGame = list.map((f) => (f.games > 0 ? f.demand / f.games : 0));
    const demandPct = percentileRanks(perGame);
    const rows = list.map((f, i): TrendRow => {
      const growth = f.previous_demand > 0 ? f.demand / f.previous_demand - 1 : null;
      const top3 = f.demand > 0 ? Math.min(1, f.top3 / f.demand) : 0;
      const newcomer = f.top20 > 0 ? Math.min(1, f.top20_new / f.top20) : 0;
      return {
        genre: f.genre,
        keyword: f.keyword,
        through_day: throughDay,
        games: f.games,
        title_games: f.title_games,
        demand: round(f.demand, 2),
        previous_demand: round(f.previous_demand, 2),
        growth: growth === null ? null : round(growth, 4),
        demand_per_game: round(perGame[i]!, 2),
        top3_share: round(top3, 4),
        newcomer_share: round(newcomer, 4),
        score: opportunityScore(demandPct[i]!, growth, newcomer, top3),
        rank_score: 0,
        rank_demand: 0,
        rank_growth: 0,
      };
    });
    const byName = (a: TrendRow, b: TrendRow) => (a.keyword < b.keyword ? -1 : a.keyword > b.keyword ? 1 : 0);
    const rank = (
      key: 'rank_score' | 'rank_demand' | 'rank_growth',
      cmp: (a: TrendRow, b: TrendRow) => number,
    ) =>
      [...rows]
        .sort((a, b) => cmp(a, b) || byName(a, b))
        .forEach((r, i) => {
          r[key] = i + 1;
        });
    rank('rank_score', (a, b) => b.score - a.score || b.demand - a.demand);
    rank('rank_demand', (a, b) => b.demand - a.demand);
    rank('rank_growth', (a, b) => (b.growth ?? -Infinity) - (a.growth ?? -Infinity) || b.demand - a.demand);
    out.push(...rows);
  }
  return out;
}
