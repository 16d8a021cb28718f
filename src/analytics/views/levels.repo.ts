/** SQL of the levels view. Without a segment: per-level outcomes (sdk_level_outcomes) and players and
 * attempts to a first finish counted by sdk_level_reach (migration 0022); a segment reads the
 * per-player rows (sdk_level_days, sdk_level_firsts of migration 0017). A player is their player_id
 * across the platforms read. */
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
  return ctx.players === null ? levelCounts(ctx) : levelStatsOfPlayers(ctx);
}

/**
 * The whole game, from the counts: a player's row with the first day of the range they played the
 * level on is the one with day in the range and prev_day before it (one per player), and its
 * to_done is their attempts to the first finish counted from that day, when the finish is in the
 * range. The median is taken over those counts weighted by players: the value at rank
 * (total + 1) / 2 and at total / 2 + 1 (integer division), averaged, as percentile_cont(0.5) would.
 */
async function levelCounts(ctx: ViewContext): Promise<LevelRow[]> {
  const r = await ctx.db.query<LevelRow>(
    `WITH lv AS (
       SELECT level, sum(attempts)::int AS attempts, sum(wins)::int AS wins, sum(losses)::int AS losses,
              sum(quits)::int AS quits, sum(completes)::int AS completes
         FROM sdk_level_outcomes
        WHERE team_id = $1 AND game_id = $2 AND ($3::text IS NULL OR platform = $3) AND day BETWEEN $4 AND $5
        GROUP BY level
     ), firsts AS (
       SELECT level, done_day, to_done, players FROM sdk_level_reach
        WHERE team_id = $1 AND game_id = $2 AND platform = COALESCE($3::text, '') AND day BETWEEN $4 AND $5
          AND prev_day < $4
     ), reached AS (
       SELECT level, sum(players)::int AS players FROM firsts GROUP BY level
     ), tries AS (
       SELECT level, to_done, sum(sum(players)) OVER (PARTITION BY level ORDER BY to_done)::bigint AS upto,
              sum(sum(players)) OVER (PARTITION BY level)::bigint AS total
         FROM firsts WHERE done_day <= $5
        GROUP BY level, to_done
     ), median AS (
       SELECT level, (min(to_done) FILTER (WHERE upto >= (total + 1) / 2)::float8
                      + min(to_done) FILTER (WHERE upto >= total / 2 + 1)::float8) / 2 AS median_attempts
         FROM tries GROUP BY level
     )
     SELECT lv.level::float8 AS level, COALESCE(reached.players, 0) AS players, lv.attempts, lv.wins, lv.losses,
            lv.quits, lv.completes, median.median_attempts
       FROM lv LEFT JOIN reached USING (level) LEFT JOIN median USING (level)
      ORDER BY lv.level`,
    [ctx.teamId, ctx.gameId, ctx.platform, ctx.range.from, ctx.range.to],
  );
  return r.rows;
}

/** A segment's players, from their rows. */
async function levelStatsOfPlayers(ctx: ViewContext): Promise<LevelRow[]> {
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
