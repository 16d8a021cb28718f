/** Update-impact SQL: detected updates, their measured impact, and the lists read from them. */
import type { Queryable } from '../db/index.js';
import type { Impact } from './impact.js';

export interface SeenUpdate {
  universeId: number;
  releasedAt: Date;
  previousAt: Date | null;
  detectedAt: Date;
}

/** Stores updates; one already stored (same game, same release time) is left as it is. */
export async function insertUpdates(db: Queryable, rows: readonly SeenUpdate[]): Promise<number> {
  if (rows.length === 0) return 0;
  const res = await db.query(
    `INSERT INTO game_updates (universe_id, released_at, previous_at, detected_at)
     SELECT u.universe_id, u.released_at, u.previous_at, u.detected_at
       FROM unnest($1::bigint[], $2::timestamptz[], $3::timestamptz[], $4::timestamptz[])
            AS u (universe_id, released_at, previous_at, detected_at)
       JOIN games g ON g.universe_id = u.universe_id
     ON CONFLICT (universe_id, released_at) DO NOTHING`,
    [
      rows.map((r) => r.universeId),
      rows.map((r) => r.releasedAt),
      rows.map((r) => r.previousAt),
      rows.map((r) => r.detectedAt),
    ],
  );
  return res.rowCount;
}

export interface DueUpdate {
  id: number;
  universe_id: number;
  released_at: Date;
  previous_at: Date | null;
  /** The game's next update, if any. */
  next_released_at: Date | null;
}

/** Updates released before `releasedBefore` still waiting to be measured, oldest first. */
export async function dueUpdates(db: Queryable, releasedBefore: Date, limit: number): Promise<DueUpdate[]> {
  const res = await db.query<DueUpdate>(
    `SELECT u.id::int AS id, u.universe_id::float8 AS universe_id, u.released_at, u.previous_at,
            (SELECT min(n.released_at) FROM game_updates n
              WHERE n.universe_id = u.universe_id AND n.released_at > u.released_at) AS next_released_at
       FROM game_updates u
      WHERE u.status = 'measuring' AND u.released_at < $1
      ORDER BY u.released_at, u.id LIMIT $2`,
    [releasedBefore, limit],
  );
  return res.rows;
}

/** Records what measureImpact said about an update. */
export async function saveImpact(
  db: Queryable,
  id: number,
  impact: Impact,
  overlapping: boolean,
  measuredAt: Date,
): Promise<void> {
  const m = impact.status === 'measured' ? impact : undefined;
  await db.query(
    `UPDATE game_updates SET status = $2, overlapping = $3, impact = $4, ci80_low = $5, ci80_high = $6,
            ci95_low = $7, ci95_high = $8, significant = $9, observed_mean = $10, counterfactual_mean = $11,
            baseline_days = $12, window_days = $13, model_version = $14, measured_at = $15
      WHERE id = $1`,
    [
      id,
      impact.status,
      overlapping,
      m?.impact ?? null,
      m?.ci80[0] ?? null,
      m?.ci80[1] ?? null,
      m?.ci95[0] ?? null,
      m?.ci95[1] ?? null,
      m?.significant ?? null,
      m?.observedMean ?? null,
      m?.counterfactualMean ?? null,
      impact.status === 'insufficient_data' ? null : impact.baselineDays,
      impact.status === 'insufficient_history' ? null : impact.windowDays,
      m?.modelVersion ?? null,
      measuredAt,
    ],
  );
}

export interface UpdateRow {
  id: number;
  universe_id: number;
  released_at: Date;
  previous_at: Date | null;
  detected_at: Date;
  status: Impact['status'] | 'measuring';
  overlapping: boolean;
  impact: number | null;
  ci80_low: number | null;
  ci80_high: number | null;
  ci95_low: number | null;
  ci95_high: number | null;
  significant: boolean | null;
  observed_mean: number | null;
  counterfactual_mean: number | null;
  baseline_days: number | null;
  window_days: number | null;
  model_version: string | null;
}

const UPDATE_COLUMNS = `u.id::int AS id, u.universe_id::float8 AS universe_id, u.released_at, u.previous_at,
  u.detected_at, u.status, u.overlapping, u.impact, u.ci80_low, u.ci80_high, u.ci95_low, u.ci95_high,
  u.significant, u.observed_mean, u.counterfactual_mean, u.baseline_days, u.window_days, u.model_version`;

