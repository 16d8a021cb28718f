/** SQL that reads what the market views are computed from (the catalogue, CCU tiers, snapshots). */
import type { Queryable } from '../db/index.js';
import type { PeriodWindow } from './trend.js';

/** Each CCU tier as (table, time column, CCU column); fixed names, never user input. */
const TIERS = {
  samples: { table: 'ccu_samples', at: 'ts', ccu: 'ccu' },
  hourly: { table: 'ccu_hourly', at: 'hour', ccu: 'ccu_avg' },
  daily: { table: 'ccu_daily', at: "(day::timestamp AT TIME ZONE 'UTC')", ccu: 'ccu_avg' },
} as const;

export interface CatalogueRow {
  universe_id: number;
  place_id: number;
  name: string;
  creator_name: string;
  genre: string;
  ccu: number;
  visits: number | null;
  up_votes: number | null;
  down_votes: number | null;
  created_at: Date | null;
  gamepass_count: number | null;
  gamepass_median_price: number | null;
}

/** Every game with a reading, most played first (ties by universe id, so orders are stable). */
export async function readCatalogue(db: Queryable): Promise<CatalogueRow[]> {
  const res = await db.query<CatalogueRow>(
    `SELECT universe_id, place_id, name, creator_name, genre, ccu, visits, up_votes, down_votes, created_at,
            gamepass_count, gamepass_median_price
       FROM games WHERE ccu IS NOT NULL ORDER BY ccu DESC, universe_id`,
  );
  return res.rows;
}

export interface PeriodRow {
  universe_id: number;
  recent: number | null;
  previous: number | null;
  buckets: number[];
  values: number[];
}

/**
 * Per game, the mean CCU of the latest and the preceding window, and the mean of each of the 24
 * buckets of the latest window (only buckets that hold a reading).
 */
export async function readPeriod(db: Queryable, w: PeriodWindow): Promise<PeriodRow[]> {
  const t = TIERS[w.source];
  const res = await db.query<PeriodRow>(
    `WITH rows AS (
       SELECT universe_id, ${t.at} AS at, ${t.ccu}::float8 AS ccu FROM ${t.table}
        WHERE ${t.at} >= $1 AND ${t.at} < $3
     ), means AS (
       SELECT universe_id, avg(ccu) FILTER (WHERE at >= $2) AS recent, avg(ccu) FILTER (WHERE at < $2) AS previous
         FROM rows GROUP BY universe_id
     ), buckets AS (
       SELECT universe_id, floor(extract(epoch FROM at - $2::timestamptz) * 1000 / $4)::int AS bucket, avg(ccu) AS v
         FROM rows WHERE at >= $2 GROUP BY 1, 2
     )
     SELECT m.universe_id, m.recent, m.previous,
            COALESCE(array_agg(b.bucket ORDER BY b.bucket) FILTER (WHERE b.bucket IS NOT NULL), '{}') AS buckets,
            COALESCE(array_agg(b.v ORDER BY b.bucket) FILTER (WHERE b.bucket IS NOT NULL), '{}') AS values
       FROM means m LEFT JOIN buckets b USING (universe_id)
      GROUP BY m.universe_id, m.recent, m.previous`,
    [w.previousStart, w.recentStart, w.end, w.bucketMs],
  );
  return res.rows;
}

/**
 * Genre CCU at `at` (the growth baseline): from the hourly rollup whose hour centre lies closest to
 * `at`, within an hour of it; else from the genre snapshot closest to `at`, within an hour. Genres
 * with neither have no baseline.
 */
