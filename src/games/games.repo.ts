/**
 * Games SQL: reads of the CCU tiers the market domain writes (the games table itself is read
 * through market's repos: findGameByPlaceId, searchGames). Nothing here writes.
 */
import type { Queryable } from '../db/index.js';

export interface HourlyPoint {
  hour: Date;
  ccu_avg: number;
}

/** Hourly rollups of one game with hour in [from, to), oldest first. */
export async function hourlyCcu(
  db: Queryable,
  universeId: number,
  from: Date,
  to: Date,
): Promise<HourlyPoint[]> {
  const res = await db.query<HourlyPoint>(
    `SELECT hour, ccu_avg FROM ccu_hourly
      WHERE universe_id = $1 AND hour >= $2 AND hour < $3
      ORDER BY hour`,
    [universeId, from, to],
  );
  return res.rows;
}

export interface DailyPoint {
  day: Date;
  ccu_avg: number;
}

/** Daily rollups (UTC days) of one game with day in [from, to], oldest first. */
export async function dailyCcu(
  db: Queryable,
  universeId: number,
  from: Date,
  to: Date,
): Promise<DailyPoint[]> {
  const res = await db.query<{ day: string | Date; ccu_avg: number }>(
    `SELECT day::text AS day, ccu_avg FROM ccu_daily
      WHERE universe_id = $1 AND day >= $2::date AND day <= $3::date
      ORDER BY day`,
    [universeId, from.toISOString().slice(0, 10), to.toISOString().slice(0, 10)],
  );
  return res.rows.map((r) => ({
    day: new Date(`${String(r.day).slice(0, 10)}T00:00:00Z`),
    ccu_avg: r.ccu_avg,
  }));
}

/**
 * Mean hourly CCU of one game over two adjacent windows, [previousStart, recentStart) and
 * [recentStart, end); null for a window without rows. Averaged in SQL (float8 means of the
 * real-typed rollups) so any set-based view averaging the same rows, such as trending, gets the
 * very same numbers rather than ones off in the last bits.
 */
export async function trendMeans(
  db: Queryable,
  universeId: number,
  w: { previousStart: Date; recentStart: Date; end: Date },
): Promise<{ recent: number | null; previous: number | null }> {
  const res = await db.query<{ recent: number | null; previous: number | null }>(
    `SELECT avg(ccu_avg) FILTER (WHERE hour >= $3) AS recent,
            avg(ccu_avg) FILTER (WHERE hour < $3) AS previous
       FROM ccu_hourly
      WHERE universe_id = $1 AND hour >= $2 AND hour < $4`,
    [universeId, w.previousStart, w.recentStart, w.end],
  );
  return res.rows[0] ?? { recent: null, previous: null };
}