/** One game's updates, newest first, those older than update `beforeId` when it is given. */
export async function updatesOfGame(
  db: Queryable,
  universeId: number,
  beforeId: number | undefined,
  limit: number,
): Promise<UpdateRow[]> {
  const res = await db.query<UpdateRow>(
    `SELECT ${UPDATE_COLUMNS} FROM game_updates u
      WHERE u.universe_id = $1 AND ($2::bigint IS NULL OR (u.released_at, u.id) <
            (SELECT released_at, id FROM game_updates WHERE id = $2))
      ORDER BY u.released_at DESC, u.id DESC LIMIT $3`,
    [universeId, beforeId ?? null, limit],
  );
  return res.rows;
}

/** The newest updates of any of these games, newest first (a creator's page). */
export async function updatesOfGames(
  db: Queryable,
  universeIds: number[],
  limit: number,
): Promise<UpdateRow[]> {
  const res = await db.query<UpdateRow>(
    `SELECT ${UPDATE_COLUMNS} FROM game_updates u
      WHERE u.universe_id = ANY($1::bigint[]) ORDER BY u.released_at DESC, u.id DESC LIMIT $2`,
    [universeIds, limit],
  );
  return res.rows;
}

export interface RankedRow extends UpdateRow {
  place_id: number;
  name: string;
  genre: string;
}

/**
 * Measured updates released in [since, until) that no other update of the game overlapped,
 * biggest gains (or losses) first, after the (impact, id) `after` when given.
 */
export async function rankedUpdates(
  db: Queryable,
  q: {
    since: Date;
    until: Date;
    genre: string | undefined;
    direction: 'gains' | 'losses';
    significantOnly: boolean;
    after: { impact: number; id: number } | undefined;
    limit: number;
  },
): Promise<RankedRow[]> {
  const order = q.direction === 'gains' ? 'DESC' : 'ASC';
  const params: unknown[] = [q.since, q.until, q.limit];
  // Each filter is written only when it applies, so that the planner walks game_updates_ranked_idx
  // in order and stops after the page (parameters stay parameters).
  const where = ["u.status = 'measured'", 'NOT u.overlapping', 'u.released_at >= $1', 'u.released_at < $2'];
  if (q.genre !== undefined) {
    params.push(q.genre);
    where.push(`g.genre = $${params.length}`);
  }
  if (q.significantOnly) where.push('u.significant');
  if (q.after) {
    params.push(q.after.impact, q.after.id);
    const cmp = q.direction === 'gains' ? '<' : '>';
    where.push(`(u.impact, u.id) ${cmp} ($${params.length - 1}::float8, $${params.length}::bigint)`);
  }
  const res = await db.query<RankedRow>(
    `SELECT ${UPDATE_COLUMNS}, g.place_id::float8 AS place_id, g.name, g.genre
       FROM game_updates u JOIN games g ON g.universe_id = u.universe_id
      WHERE ${where.join(' AND ')}
      ORDER BY u.impact ${order}, u.id ${order} LIMIT $3`,
    params,
  );
  return res.rows;
}

export interface TimingRow {
  bucket: number;
  updates: number;
  mean_impact: number;
  median_impact: number;
  significant_gains: number;
  significant_losses: number;
}

/**
 * Measured, non-overlapping updates released in [since, until) grouped by UTC weekday
 * (Monday = 0) or UTC hour of release.
 */
export async function impactByReleaseTime(
  db: Queryable,
  by: 'weekday' | 'hour',
  q: { since: Date; until: Date; genre: string | undefined },
): Promise<TimingRow[]> {
  const bucket =
    by === 'weekday'
      ? "(extract(isodow FROM u.released_at AT TIME ZONE 'UTC')::int - 1)"
      : "extract(hour FROM u.released_at AT TIME ZONE 'UTC')::int";
  const res = await db.query<TimingRow>(
    `SELECT ${bucket} AS bucket, count(*)::int AS updates, avg(u.impact)::float8 AS mean_impact,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY u.impact)::float8 AS median_impact,
            count(*) FILTER (WHERE u.significant AND u.impact > 0)::int AS significant_gains,
            count(*) FILTER (WHERE u.significant AND u.impact < 0)::int AS significant_losses
       FROM game_updates u JOIN games g ON g.universe_id = u.universe_id
      WHERE u.status = 'measured' AND NOT u.overlapping AND u.released_at >= $1 AND u.released_at < $2
        AND ($3::text IS NULL OR g.genre = $3)
      GROUP BY 1 ORDER BY 1`,
    [q.since, q.until, q.genre ?? null],
  );
  return res.rows;
}

/** Fresh planner statistics after many updates changed at once (a backfill's first measuring):
 * without them the market lists were planned for the table as it was, sorting every row. */
export async function analyseUpdates(db: Queryable): Promise<void> {
  await db.exec('ANALYZE game_updates');
}
