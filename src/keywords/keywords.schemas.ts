import { type Static, Type } from 'typebox';
import { LimitCap, NextCursor, PageCursor, PageLimit } from '../http/pages.js';
import { Nullable, OneOf } from '../http/schemas.js';
import { GenreFilter } from '../market/index.js';
import { MIN_GAMES } from './trends.js';

export const KEYWORD_PERIODS = ['7d', '30d'] as const;
export type KeywordPeriod = (typeof KEYWORD_PERIODS)[number];
export const PERIOD_DAYS: Record<KeywordPeriod, number> = { '7d': 7, '30d': 30 };

const Period = OneOf(KEYWORD_PERIODS, {
  default: '7d',
  description: 'The last 7 or 30 complete UTC days, against the same number of days before them.',
});

export const KeywordTrend = Type.Object(
  {
    keyword: Type.String({ description: 'A word or a two-word phrase, normalised.' }),
    games: Type.Integer({ description: 'Games with the keyword and readings in the period.' }),
    title_games: Type.Integer({ description: 'Of those, games with it in the title.' }),
    demand: Type.Number({ description: 'Σ of those games’ mean daily CCU over the period.' }),
    previous_demand: Type.Number({ description: 'The same over the days before the period.' }),
    growth: Nullable(
      Type.Number({ description: 'demand / previous_demand − 1 (0.25 = 25% more); null when that was 0.' }),
    ),
    demand_per_game: Type.Number({ description: 'demand / games.' }),
    top3_share: Type.Number({ description: 'Share (0–1) of demand held by its 3 busiest games.' }),
    newcomer_share: Type.Number({
      description: 'Among its 20 busiest games, the share of their demand held by games under a year old.',
    }),
    opportunity_score: Type.Integer({ minimum: 0, maximum: 100, description: 'See method.' }),
  },
  { $id: 'KeywordTrend', title: 'KeywordTrend' },
);
export type KeywordTrendT = Static<typeof KeywordTrend>;

export const TrendingKeywordsQuery = Type.Object({
  period: Period,
  genre: GenreFilter,
  sort: OneOf(['opportunity', 'demand', 'growth'] as const, {
    default: 'opportunity',
    description:
      'opportunity: highest opportunity_score first; demand: most demand; growth: fastest growing.',
  }),
  limit: PageLimit('Keywords'),
  cursor: PageCursor,
});
export type TrendingKeywordsQueryT = Static<typeof TrendingKeywordsQuery>;

const ListHeader = {
  period: OneOf(KEYWORD_PERIODS),
  genre: Nullable(Type.String({ description: 'The genre filter; null for every genre.' })),
  through_day: Nullable(
    Type.String({
      format: 'date',
      description: 'The last UTC day the figures cover; null until the first day has been rolled up.',
    }),
  ),
};

export const TrendingKeywordsResponse = Type.Object({
  ...ListHeader,
  sort: OneOf(['opportunity', 'demand', 'growth'] as const),
  total: Type.Integer({ description: `Keywords in the list (those with at least ${MIN_GAMES} games).` }),
  items: Type.Array(
    Type.Object({
      rank: Type.Integer({ description: 'Position in this sort order, 1 first.' }),
      trend: Type.Ref('KeywordTrend'),
    }),
  ),
  next_cursor: NextCursor,
  limit_cap: LimitCap,
  method: Type.String({ description: 'How keywords are found and scored.' }),
});
export type TrendingKeywordsResponseT = Static<typeof TrendingKeywordsResponse>;

export const KeywordParams = Type.Object({
  keyword: Type.String({
    minLength: 1,
    maxLength: 100,
    description:
      'A word or two-word phrase ("pet simulator"), normalised as titles are; a stop word, filler or more ' +
      'than two words is refused (422).',
  }),
});

export const KeywordQuery = Type.Object({
  period: Period,
  genre: GenreFilter,
  limit: PageLimit('Games'),
  cursor: PageCursor,
});
export type KeywordQueryT = Static<typeof KeywordQuery>;

