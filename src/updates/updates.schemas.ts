import { type Static, Type } from 'typebox';
import { LimitCap, NextCursor, PageCursor, PageLimit } from '../http/pages.js';
import { Nullable } from '../http/schemas.js';
import { GenreFilter } from '../market/index.js';
import { BASELINE_DAYS, IMPACT_SD_SCALE, MIN_WINDOW_DAYS, WINDOW_DAYS } from './impact.js';

const Percent = (description: string) => Type.Number({ description });
const Interval = (level: string) =>
  Type.Object(
    {
      low: Percent('Lower end, percent.'),
      high: Percent('Upper end, percent.'),
    },
    { description: `${level} interval of the impact, percent.` },
  );

export const METHOD =
  `Impact = the game's total daily mean CCU over the ${WINDOW_DAYS} UTC days after the release day, divided ` +
  `by a counterfactual: the forecast engine's median (as GET /api/forecast) fitted only on the up to ` +
  `${BASELINE_DAYS} days before the release day, minus 1. The release day itself is in neither. Intervals: ` +
  '(observed / counterfactual) · exp(∓ z · k · s) − 1, with s the weighted mean of the forecast’s log-scale sd ' +
  `over the window (the days of one window move together) and k = ${IMPACT_SD_SCALE[0.8]} (80%) and ` +
  `${IMPACT_SD_SCALE[0.95]} (95%), fitted on placebo days of a simulated market; on the simulated market's ` +
  'planted updates the 80% interval holds the true effect in 74% of cases and updates that did nothing are ' +
  `called significant in 4%. significant: the 95% interval excludes zero. Needs 14 days before the release and ` +
  `${MIN_WINDOW_DAYS} of the ${WINDOW_DAYS} after.`;

export const UpdateImpact = Type.Object(
  {
    released_at: Type.String({ format: 'date-time', description: "The game's new `updated` time." }),
    previous_update_at: Nullable(Type.String({ format: 'date-time', description: 'The update before it.' })),
    detected_at: Type.String({ format: 'date-time', description: 'When the collector saw it.' }),
    status: Type.Union(
      [
        Type.Literal('measuring'),
        Type.Literal('measured'),
        Type.Literal('insufficient_history'),
        Type.Literal('insufficient_data'),
      ],
      {
        description:
          'measuring: its window has not passed yet (see measurable_from); insufficient_history: under 14 days of ' +
          `history before it; insufficient_data: under ${MIN_WINDOW_DAYS} days with readings in the window.`,
      },
    ),
    measurable_from: Type.String({
      format: 'date-time',
      description: 'When the window has passed and the impact is measured (within the next hour of the job).',
    }),
    overlapping_update: Type.Boolean({
      description:
        'Another update went out in the 7 days before the release day or before the window ended: the impact mixes ' +
        'both. ' +
        'Market-wide lists and timing leave such updates out.',
    }),
    impact: Nullable(
      Type.Object(
        {
          percent: Percent('Observed / counterfactual − 1, percent (12.5 = 12.5% more players).'),
          ci80: Interval('80%'),
          ci95: Interval('95%'),
          significant: Type.Boolean({ description: 'The 95% interval excludes zero.' }),
          observed_mean_ccu: Type.Number({
            description: 'Mean of the observed daily mean CCU over the window.',
          }),
          counterfactual_mean_ccu: Type.Number({
            description: 'Mean of the counterfactual daily mean CCU over the window.',
          }),
          baseline_days: Type.Integer({ description: 'Days of history the counterfactual was fitted on.' }),
          window_days: Type.Integer({ description: 'Days of the window with readings.' }),
          model_version: Type.String({ description: 'The forecast model the counterfactual came from.' }),
        },
        { description: 'Null until measured.' },
      ),
    ),
  },
  { $id: 'UpdateImpact', title: 'UpdateImpact' },
);
export type UpdateImpactT = Static<typeof UpdateImpact>;

export const GameUpdatesQuery = Type.Object({ limit: PageLimit('Updates'), cursor: PageCursor });
export type GameUpdatesQueryT = Static<typeof GameUpdatesQuery>;

