import { type Static, Type } from 'typebox';
import { Nullable, OneOf } from '../http/schemas.js';
import { GenreFilter } from '../market/index.js';

export const PATTERN_PERIODS = ['7d', '30d', '90d'] as const;
export type PatternPeriod = (typeof PATTERN_PERIODS)[number];
export const PATTERN_PERIOD_DAYS: Record<PatternPeriod, number> = { '7d': 7, '30d': 30, '90d': 90 };

export const SuccessPatternsQuery = Type.Object({
  genre: GenreFilter,
  period: OneOf(PATTERN_PERIODS, {
    default: '30d',
    description: 'Growth over the last 7, 30 or 90 complete UTC days against the same number of days before.',
  }),
});
export type SuccessPatternsQueryT = Static<typeof SuccessPatternsQuery>;

const Day = Type.String({ format: 'date' });
const Window = Type.Object({ from: Day, to: Day }, { description: 'UTC days, both included.' });

const Group = Type.Object({
  n: Type.Integer({ description: 'Games of the group with a value for this feature.' }),
  value: Nullable(
    Type.Number({
      description:
        'numeric: the group’s median; title_keyword: the share (0–1) of its titles with the keyword.',
    }),
  ),
});

export const SuccessPattern = Type.Object(
  {
    feature: Type.String({
      description:
        'age_days, updates_per_30d, max_players, gamepass_count, gamepass_median_price, gamepass_max_price, ' +
        'like_ratio, favorites_per_1k_visits, description_length, title_words, or title:<keyword>.',
    }),
    kind: OneOf(['numeric', 'title_keyword'] as const),
    label: Type.String(),
    measure: OneOf(['cliffs_delta', 'difference_in_proportions'] as const),
    top: Group,
    rest: Group,
    effect: Nullable(
      Type.Number({
        minimum: -1,
        maximum: 1,
        description:
          'Top quartile against the rest: Cliff’s δ (numeric) or the difference of shares (title keyword); ' +
          'null when a group has under 5 games with a value.',
      }),
    ),
    ci_low: Nullable(Type.Number({ description: 'The 95% interval of effect.' })),
    ci_high: Nullable(Type.Number()),
    significant: Type.Boolean({ description: 'The 95% interval excludes zero.' }),
    pattern: Nullable(Type.String({ description: 'A plain-language sentence when significant, else null.' })),
  },
  { $id: 'SuccessPattern', title: 'SuccessPattern' },
);

const GrowthGroup = Type.Object({
  games: Type.Integer(),
  median_growth: Nullable(Type.Number({ description: 'Median of current / baseline − 1.' })),
});

export const SuccessPatternsResponse = Type.Object({
  genre: Nullable(Type.String({ description: 'The genre filter; null for the whole market.' })),
  period: OneOf(PATTERN_PERIODS),
  through_day: Nullable(Type.String({ format: 'date', description: 'Null before the first rolled-up day.' })),
  current_window: Nullable(Window),
  baseline_window: Nullable(Window),
  games_with_readings: Type.Integer({
    description: 'Games (of the genre) with a reading in the current window.',
  }),
  eligible_games: Type.Integer({ description: 'Of those, the games with enough history (see method).' }),
  growth_threshold: Nullable(
    Type.Number({
      description: 'The 75th percentile of growth among the eligible games: the top quartile’s floor.',
    }),
  ),
  top_quartile: GrowthGroup,
  rest: GrowthGroup,
  features: Type.Array(Type.Ref('SuccessPattern'), {
    description: 'Significant first, then by |effect|; empty when there are too few eligible games.',
  }),
  reason: Nullable(Type.String({ description: 'Why features is empty; null otherwise.' })),
  computed_at: Type.String({ format: 'date-time' }),
  method: Type.String(),
});
export type SuccessPatternsResponseT = Static<typeof SuccessPatternsResponse>;

export const successPatternSchemas = [SuccessPattern];