export const KeywordGame = Type.Object({
  place_id: Type.Integer(),
  universe_id: Type.Integer(),
  name: Type.String(),
  creator: Type.String(),
  genre: Type.String(),
  ccu: Nullable(Type.Integer({ description: 'Latest reading; null before the first.' })),
  in_title: Type.Boolean({ description: 'The keyword is in the title (else only in the description).' }),
});

export const KeywordResponse = Type.Object({
  keyword: Type.String({ description: 'The keyword as normalised.' }),
  ...ListHeader,
  games_total: Type.Integer({ description: 'Games the service collects that carry the keyword now.' }),
  title_games_total: Type.Integer({ description: 'Of those, games with it in the title.' }),
  trend: Nullable(
    Type.Ref('KeywordTrend', {
      description: `Its row in the period's list; null when it has under ${MIN_GAMES} games with readings.`,
    }),
  ),
  history: Type.Array(
    Type.Object({
      day: Type.String({ format: 'date' }),
      games: Type.Integer({ description: 'Games with the keyword and a rollup that day.' }),
      demand: Type.Number({ description: 'Σ of their mean CCU that day.' }),
    }),
    { description: 'The last 90 complete UTC days, oldest first; days without readings are absent.' },
  ),
  related: Type.Array(
    Type.Object({
      keyword: Type.String(),
      shared_games: Type.Integer({ description: 'Games carrying both keywords.' }),
      games: Type.Integer({ description: 'Games carrying the related keyword.' }),
      jaccard: Type.Number({ description: 'shared_games / (games of either keyword), 0–1.' }),
    }),
    {
      description:
        'Keywords found on the same games, most shared games first (then the higher jaccard), at most 10; ' +
        'words of the keyword itself and phrases containing it are left out.',
    },
  ),
  games: Type.Array(KeywordGame, {
    description: 'Busiest first (latest CCU), games without a reading last.',
  }),
  next_cursor: NextCursor,
  limit_cap: LimitCap,
  method: Type.String(),
});
export type KeywordResponseT = Static<typeof KeywordResponse>;

export const ScoreTitleQuery = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 120, description: 'The draft title.' }),
  genre: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'The genre key the game will be listed in; an unknown key is refused (422).',
  }),
});
export type ScoreTitleQueryT = Static<typeof ScoreTitleQuery>;

export const ScoreTitleResponse = Type.Object({
  title: Type.String(),
  genre: Type.String(),
  period: OneOf(KEYWORD_PERIODS, { description: 'The figures are the 30-day list of the genre.' }),
  through_day: ListHeader.through_day,
  keywords: Type.Array(
    Type.Object({
      keyword: Type.String(),
      games: Type.Integer({ description: 'Competition: games of the genre carrying it now.' }),
      title_games: Type.Integer({ description: 'Games of the genre with it in their title.' }),
      trend: Nullable(
        Type.Ref('KeywordTrend', { description: `The genre list's row; null under ${MIN_GAMES} games.` }),
      ),
    }),
    { description: 'The title’s keywords in the order they appear.' },
  ),
  mean_opportunity_score: Nullable(
    Type.Number({
      description: 'Mean opportunity_score of the keywords that are listed; null when none is.',
    }),
  ),
  closest_titles: Type.Array(
    Type.Object({
      place_id: Type.Integer(),
      name: Type.String(),
      creator: Type.String(),
      ccu: Nullable(Type.Integer()),
      similarity: Type.Number({ description: 'Name similarity 0–1 (see method).' }),
    }),
    { description: 'Up to 5 games of the genre with the most similar names, most similar first.' },
  ),
  clone_risk: Type.Boolean({
    description: 'A game of the genre has a name similar enough to count as a clone (similarity ≥ 0.8).',
  }),
  method: Type.String(),
});
export type ScoreTitleResponseT = Static<typeof ScoreTitleResponse>;

export const keywordSchemas = [KeywordTrend];
