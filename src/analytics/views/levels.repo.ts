/** SQL of the levels view: per-level outcomes (sdk_level_days) and attempts to a first finish
 * (sdk_level_firsts, migration 0017). A player is their player_id across the platforms read. */
import { scopeParams, scopeSql } from './scope.repo.js';
import type { ViewContext } from './view.js';

export interface LevelRow {
  level: number;
  players: number;
  attempts: number;
  wins: number;
  losses: number;
  quits: number;
  completes: number;
  /** Exact median of the attempts to a first finish in the range; null when nobody finished. */
  median_attempts: number | null;
}

/**
 * Every level with attempts in the range, ascending. The median counts the players whose first
 * finish (win or complete) of the level ever, on the platforms read, falls in the range: their
 * attempts on earlier days of the range plus that day's attempts up to the finish. Attempts before
 * the range are not read (the plan's history limit would hide them anyway).
 */
export async function levelStats(ctx: ViewContext): Promise<LevelRow[]> {
  const r = await ctx.db.query<LevelRow>(
    `WITH lv AS (
       SELECT level, count(DISTINCT player_id)::int AS players, sum(attempts)::int AS attempts,
              sum(wins)::int AS wins, sum(losses)::int AS losses, sum(quits)::int AS quits,
              sum(completes)::int AS completes
         FROM sdk_level_days WHERE ${scopeSql()} AND day BETWEEN $5 AND $6
        GROUP BY level
     ), firsts AS (
       SELECT f.player_id, f.level, min(f.first_done_day) AS first_day
         FROM sdk_level_firsts f
        WHERE ${scopeSql('f')} AND f.first_done_day BETWEEN $5 AND $6
          AND NOT EXISTS (
            SELECT 1 FROM sdk_level_firsts g
             WHERE ${scopeSql('g')} AND g.player_id = f.player_id AND g.level = f.level
               AND g.first_done_day < $5)
        GROUP BY f.player_id, f.level
     ), tries AS (
       SELECT f.level,
              COALESCE(sum(d.attempts) FILTER (WHERE d.day < f.first_day), 0)
                + sum(d.attempts_to_done) FILTER (WHERE d.day = f.first_day) AS n
         FROM firsts f
         JOIN sdk_level_days d ON ${scopeSql('d')} AND d.player_id = f.player_id AND d.level = f.level
          AND d.day BETWEEN $5 AND f.first_day
        GROUP BY f.level, f.player_id
     )
     SELECT lv.level::float8 AS level, lv.players, lv.attempts, lv.wins, lv.losses, lv.quits, lv.completes,
            (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY t.n) FROM tries t WHERE t.level = lv.level)
              AS median_attempts
       FROM lv ORDER BY lv.level`,
    [...scopeParams(ctx), ctx.range.from, ctx.range.to],
  );
  return r.rows;
}