export const GameUpdatesResponse = Type.Object({
  place_id: Type.Integer(),
  universe_id: Type.Integer(),
  name: Type.String(),
  genre: Type.String(),
  updates: Type.Array(Type.Ref('UpdateImpact'), { description: 'Newest first.' }),
  next_cursor: NextCursor,
  limit_cap: LimitCap,
  method: Type.String({ description: 'How the impact is computed.' }),
});
export type GameUpdatesResponseT = Static<typeof GameUpdatesResponse>;

export const RecentQuery = Type.Object({
  genre: GenreFilter,
  direction: Type.Union([Type.Literal('gains'), Type.Literal('losses')], {
    default: 'gains',
    description: 'gains: biggest impact first; losses: most negative first.',
  }),
  days: Type.Integer({
    minimum: 7,
    maximum: 365,
    default: 30,
    description:
      'Updates released in the last this many days (their window must have passed to be measured).',
  }),
  significant_only: Type.Boolean({
    default: false,
    description: 'Only updates whose 95% interval excludes zero.',
  }),
  limit: PageLimit('Updates'),
  cursor: PageCursor,
});
export type RecentQueryT = Static<typeof RecentQuery>;

export const RankedUpdate = Type.Object(
  {
    place_id: Type.Integer(),
    universe_id: Type.Integer(),
    name: Type.String(),
    genre: Type.String(),
    update: Type.Ref('UpdateImpact'),
  },
  { description: 'A measured update with the game it belongs to.' },
);

export const RecentResponse = Type.Object({
  direction: Type.Union([Type.Literal('gains'), Type.Literal('losses')]),
  genre: Nullable(Type.String()),
  since: Type.String({ format: 'date-time' }),
  items: Type.Array(RankedUpdate),
  next_cursor: NextCursor,
  limit_cap: LimitCap,
  method: Type.String({ description: 'How the impact is computed and which updates are listed.' }),
});
export type RecentResponseT = Static<typeof RecentResponse>;

export const TimingQuery = Type.Object({
  genre: GenreFilter,
  days: Type.Integer({
    minimum: 7,
    maximum: 730,
    default: 180,
    description: 'Updates released in the last this many days.',
  }),
});
export type TimingQueryT = Static<typeof TimingQuery>;

const timingBucket = {
  updates: Type.Integer({ description: 'Measured updates released then (overlapping ones left out).' }),
  mean_percent: Type.Number({ description: 'Mean impact, percent.' }),
  median_percent: Type.Number({ description: 'Median impact, percent.' }),
  significant_gain_share: Type.Number({
    description: 'Share (0–1) whose impact was significantly positive.',
  }),
  significant_loss_share: Type.Number({
    description: 'Share (0–1) whose impact was significantly negative.',
  }),
};

export const TimingResponse = Type.Object({
  genre: Nullable(Type.String()),
  since: Type.String({ format: 'date-time' }),
  updates: Type.Integer({ description: 'Measured updates in all buckets.' }),
  min_updates: Type.Integer({ description: 'Updates a bucket needs to be named best.' }),
  by_weekday: Type.Array(
    Type.Object({
      weekday: Type.Integer({ minimum: 0, maximum: 6, description: 'UTC weekday, Monday = 0.' }),
      name: Type.String(),
      ...timingBucket,
    }),
    { description: 'Every weekday, Monday first.' },
  ),
  by_hour: Type.Array(
    Type.Object({
      hour: Type.Integer({ minimum: 0, maximum: 23, description: 'UTC hour.' }),
      ...timingBucket,
    }),
    { description: 'Every UTC hour, 0 first.' },
  ),
  best_weekday: Nullable(
    Type.Integer({
      description: 'The weekday with the highest median impact among those with min_updates.',
    }),
  ),
  best_hour: Nullable(
    Type.Integer({ description: 'The hour with the highest median impact among those with min_updates.' }),
  ),
  method: Type.String(),
});
export type TimingResponseT = Static<typeof TimingResponse>;

/** Shared schemas the routes reference by $id (components in /openapi.json). */
export const updateSchemas = [UpdateImpact];
