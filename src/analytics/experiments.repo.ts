/**
 * SQL of experiments: the sdk_experiments rows, and what the results count per variant. Exposures
 * come from the experiments' own rollup (sdk_custom_player_days, views/experiments.rollup.repo.ts),
 * retention from the activity bits (sdk_player_activity, every platform: platform ''), conversion
 * and revenue from sdk_player_days, custom events reached from sdk_custom_player_days: never the
 * raw events.
 */
import type { Db, Queryable } from '../db/index.js';
import type { MetricDefT } from './experiments.schemas.js';
import type { VariantDef } from './experiments.stats.js';
import { EXPOSURE_EVENT } from './views/experiments.rollup.repo.js';

export interface ExperimentRow {
  id: number;
  team_id: number;
  game_id: string;
  key: string;
  variants: VariantDef[];
  primary_metric: MetricDefT;
  secondary_metrics: MetricDefT[];
  minimum_detectable_effect: number | null;
  baseline: number | null;
  start_day: string;
  status: 'running' | 'stopped';
  created_at: Date;
  stopped_at: Date | null;
}

const COLUMNS = `id, team_id, game_id, key, variants, primary_metric, secondary_metrics, minimum_detectable_effect,
  baseline, to_char(start_day, 'YYYY-MM-DD') AS start_day, status, created_at, stopped_at`;

function row(r: ExperimentRow): ExperimentRow {
  return { ...r, id: Number(r.id), team_id: Number(r.team_id) };
}

/** Serialises experiment creation per team for the rest of the transaction (the cap and the
 * unique key are checked, then written, without a race). */
export async function lockTeamExperiments(tx: Queryable, teamId: number): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('sdk_experiments', $1::bigint))`, [teamId]);
}

export async function countExperiments(q: Queryable, teamId: number): Promise<number> {
  const r = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM sdk_experiments WHERE team_id = $1',
    [teamId],
  );
  return r.rows[0]!.n;
}

export async function insertExperiment(
  q: Queryable,
  e: Omit<ExperimentRow, 'id' | 'status' | 'stopped_at'>,
): Promise<ExperimentRow> {
  const r = await q.query<ExperimentRow>(
    `INSERT INTO sdk_experiments (team_id, game_id, key, variants, primary_metric, secondary_metrics,
       minimum_detectable_effect, baseline, start_day, status, created_at)
     VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6::jsonb, $7, $8, $9::date, 'running', $10) RETURNING ${COLUMNS}`,
    [
      e.team_id,
      e.game_id,
      e.key,
      JSON.stringify(e.variants),
      JSON.stringify(e.primary_metric),
      JSON.stringify(e.secondary_metrics),
      e.minimum_detectable_effect,
      e.baseline,
      e.start_day,
      e.created_at,
    ],
  );
  return row(r.rows[0]!);
}

/** The team's experiments, newest first. */
export async function listExperiments(q: Queryable, teamId: number): Promise<ExperimentRow[]> {
  const r = await q.query<ExperimentRow>(
    `SELECT ${COLUMNS} FROM sdk_experiments WHERE team_id = $1 ORDER BY created_at DESC, id DESC`,
    [teamId],
  );
  return r.rows.map(row);
}

export async function findExperiment(
  q: Queryable,
  teamId: number,
  id: number,
): Promise<ExperimentRow | null> {
  const r = await q.query<ExperimentRow>(
    `SELECT ${COLUMNS} FROM sdk_experiments WHERE team_id = $1 AND id = $2`,
    [teamId, id],
  );
  return r.rows[0] ? row(r.rows[0]) : null;
}

export async function findExperimentByKey(
  q: Queryable,
  teamId: number,
  gameId: string,
  key: string,
): Promise<ExperimentRow | null> {
  const r = await q.query<ExperimentRow>(
    `SELECT ${COLUMNS} FROM sdk_experiments WHERE team_id = $1 AND game_id = $2 AND key = $3`,
    [teamId, gameId, key],
  );
  return r.rows[0] ? row(r.rows[0]) : null;
}

/** Stops a running experiment (a stopped one keeps its first stop time); null: no such experiment. */
export async function stopExperiment(
  q: Queryable,
  teamId: number,
  id: number,
  at: Date,
): Promise<ExperimentRow | null> {
  const r = await q.query<ExperimentRow>(
    `UPDATE sdk_experiments SET status = 'stopped', stopped_at = COALESCE(stopped_at, $3)
      WHERE team_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [teamId, id, at],
  );
  return r.rows[0] ? row(r.rows[0]) : null;
}

export async function deleteExperiment(q: Queryable, teamId: number, id: number): Promise<boolean> {
  const r = await q.query('DELETE FROM sdk_experiments WHERE team_id = $1 AND id = $2', [teamId, id]);
  return (r.rowCount ?? 0) > 0;
}

/** What the results read: one experiment's exposures of one game from `from` (a UTC day) on, before
 * `until` (the stop, or null), with retention observed on days before `today`. */
export interface ResultScope {
  teamId: number;
  gameId: string;
  key: string;
  from: string;
  until: Date | null;
  today: string;
}

