/**
 * Experiments' API shapes: the create body, an experiment as answered, the team's list, the stop
 * body, an assignment and the results. Components do not refer to one another (the OpenAPI
 * conformance fuzz cannot resolve such references): shared parts are spread in as fields.
 */
import { type Static, Type } from 'typebox';
import { IdParams, OneOf } from '../http/schemas.js';
import { ASSIGNMENT_METHOD, METHODS } from './experiments.stats.js';

export const MAX_EXPERIMENTS_PER_TEAM = 100;
export const METRICS = [
  'd1_retention',
  'd7_retention',
  'conversion',
  'revenue_per_player',
  'custom',
] as const;
export type MetricName = (typeof METRICS)[number];

const Day = (description: string) => Type.String({ format: 'date', description });
const Num = (description: string) => Type.Number({ description });
const NumOrNull = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });
const IntOrNull = (description: string) => Type.Union([Type.Integer(), Type.Null()], { description });

const NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_.:-]*$';

export const METRIC_DESCRIPTION =
  'd1_retention / d7_retention: share of exposed players with any event on the UTC day 1 (7) days after the UTC ' +
  'day of their first exposure (from the activity rollup; only players whose day 1 (7) has ended count). ' +
  'conversion: share of exposed players with a purchase (any currency) on the UTC day of their first exposure or ' +
  'later (day resolution: the purchase rollups are per day, so a purchase earlier that same day counts too). ' +
  'revenue_per_player: mean USD revenue per exposed player over the same days (USD as is, Robux at the DevEx rate ' +
  '0.0038 USD; other currencies are not summed), 0 for players who bought nothing. custom: share of exposed players ' +
  'with a custom event named event_name at or after the instant of their first exposure.';

export const MetricDef = Type.Object(
  {
    metric: OneOf(METRICS, { description: METRIC_DESCRIPTION }),
    event_name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        description: 'With metric custom (required there, refused otherwise): the custom event name reached.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type MetricDefT = Static<typeof MetricDef>;

const VariantDef = Type.Object(
  {
    key: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: NAME_PATTERN,
      description: 'The variant name the exposure events carry in `variant`.',
    }),
    weight: Type.Integer({
      minimum: 1,
      maximum: 10_000,
      description:
        'Relative weight (a positive integer): the variant gets weight / sum of weights of the players.',
    }),
  },
  { additionalProperties: false },
);

export const CreateExperimentBody = Type.Object(
  {
    game_id: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'The platform-native game id (every platform).',
    }),
    key: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: NAME_PATTERN,
      description:
        'Unique per team and game; hashed for assignment and named by exposure events (`experiment`).',
    }),
    variants: Type.Array(VariantDef, {
      minItems: 2,
      maxItems: 5,
      description: '2 to 5 variants with distinct keys; the first is the control.',
    }),
    primary_metric: MetricDef,
    secondary_metrics: Type.Optional(
      Type.Array(MetricDef, { maxItems: 5, description: 'Up to 5; default none.' }),
    ),
    minimum_detectable_effect: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        description:
          'The smallest absolute change of the primary metric worth detecting (a share such as 0.02 for 2 percentage ' +
          'points, or USD per player): sets the planned sample size. Without it no winner is ever called.',
      }),
    ),
    baseline: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        description:
          "The control's expected primary metric for the sample size: its rate (0 to 1, exclusive) for a rate metric, " +
          "the standard deviation of revenue per player (USD) for revenue_per_player. Default: the control's " +
          'figure observed so far.',
      }),
    ),
    start_day: Type.Optional(
      Day(
        'Exposures from this UTC day on are analysed (default: today); may be earlier for an experiment the game ' +
          'already runs.',
      ),
    ),
  },
  { additionalProperties: false },
);
export type CreateExperimentBodyT = Static<typeof CreateExperimentBody>;

export const StopExperimentBody = Type.Object(
  { status: Type.Literal('stopped', { description: 'The only change: stop the experiment (final).' }) },
  { additionalProperties: false },
);

export const ExperimentIdParams = IdParams('The experiment id.');

export const AssignmentParams = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 64, description: 'The experiment key.' }),
});
export const AssignmentQuery = Type.Object({
  game_id: Type.String({ minLength: 1, maxLength: 64, description: 'The game the experiment belongs to.' }),
  player_id: Type.String({
    minLength: 1,
    maxLength: 128,
    description: 'The player id the SDK sends in events.',
  }),
});

