/**
 * Experiments: a team's A/B tests on one of its games. Assignment is a pure hash
 * (experiments.stats.ts), so every process answers the same without storing it; the game reports
 * each exposure as a custom event (experiment_exposure, with `experiment` and `variant`), and the
 * results compare the variants on the players exposed to exactly one of them (a player exposed to
 * two is contaminated: counted, left out). Another team's experiment or game answers 404.
 */
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import { errors } from '../errors.js';
import type { Entitlements } from '../plans.js';
import { hasGame } from './analytics.repo.js';
import type { Reader } from './analytics.service.js';
import * as repo from './experiments.repo.js';
import {
  type CreateExperimentBodyT,
  MAX_EXPERIMENTS_PER_TEAM,
  METRIC_DESCRIPTION,
  type MetricDefT,
  type SdkAssignmentT,
  type SdkExperimentResultsT,
  type SdkExperimentsT,
  type SdkExperimentT,
} from './experiments.schemas.js';
import {
  assignVariant,
  comparisonAlpha,
  METHODS,
  meanFigures,
  r6,
  rateFigures,
  samplePlan,
  sampleRatio,
  type VariantFigure,
  verdict,
} from './experiments.stats.js';
import { addDays, dayOf, isDay } from './range.js';

export interface ExperimentsDeps {
  db: Db;
  clock: Clock;
  entitlements: Entitlements;
}

type Metric = SdkExperimentResultsT['metrics'][number];

const notFound = () => errors.notFound('No such experiment.');

function experiment(row: repo.ExperimentRow): SdkExperimentT {
  return {
    id: row.id,
    game_id: row.game_id,
    key: row.key,
    variants: row.variants,
    primary_metric: row.primary_metric,
    secondary_metrics: row.secondary_metrics,
    minimum_detectable_effect: row.minimum_detectable_effect,
    baseline: row.baseline,
    start_day: row.start_day,
    status: row.status,
    created_at: row.created_at.toISOString(),
    stopped_at: row.stopped_at ? row.stopped_at.toISOString() : null,
  };
}

const isRate = (m: MetricDefT) => m.metric !== 'revenue_per_player';
const LABELS: Record<MetricDefT['metric'], string> = {
  d1_retention: 'D1 retention',
  d7_retention: 'D7 retention',
  conversion: 'conversion',
  revenue_per_player: 'revenue per player',
  custom: 'reaching',
};
const label = (m: MetricDefT) => (m.metric === 'custom' ? `reaching ${m.event_name}` : LABELS[m.metric]);
const sameMetric = (a: MetricDefT, b: MetricDefT) => a.metric === b.metric && a.event_name === b.event_name;

/** 422 for what the schema cannot say: distinct variant keys, event_name with custom only, a rate
 * baseline inside (0, 1), no metric twice, a real start day. */
function checkBody(body: CreateExperimentBodyT): void {
  const keys = body.variants.map((v) => v.key);
  const dup = keys.findIndex((k, i) => keys.indexOf(k) !== i);
  if (dup >= 0) throw errors.validation(`body.variants[${dup}].key`, 'Variant keys must be distinct.');
  const metrics = [
    ['body.primary_metric', body.primary_metric] as const,
    ...(body.secondary_metrics ?? []).map((m, i) => [`body.secondary_metrics[${i}]`, m] as const),
  ];
  for (const [field, m] of metrics) {
    if (m.metric === 'custom' && m.event_name === undefined) {
      throw errors.validation(`${field}.event_name`, 'A custom metric needs event_name.');
    }
    if (m.metric !== 'custom' && m.event_name !== undefined) {
      throw errors.validation(`${field}.event_name`, 'event_name goes with metric custom only.');
    }
  }
  const again = metrics.findIndex(([, m], i) => metrics.findIndex(([, o]) => sameMetric(m, o)) !== i);
  if (again >= 0) throw errors.validation(metrics[again]![0], 'A metric is listed twice.');
  if (body.baseline !== undefined && isRate(body.primary_metric) && !(body.baseline < 1)) {
    throw errors.validation('body.baseline', 'A rate baseline lies between 0 and 1.');
  }
  if (body.start_day !== undefined && !isDay(body.start_day)) {
    throw errors.validation('body.start_day', 'body.start_day must be a date (YYYY-MM-DD).');
  }
}

