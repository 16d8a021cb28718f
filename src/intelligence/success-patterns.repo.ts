/**
 * Success-pattern SQL: the games with readings in a period, their mean daily CCU in it and in the
 * days before, and the stored facts the features are built from. Read-only joins over the
 * catalogue (games, game_passes), the daily rollups and the updates domain's game_updates.
 */
import type { Queryable } from '../db/index.js';

/** The last UTC day before `today` with a daily rollup; null before the first. */
export async function latestRolledUpDay(db: Queryable, today: string): Promise<string | null> {
  const res = await db.query<{ day: string | null }>(
    'SELECT max(day)::text AS day FROM ccu_daily WHERE day < $1::date',
    [today],
  );
  return res.rows[0]?.day ?? null;
}

export interface PatternGameRow {
  universe_id: number;
  name: string;
  /** Mean daily CCU over [from, until) and the days with a rollup there. */
  current: number;
  current_days: number;
  /** The same over [baselineFrom, from); null without a reading there. */
  baseline: number | null;
  baseline_days: number;
  created_at: Date | null;
  max_players: number | null;
  up_votes: number | null;
  down_votes: number | null;
  favorites: number | null;
  visits: number | null;
  description_length: number;
  gamepass_count: number | null;
  gamepass_median_price: number | null;
  gamepass_max_price: number | null;
  /** Updates released in [updatesSince, updatesUntil). */
  updates: number;
  /** The game's first daily rollup. */
  first_day: string;
}

/**
 * Every game (of `genre`, or all) with a daily rollup in [from, until): its mean daily CCU and days
 * with readings there and in [baselineFrom, from), and its stored facts.
 */
export async function patternGames(
  db: Queryable,
  p: {
    genre: string | null;
    from: string;
    until: string;
    baselineFrom: string;
    updatesSince: Date;
    updatesUntil: Date;
  },
): Promise<PatternGameRow[]> {
  const res = await db.query<PatternGameRow>(
    `WITH cur AS (
       SELECT universe_id, avg(ccu_avg)::float8 AS ccu, count(*)::int AS days FROM ccu_daily
        WHERE day >= $1::date AND day < $2::date GROUP BY universe_id
     ), base AS (
       SELECT universe_id, avg(ccu_avg)::float8 AS ccu, count(*)::int AS days FROM ccu_daily
        WHERE day >= $3::date AND day < $1::date GROUP BY universe_id
     ), upd AS (
       SELECT universe_id, count(*)::int AS updates FROM game_updates
        WHERE released_at >= $5 AND released_at < $6 GROUP BY universe_id
     ), passes AS (
       SELECT universe_id, max(price)::float8 AS max_price FROM game_passes GROUP BY universe_id
     )
     SELECT g.universe_id::float8 AS universe_id, g.name, cur.ccu AS current, cur.days AS current_days,
            base.ccu AS baseline, coalesce(base.days, 0) AS baseline_days,
            g.created_at, g.max_players, g.up_votes::float8 AS up_votes, g.down_votes::float8 AS down_votes,
            g.favorites::float8 AS favorites, g.visits::float8 AS visits,
            char_length(g.description) AS description_length,
            g.gamepass_count, g.gamepass_median_price::float8 AS gamepass_median_price,
            CASE WHEN g.passes_checked_at IS NULL THEN NULL ELSE passes.max_price END AS gamepass_max_price,
            coalesce(upd.updates, 0) AS updates,
            (SELECT min(day) FROM ccu_daily d WHERE d.universe_id = g.universe_id)::text AS first_day
       FROM games g JOIN cur USING (universe_id)
       LEFT JOIN base USING (universe_id) LEFT JOIN upd USING (universe_id) LEFT JOIN passes USING (universe_id)
      WHERE $4::text IS NULL OR g.genre = $4
      ORDER BY g.universe_id`,
    [p.from, p.until, p.baselineFrom, p.genre, p.updatesSince, p.updatesUntil],
  );
  return res.rows;
}