const experimentFields = {
  id: Type.Integer({ description: 'The experiment id (results: GET /api/sdk/experiments/{id}/results).' }),
  game_id: Type.String({ description: 'The platform-native game id (every platform of it).' }),
  key: Type.String({ description: 'The key exposure events name in `experiment` and assignment hashes.' }),
  variants: Type.Array(
    Type.Object(
      {
        key: Type.String({ description: 'The variant name exposure events carry in `variant`.' }),
        weight: Type.Integer({ description: 'Relative weight.' }),
      },
      { additionalProperties: false },
    ),
    { description: 'The first is the control.' },
  ),
  primary_metric: MetricDef,
  secondary_metrics: Type.Array(MetricDef, {
    description: 'Reported like the primary; the verdict is on the primary only.',
  }),
  minimum_detectable_effect: NumOrNull('Absolute, in the primary metric’s unit; null: none set.'),
  baseline: NumOrNull('As given at creation; null: the control’s observed figure is used.'),
  start_day: Day('Exposures from this UTC day on are analysed.'),
  status: OneOf(['running', 'stopped'] as const, { description: 'running until PATCH stops it.' }),
  created_at: Type.String({ format: 'date-time', description: 'When it was created (UTC).' }),
  stopped_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description:
      'When it was stopped: exposures from then on are not analysed, assignment answers the control.',
  }),
};

export const SdkExperiment = Type.Object(experimentFields, {
  $id: 'SdkExperiment',
  title: 'SdkExperiment',
  additionalProperties: false,
});
export type SdkExperimentT = Static<typeof SdkExperiment>;

export const SdkExperiments = Type.Object(
  { experiments: Type.Array(Type.Object(experimentFields, { additionalProperties: false })) },
  { $id: 'SdkExperiments', title: 'SdkExperiments', additionalProperties: false },
);
export type SdkExperimentsT = Static<typeof SdkExperiments>;

export const SdkAssignment = Type.Object(
  {
    experiment: Type.String({ description: 'The experiment key.' }),
    experiment_id: Type.Integer({ description: 'The experiment id.' }),
    game_id: Type.String({ description: 'As asked.' }),
    player_id: Type.String({ description: 'As asked.' }),
    variant: Type.String({
      description: `The variant to show. Method: ${ASSIGNMENT_METHOD}. Once the experiment is stopped: the control.`,
    }),
    status: OneOf(['running', 'stopped'] as const, { description: 'stopped: variant is the control.' }),
  },
  { $id: 'SdkAssignment', title: 'SdkAssignment', additionalProperties: false },
);
export type SdkAssignmentT = Static<typeof SdkAssignment>;

const variantFigure = Type.Object(
  {
    variant: Type.String({ description: 'The variant key.' }),
    players: Type.Integer({
      description:
        'Players observed for this metric: exposed players analysed (for d1/d7 retention, those whose day 1 (7) has ended).',
    }),
    successes: IntOrNull(
      'Rate metrics: players who retained, converted or reached the event; null for revenue.',
    ),
    value: NumOrNull('The rate (0 to 1) or the mean USD per player; null without players. 6 decimals.'),
    ci_low: NumOrNull(
      `Lower bound of the 95% CI of value (${METHODS.proportion}; revenue: ${METHODS.mean}).`,
    ),
    ci_high: NumOrNull('Upper bound of the same interval.'),
    sd: NumOrNull('Revenue only: sample standard deviation of USD per player (n − 1).'),
    difference: NumOrNull(
      'value − the control’s value (absolute; a share or USD per player); null for the control.',
    ),
    difference_ci_low: NumOrNull(
      `Lower bound of the 95% CI of the difference (${METHODS.proportionDifference}; revenue: ${METHODS.meanDifference}).`,
    ),
    difference_ci_high: NumOrNull('Upper bound of the same interval.'),
    relative_difference: NumOrNull(
      'difference / the control’s value; null when that is 0 or for the control.',
    ),
    statistic: NumOrNull('The test statistic: z (rates) or Welch’s t (revenue); 6 significant digits.'),
    p_value: NumOrNull(
      `Two-sided p-value against the control (${METHODS.proportionTest}; revenue: ${METHODS.meanTest}).`,
    ),
  },
  { additionalProperties: false },
);

const metricResult = Type.Object(
  {
    metric: OneOf(METRICS, { description: 'The metric (see definition).' }),
    event_name: Type.Union([Type.String(), Type.Null()], {
      description: 'The custom event of a custom metric.',
    }),
    primary: Type.Boolean({
      description: 'true for the primary metric, which the verdict and sample size use.',
    }),
    unit: OneOf(['share_of_players', 'usd_per_player'] as const, {
      description: 'share_of_players: a fraction 0 to 1; usd_per_player: US dollars per exposed player.',
    }),
    definition: Type.String({ description: 'How the metric is counted.' }),
    value_method: Type.String({ description: 'The interval of each variant’s value.' }),
    difference_method: Type.String({ description: 'The interval of each difference to the control.' }),
    test_method: Type.String({ description: 'The test behind p_value.' }),
    variants: Type.Array(variantFigure, {
      description: 'In the experiment’s order; the first is the control.',
    }),
  },
  { additionalProperties: false },
);