export class ExperimentsService {
  constructor(private readonly deps: ExperimentsDeps) {}

  async create(teamId: number, body: CreateExperimentBodyT): Promise<SdkExperimentT> {
    checkBody(body);
    if (!(await hasGame(this.deps.db, teamId, body.game_id, null))) {
      throw errors.notFound('No SDK events for this game.');
    }
    const now = this.deps.clock.now();
    const row = await this.deps.db.transaction(async (tx) => {
      await repo.lockTeamExperiments(tx, teamId);
      if ((await repo.countExperiments(tx, teamId)) >= MAX_EXPERIMENTS_PER_TEAM) {
        throw errors.conflict(
          'limit_reached',
          `A team can keep at most ${MAX_EXPERIMENTS_PER_TEAM} experiments; delete one to add another.`,
        );
      }
      if (await repo.findExperimentByKey(tx, teamId, body.game_id, body.key)) {
        throw errors.conflict('experiment_exists', 'This game already has an experiment with this key.');
      }
      return repo.insertExperiment(tx, {
        team_id: teamId,
        game_id: body.game_id,
        key: body.key,
        variants: body.variants,
        primary_metric: body.primary_metric,
        secondary_metrics: body.secondary_metrics ?? [],
        minimum_detectable_effect: body.minimum_detectable_effect ?? null,
        baseline: body.baseline ?? null,
        start_day: body.start_day ?? dayOf(now),
        created_at: now,
      });
    });
    return experiment(row);
  }

  async list(teamId: number): Promise<SdkExperimentsT> {
    return { experiments: (await repo.listExperiments(this.deps.db, teamId)).map(experiment) };
  }

  async get(teamId: number, id: number): Promise<SdkExperimentT> {
    const row = await repo.findExperiment(this.deps.db, teamId, id);
    if (!row) throw notFound();
    return experiment(row);
  }

  /** Stops it (idempotent: a stopped experiment keeps its first stop time). */
  async stop(teamId: number, id: number): Promise<SdkExperimentT> {
    const row = await repo.stopExperiment(this.deps.db, teamId, id, this.deps.clock.now());
    if (!row) throw notFound();
    return experiment(row);
  }

  async remove(teamId: number, id: number): Promise<void> {
    if (!(await repo.deleteExperiment(this.deps.db, teamId, id))) throw notFound();
  }

  /** The variant a player gets (the control once the experiment is stopped). */
  async assignment(teamId: number, key: string, gameId: string, playerId: string): Promise<SdkAssignmentT> {
    const row = await repo.findExperimentByKey(this.deps.db, teamId, gameId, key);
    if (!row) throw notFound();
    return {
      experiment: row.key,
      experiment_id: row.id,
      game_id: row.game_id,
      player_id: playerId,
      variant:
        row.status === 'stopped' ? row.variants[0]!.key : assignVariant(row.key, playerId, row.variants),
      status: row.status,
    };
  }

