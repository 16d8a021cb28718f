/** SQL that reads what the market views are computed from (the catalogue, CCU tiers, snapshots). */
import type { Queryable } from '../db/index.js';
import type { PeriodWindow } from './trend.js';

const DAILY_AT = "(day::timestamp AT TIME ZONE 'UTC')";

/**
 * Each CCU tier as (table, time expression, CCU column, and `within`: the rows stamped in [$1, $2),
 * tested on the indexed time column so that a window reads only its own rows); fixed names, never
 * user input. A daily row is stamped at its UTC midnight.
 */
const TIERS = {
  samples: { table: 'ccu_samples', at: 'ts', ccu: 'ccu', within: 'ts >= $1 AND ts < $2' },
  hourly: { table: 'ccu_hourly', at: 'hour', ccu: 'ccu_avg', within: 'hour >= $1 AND hour < $2' },
  daily: {
    table: 'ccu_daily',
    at: DAILY_AT,
    ccu: 'ccu_avg',
    within: `day BETWEEN ($1::timestamptz AT TIME ZONE 'UTC')::date AND ($2::timestamptz AT TIME ZONE 'UTC')::date
             AND ${DAILY_AT} >= $1 AND ${DAILY_AT} < $2`,
  },
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

export interface PeriodMeansRow {
  universe_id: number;
  recent: number | null;
  previous: number | null;
}

/**
 * Per game with a reading in either window, the mean CCU of the latest and of the preceding
 * window (null for a window without readings).
 */
export async function readPeriodMeans(db: Queryable, w: PeriodWindow): Promise<PeriodMeansRow[]> {
  const t = TIERS[w.source];
  const res = await db.query<PeriodMeansRow>(
    `SELECT universe_id, avg(${t.ccu}::float8) FILTER (WHERE ${t.at} >= $3) AS recent,
            avg(${t.ccu}::float8) FILTER (WHERE ${t.at} < $3) AS previous
       FROM ${t.table}
      WHERE ${t.within}
      GROUP BY universe_id`,
    [w.previousStart, w.end, w.recentStart],
  );
  return res.rows;
}

export interface PeriodBucketsRow {
  universe_id: number;
  buckets: number[];
  values: number[];
}

/**
 * Per game with a reading in the latest window, the mean CCU of each of its 24 buckets that holds a
 * reading, by bucket. The bucket is computed in float8 (date_part) rather than numeric (extract),
 * at a fraction of the cost over millions of rows and with the same result: an offset is whole
 * microseconds, so one on a bucket edge is exact and any other lies far beyond float8's rounding.
 */
export async function readPeriodBuckets(db: Queryable, w: PeriodWindow): Promise<PeriodBucketsRow[]> {
  const t = TIERS[w.source];
  const res = await db.query<PeriodBucketsRow>(
    `SELECT universe_id, array_agg(bucket ORDER BY bucket) AS buckets, array_agg(v ORDER BY bucket) AS values
       FROM (SELECT universe_id, floor(date_part('epoch', ${t.at} - $1::timestamptz) * 1000 / $3)::int AS bucket,
                    avg(${t.ccu}::float8) AS v
               FROM ${t.table}
              WHERE ${t.within}
              GROUP BY 1, 2) b
      GROUP BY universe_id`,
    [w.recentStart, w.end, w.bucketMs],
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