export const SdkExperimentResults = Type.Object(
  {
    experiment: Type.Object(experimentFields, { additionalProperties: false }),
    from: Day('First UTC day of exposures read: start_day, or the plan’s earliest day when later.'),
    to: Day('Last UTC day of exposures read: today, or the day the experiment was stopped.'),
    history_limited_from: Type.Union([Day('The earliest day the plan reads.'), Type.Null()], {
      description: 'Set when the plan’s history limit moved `from` after start_day.',
    }),
    exposure: Type.Object(
      {
        players_exposed: Type.Integer({
          description: 'Players analysed: exposed to exactly one variant of the experiment (from `from` on).',
        }),
        contaminated: Type.Integer({
          description: 'Players left out because they were exposed to two or more variants.',
        }),
        unknown_variant: Type.Integer({
          description:
            'Players left out because their exposures named a variant the experiment does not have.',
        }),
        definition: Type.String({ description: 'Who counts as exposed, and who is left out.' }),
      },
      { additionalProperties: false },
    ),
    variants: Type.Array(
      Type.Object(
        {
          variant: Type.String({ description: 'The variant key, in the experiment’s order.' }),
          weight: Type.Integer({ description: 'Its relative weight.' }),
          expected_share: Num('weight / sum of weights.'),
          players_exposed: Type.Integer({ description: 'Players analysed whose (only) variant this is.' }),
          share: NumOrNull('players_exposed / all players analysed; null without any.'),
          contaminated: Type.Integer({
            description: 'Contaminated players whose first exposure was this variant.',
          }),
        },
        { additionalProperties: false },
      ),
    ),
    sample_ratio_mismatch: Type.Object(
      {
        observed: Type.Array(Type.Integer(), { description: 'Players analysed per variant, in order.' }),
        expected_shares: Type.Array(Type.Number(), { description: 'The weights as shares.' }),
        statistic: Num('Chi-square statistic.'),
        df: Type.Integer({ description: 'Degrees of freedom (variants − 1).' }),
        p_value: Num('Upper-tail p of the chi-square statistic.'),
        flagged: Type.Boolean({ description: 'p < 0.001: the split does not match the weights.' }),
        method: Type.String({ description: 'The test, stated.' }),
      },
      { additionalProperties: false },
    ),
    metrics: Type.Array(metricResult, { description: 'The primary metric first, then the secondary ones.' }),
    sample_size: Type.Object(
      {
        minimum_detectable_effect: NumOrNull('As set at creation (primary metric’s unit).'),
        baseline: NumOrNull('The rate or revenue standard deviation the size is computed from.'),
        baseline_source: Type.Union([OneOf(['given', 'control_observed'] as const), Type.Null()], {
          description: 'given at creation, or the control’s observed figure; null: none.',
        }),
        alpha: Num('Per-comparison significance level: 0.05 / (variants − 1) (Bonferroni).'),
        power: Num('0.8.'),
        required_per_variant: IntOrNull('Planned players per variant; null without an effect or a baseline.'),
        smallest_variant: Type.Integer({
          description: 'Players observed for the primary metric in the smallest variant.',
        }),
        progress: NumOrNull('smallest_variant / required_per_variant, at most 1.'),
        reached: Type.Boolean({
          description: 'Every variant has the planned players: a verdict may name a winner.',
        }),
        method: Type.String({ description: 'The sample-size formula, stated.' }),
      },
      { additionalProperties: false },
    ),
    verdict: Type.Object(
      {
        status: OneOf(
          [
            'no_data',
            'sample_ratio_mismatch',
            'no_plan',
            'collecting',
            'treatment_better',
            'control_better',
            'no_difference',
          ] as const,
          {
            description:
              'no_data: nobody exposed; sample_ratio_mismatch: split broken; no_plan: no minimum detectable effect or baseline; collecting: planned size not reached; treatment_better, control_better, no_difference: the primary metric at the planned size.',
          },
        ),
        text: Type.String({
          description:
            'Plain language. A winner is named only once the planned sample size is reached, with no sample ratio ' +
            'mismatch, on the primary metric at the per-comparison alpha.',
        }),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'SdkExperimentResults', title: 'SdkExperimentResults', additionalProperties: false },
);
export type SdkExperimentResultsT = Static<typeof SdkExperimentResults>;

/** Registered with app.addSchema before the routes that refer to them. */
export const experimentSchemas = [SdkExperiment, SdkExperiments, SdkAssignment, SdkExperimentResults];