/** Each exposed player: the first exposure (instant and UTC day), its variant, and whether the
 * player was exposed to another variant too ($1..$5). Read off the exposures' partial index (0034);
 * players grouped by bytes ("C": equality is the same, and a locale's sort is slower). */
const EXPOSED = `exposed AS (
  SELECT player_id COLLATE "C" AS player_id, min(first_ts) AS first_ts, min(day) AS first_day,
         (array_agg(variant ORDER BY first_ts, variant))[1] AS variant, min(variant) <> max(variant) AS contaminated
    FROM sdk_custom_player_days
   WHERE team_id = $1 AND game_id = $2 AND name = '${EXPOSURE_EVENT}' AND experiment = $3 AND day >= $4::date
     AND ($5::timestamptz IS NULL OR first_ts < $5)
   GROUP BY 1
)`;

function exposedParams(s: ResultScope): unknown[] {
  return [s.teamId, s.gameId, s.key, s.from, s.until];
}

/** Whether the player was active on the UTC day `n` days after their first exposure, from the
 * activity bits (bit i: active on a.first_day + i). */
function activeOn(n: number): string {
  const k = `(x.first_day + ${n} - a.first_day)`;
  return `CASE WHEN a.days IS NOT NULL AND ${k} BETWEEN 0 AND length(a.days) - 1
    THEN get_bit(a.days, ${k}) = 1 ELSE false END`;
}

export interface VariantCountsRow {
  variant: string;
  contaminated: number;
  players: number;
  d1_n: number;
  d1_x: number;
  d7_n: number;
  d7_x: number;
  converted: number;
  revenue_mean: number;
  revenue_var: number | null;
}

/** Per first-exposure variant: contaminated players, and for the players exposed to that variant
 * alone their retention (observed days only), conversion and revenue moments. */
export async function variantCounts(db: Db, s: ResultScope): Promise<VariantCountsRow[]> {
  const clean = 'NOT x.contaminated';
  // Joined by hashing, not per player: the planner cannot see how many players the exposed CTE
  // holds (it guessed hundreds), and probing the player days and activity once per exposed player
  // was most of the time at 10M events (34,000 players: 1 s against 0.7 s).
  const r = await db.transaction(async (tx) => {
    await tx.exec('SET LOCAL enable_nestloop = off');
    return tx.query<VariantCountsRow>(
      `WITH ${EXPOSED}, money AS (
       SELECT x.player_id, sum(d.purchases) AS purchases, sum(d.revenue_usd) AS revenue
         FROM exposed x JOIN sdk_player_days d
           ON d.team_id = $1 AND d.game_id = $2 AND d.day >= $4::date AND d.player_id = x.player_id
          AND d.day >= x.first_day AND d.purchases > 0
        WHERE ${clean}
        GROUP BY 1
     )
     SELECT x.variant,
       count(*) FILTER (WHERE x.contaminated)::int AS contaminated,
       count(*) FILTER (WHERE ${clean})::int AS players,
       count(*) FILTER (WHERE ${clean} AND x.first_day + 1 < $6::date)::int AS d1_n,
       count(*) FILTER (WHERE ${clean} AND x.first_day + 1 < $6::date AND ${activeOn(1)})::int AS d1_x,
       count(*) FILTER (WHERE ${clean} AND x.first_day + 7 < $6::date)::int AS d7_n,
       count(*) FILTER (WHERE ${clean} AND x.first_day + 7 < $6::date AND ${activeOn(7)})::int AS d7_x,
       count(*) FILTER (WHERE ${clean} AND m.purchases > 0)::int AS converted,
       COALESCE(avg(COALESCE(m.revenue, 0)) FILTER (WHERE ${clean}), 0)::float8 AS revenue_mean,
       var_samp(COALESCE(m.revenue, 0)) FILTER (WHERE ${clean})::float8 AS revenue_var
       FROM exposed x
       LEFT JOIN sdk_player_activity a
         ON ${clean} AND a.team_id = $1 AND a.game_id = $2 AND a.platform = '' AND a.player_id = x.player_id
       LEFT JOIN money m ON m.player_id = x.player_id
      GROUP BY x.variant`,
      [...exposedParams(s), s.today],
    );
  });
  return r.rows.map((v) => ({
    ...v,
    revenue_mean: Number(v.revenue_mean),
    revenue_var: v.revenue_var === null ? null : Number(v.revenue_var),
  }));
}

/** Per variant and custom event name: players exposed to that variant alone who sent the event at or
 * after their first exposure. */
export async function customReached(
  q: Queryable,
  s: ResultScope,
  names: readonly string[],
): Promise<{ variant: string; name: string; players: number }[]> {
  if (names.length === 0) return [];
  const r = await q.query<{ variant: string; name: string; players: number }>(
    `WITH ${EXPOSED}
     SELECT x.variant, c.name, count(DISTINCT x.player_id)::int AS players
       FROM exposed x JOIN sdk_custom_player_days c
         ON c.team_id = $1 AND c.game_id = $2 AND c.name = ANY($6::text[]) AND c.experiment = ''
        AND c.day >= $4::date AND c.player_id = x.player_id AND c.day >= x.first_day AND c.last_ts >= x.first_ts
      WHERE NOT x.contaminated
      GROUP BY x.variant, c.name`,
    [...exposedParams(s), names],
  );
  return r.rows;
}