  /** One experiment's results (what the bench times). */
  async results(reader: Reader, id: number): Promise<SdkExperimentResultsT> {
    const row = await repo.findExperiment(this.deps.db, reader.teamId, id);
    if (!row) throw notFound();
    const now = this.deps.clock.now();
    const today = dayOf(now);
    const history = this.deps.entitlements.plans[reader.plan].sdkHistoryDays;
    const earliest = history === null ? null : addDays(today, -(history - 1));
    const limited = earliest !== null && row.start_day < earliest;
    const scope: repo.ResultScope = {
      teamId: reader.teamId,
      gameId: row.game_id,
      key: row.key,
      from: limited ? earliest : row.start_day,
      until: row.stopped_at,
      today,
    };
    const metricDefs = [row.primary_metric, ...row.secondary_metrics];
    const customNames = metricDefs.flatMap((m) =>
      m.metric === 'custom' && m.event_name ? [m.event_name] : [],
    );
    const [counts, custom] = await Promise.all([
      repo.variantCounts(this.deps.db, scope),
      repo.customReached(this.deps.db, scope, customNames),
    ]);
    const keys = row.variants.map((v) => v.key);
    const known = new Set(keys);
    const of = (variant: string) =>
      counts.find((c) => c.variant === variant) ?? {
        variant,
        contaminated: 0,
        players: 0,
        d1_n: 0,
        d1_x: 0,
        d7_n: 0,
        d7_x: 0,
        converted: 0,
        revenue_mean: 0,
        revenue_var: null,
      };
    const perVariant = keys.map(of);
    const unknown = counts.filter((c) => !known.has(c.variant));
    const exposed = perVariant.reduce((s, c) => s + c.players, 0);
    const metrics = metricDefs.map((m, i): Metric => {
      const figures = this.figures(m, keys, perVariant, custom);
      return {
        metric: m.metric,
        event_name: m.event_name ?? null,
        primary: i === 0,
        unit: isRate(m) ? 'share_of_players' : 'usd_per_player',
        definition: METRIC_DESCRIPTION,
        value_method: isRate(m) ? METHODS.proportion : METHODS.mean,
        difference_method: isRate(m) ? METHODS.proportionDifference : METHODS.meanDifference,
        test_method: isRate(m) ? METHODS.proportionTest : METHODS.meanTest,
        variants: figures,
      };
    });
    const primary = metrics[0]!;
    const srm = sampleRatio(
      perVariant.map((c) => c.players),
      row.variants.map((v) => v.weight),
    );
    const control = primary.variants[0]!;
    const plan = samplePlan({
      kind: isRate(row.primary_metric) ? 'proportion' : 'mean',
      mde: row.minimum_detectable_effect,
      givenBaseline: row.baseline,
      observedBaseline: isRate(row.primary_metric)
        ? positiveRate(control)
        : positive(Math.sqrt(perVariant[0]!.revenue_var ?? 0)),
      alpha: comparisonAlpha(keys.length),
      observedPerVariant: primary.variants.map((f) => f.players),
    });
    return {
      experiment: experiment(row),
      from: scope.from,
      to: row.stopped_at ? dayOf(row.stopped_at) : today,
      history_limited_from: limited ? earliest : null,
      exposure: {
        players_exposed: exposed,
        contaminated: counts.reduce((s, c) => s + c.contaminated, 0),
        unknown_variant: unknown.reduce((s, c) => s + c.players, 0),
        definition:
          'A player is exposed from their first experiment_exposure event naming this experiment (from `from` on, ' +
          'before the stop); players exposed to two or more variants are contaminated and left out.',
      },
      variants: row.variants.map((v, i) => ({
        variant: v.key,
        weight: v.weight,
        expected_share: srm.expected_shares[i]!,
        players_exposed: perVariant[i]!.players,
        share: exposed > 0 ? r6(perVariant[i]!.players / exposed) : null,
        contaminated: perVariant[i]!.contaminated,
      })),
      sample_ratio_mismatch: srm,
      metrics,
      sample_size: plan,
      verdict: verdict({
        metricLabel: label(row.primary_metric),
        kind: isRate(row.primary_metric) ? 'proportion' : 'mean',
        figures: primary.variants,
        srm,
        plan,
        exposed,
      }),
    };
  }

  private figures(
    m: MetricDefT,
    keys: string[],
    counts: repo.VariantCountsRow[],
    custom: { variant: string; name: string; players: number }[],
  ): VariantFigure[] {
    switch (m.metric) {
      case 'd1_retention':
        return rateFigures(
          keys,
          counts.map((c) => ({ n: c.d1_n, x: c.d1_x })),
        );
      case 'd7_retention':
        return rateFigures(
          keys,
          counts.map((c) => ({ n: c.d7_n, x: c.d7_x })),
        );
      case 'conversion':
        return rateFigures(
          keys,
          counts.map((c) => ({ n: c.players, x: c.converted })),
        );
      case 'custom':
        return rateFigures(
          keys,
          counts.map((c) => ({
            n: c.players,
            x: custom.find((r) => r.variant === c.variant && r.name === m.event_name)?.players ?? 0,
          })),
        );
      case 'revenue_per_player':
        return meanFigures(
          keys,
          counts.map((c) => ({ n: c.players, mean: c.revenue_mean, variance: c.revenue_var ?? 0 })),
        );
    }
  }
}

const positive = (x: number | null) => (x !== null && x > 0 ? x : null);
/** The control's observed rate, unrounded; null outside (0, 1). */
function positiveRate(f: VariantFigure): number | null {
  const rate = f.players > 0 ? (f.successes ?? 0) / f.players : 0;
  return rate > 0 && rate < 1 ? rate : null;
}