export async function genreCcuNear(db: Queryable, at: Date): Promise<Map<string, number>> {
  const hourly = await db.query<{ genre: string; ccu: number }>(
    `SELECT g.genre, sum(h.ccu_avg)::float8 AS ccu
       FROM ccu_hourly h JOIN games g USING (universe_id)
      WHERE h.hour = (SELECT hour FROM ccu_hourly
                       WHERE hour BETWEEN $1::timestamptz - interval '90 minutes' AND $1::timestamptz + interval '30 minutes'
                       ORDER BY abs(extract(epoch FROM hour + interval '30 minutes' - $1::timestamptz)) LIMIT 1)
      GROUP BY g.genre`,
    [at],
  );
  if (hourly.rows.length > 0) return new Map(hourly.rows.map((r) => [r.genre, r.ccu]));
  const snap = await db.query<{ genre: string; total_ccu: number }>(
    `SELECT DISTINCT ON (genre) genre, total_ccu FROM genre_snapshots
      WHERE ts BETWEEN $1::timestamptz - interval '1 hour' AND $1::timestamptz + interval '1 hour'
      ORDER BY genre, abs(extract(epoch FROM ts - $1::timestamptz))`,
    [at],
  );
  return new Map(snap.rows.map((r) => [r.genre, r.total_ccu]));
}

/** Per-genre daily mean CCU from the snapshots (genre timing's history). */
export async function genreDailyCcu(db: Queryable): Promise<{ genre: string; day: string; ccu: number }[]> {
  const res = await db.query<{ genre: string; day: string; ccu: number }>(
    `SELECT genre, (ts AT TIME ZONE 'UTC')::date AS day, avg(total_ccu)::float8 AS ccu
       FROM genre_snapshots GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  return res.rows;
}

export interface VisitsRow {
  universe_id: number;
  /** Lifetime visits at the latest reading, about a day before it, and about 8 days before it,
   * each with the moment it was read (an hourly or daily rollup holds the counter at its end). */
  now: number | null;
  now_at: Date | null;
  day_ago: number | null;
  day_ago_at: Date | null;
  week_ago: number | null;
  week_ago_at: Date | null;
}

/**
 * Visit counters at three moments for every game: now (the catalogue), 24 h ago (the latest hourly
 * rollup at or before it) and 8 days ago (the latest daily rollup at or before it), so that visit
 * momentum can compare the last day's gain with the daily gain of the week before.
 */
export async function readVisitCounters(db: Queryable, now: Date): Promise<VisitsRow[]> {
  const res = await db.query<VisitsRow>(
    `SELECT g.universe_id, g.visits AS now, g.observed_at AS now_at, h.visits AS day_ago,
            h.hour + interval '1 hour' AS day_ago_at, d.visits AS week_ago,
            (d.day + 1)::timestamp AT TIME ZONE 'UTC' AS week_ago_at
       FROM games g
       LEFT JOIN LATERAL (SELECT hour, visits FROM ccu_hourly
                           WHERE universe_id = g.universe_id AND hour <= $1::timestamptz - interval '1 hour'
                           ORDER BY hour DESC LIMIT 1) h ON true
       LEFT JOIN LATERAL (SELECT day, visits FROM ccu_daily
                           WHERE universe_id = g.universe_id AND day < $2::date
                           ORDER BY day DESC LIMIT 1) d ON true
      WHERE g.ccu IS NOT NULL`,
    [
      new Date(now.getTime() - 86_400_000),
      new Date(now.getTime() - 7 * 86_400_000).toISOString().slice(0, 10),
    ],
  );
  return res.rows;
}

export interface PlatformTotalsRow {
  ccu: number;
  active: number;
  games: number;
}

export async function platformTotals(db: Queryable): Promise<PlatformTotalsRow> {
  const res = await db.query<PlatformTotalsRow>(
    `SELECT COALESCE(sum(ccu), 0)::float8 AS ccu, count(*) FILTER (WHERE ccu >= 10)::int AS active,
            count(*)::int AS games
       FROM games WHERE ccu IS NOT NULL`,
  );
  return res.rows[0]!;
}

/** Platform CCU as the sum of the hourly means of the hour starting at `hour` (null without rows). */
export async function platformHourlyCcu(db: Queryable, hour: Date): Promise<number | null> {
  const res = await db.query<{ ccu: number | null }>(
    'SELECT sum(ccu_avg)::float8 AS ccu FROM ccu_hourly WHERE hour = $1',
    [hour],
  );
  return res.rows[0]?.ccu ?? null;
}
