/** Forecast SQL: the daily history forecasts read, and the stored forecasts and their runs. */
import type { Queryable } from '../db/index.js';

export interface StoredPoint {
  date: string;
  point: number;
  lower: number;
  upper: number;
  log_mean: number;
  log_sd: number;
}

export interface ForecastRow {
  universe_id: number;
  generated_at: Date;
  model_version: string;
  last_day: string;
  history_days: number;
  points: StoredPoint[];
  growth_probability: number | null;
}

/** Daily mean CCU of one game over complete UTC days in [from, until), oldest first. */
export async function dailyHistory(
  db: Queryable,
  universeId: number,
  from: string,
  until: string,
): Promise<{ day: string; ccu: number }[]> {
  const res = await db.query<{ day: string; ccu: number }>(
    `SELECT day, ccu_avg::float8 AS ccu FROM ccu_daily
      WHERE universe_id = $1 AND day >= $2::date AND day < $3::date ORDER BY day`,
    [universeId, from, until],
  );
  return res.rows;
}

/** Daily mean CCU of every game over complete UTC days in [from, until), by game, oldest first. */
export async function allDailyHistory(
  db: Queryable,
  from: string,
  until: string,
): Promise<Map<number, { day: string; ccu: number }[]>> {
  const res = await db.query<{ universe_id: number; days: string[]; ccu: number[] }>(
    `SELECT universe_id, array_agg(day::text ORDER BY day) AS days, array_agg(ccu_avg::float8 ORDER BY day) AS ccu
       FROM ccu_daily WHERE day >= $1::date AND day < $2::date GROUP BY universe_id`,
    [from, until],
  );
  return new Map(res.rows.map((r) => [r.universe_id, r.days.map((day, i) => ({ day, ccu: r.ccu[i]! }))]));
}

/** Today's mean CCU so far (the daily rollup of the current day), if any reading exists. */
export async function dayMean(db: Queryable, universeId: number, day: string): Promise<number | null> {
  const res = await db.query<{ ccu: number }>(
    'SELECT ccu_avg::float8 AS ccu FROM ccu_daily WHERE universe_id = $1 AND day = $2::date',
    [universeId, day],
  );
  return res.rows[0]?.ccu ?? null;
}

export async function dayMeans(db: Queryable, day: string): Promise<Map<number, number>> {
  const res = await db.query<{ universe_id: number; ccu: number }>(
    'SELECT universe_id, ccu_avg::float8 AS ccu FROM ccu_daily WHERE day = $1::date',
    [day],
  );
  return new Map(res.rows.map((r) => [r.universe_id, r.ccu]));
}

export async function loadForecast(db: Queryable, universeId: number): Promise<ForecastRow | undefined> {
  const res = await db.query<ForecastRow>(
    `SELECT universe_id, generated_at, model_version, last_day::text AS last_day, history_days, points,
            growth_probability
       FROM forecasts WHERE universe_id = $1`,
    [universeId],
  );
  return res.rows[0];
}

export async function growthProbability(db: Queryable, universeId: number): Promise<number | null> {
  const res = await db.query<{ p: number | null }>(
    'SELECT growth_probability AS p FROM forecasts WHERE universe_id = $1',
    [universeId],
  );
  return res.rows[0]?.p ?? null;
}

export async function saveForecasts(db: Queryable, rows: ForecastRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO forecasts (universe_id, generated_at, model_version, last_day, history_days, points, growth_probability)
     SELECT u.id, u.at, u.model, u.last_day, u.days, u.points::json, u.p
       FROM unnest($1::bigint[], $2::timestamptz[], $3::text[], $4::date[], $5::int[], $6::text[], $7::real[])
            AS u(id, at, model, last_day, days, points, p)
     ON CONFLICT (universe_id) DO UPDATE SET generated_at = EXCLUDED.generated_at,
       model_version = EXCLUDED.model_version, last_day = EXCLUDED.last_day, history_days = EXCLUDED.history_days,
       points = EXCLUDED.points, growth_probability = EXCLUDED.growth_probability`,
    [
      rows.map((r) => r.universe_id),
      rows.map((r) => r.generated_at),
      rows.map((r) => r.model_version),
      rows.map((r) => r.last_day),
      rows.map((r) => r.history_days),
      rows.map((r) => JSON.stringify(r.points)),
      rows.map((r) => r.growth_probability),
    ],
  );
}

export async function recordRun(
  db: Queryable,
  run: { ranAt: Date; games: number; skipped: number; ms: number },
): Promise<void> {
  await db.query('INSERT INTO forecast_runs (ran_at, games, skipped, ms) VALUES ($1, $2, $3, $4)', [
    run.ranAt,
    run.games,
    run.skipped,
    run.ms,
  ]);
}

/** The latest run of the forecaster: when, and how many games it forecast. */
export async function lastRun(db: Queryable): Promise<{ ranAt: Date; games: number } | null> {
  const res = await db.query<{ ran_at: Date; games: number }>(
    'SELECT ran_at, games FROM forecast_runs ORDER BY ran_at DESC, id DESC LIMIT 1',
  );
  const row = res.rows[0];
  return row ? { ranAt: row.ran_at, games: row.games } : null;
}
