/**
 * SQL of the retention view: one grouped query over the cohorts' players. A cohort is the players
 * first seen on a day (on any platform of the game, or on the filtered one). Their activity is read
 * once, over the days day 1..30 of some cohort can fall on; rolling retention needs only each
 * player's last active day, and a player active after that window (up to today) has reached day 30.
 */
import { scopeParams, scopeSql } from './scope.repo.js';
import type { ViewContext } from './view.js';

/**
 * Per cohort day: n = 0 gives the cohort's size (`active`); for n ≥ 1, `active` counts the players
 * active on exactly first_day + n (n ≤ 30) and `last` those whose last active day is first_day + n
 * (n capped at 30: "active on day 30 or later").
 */
export interface RetentionCountRow {
  cohort: string;
  n: number;
  active: number;
  last: number;
}

/** `today`: the last day observed. The window read day by day ends at min(to + 30, today). */
export async function retentionCounts(ctx: ViewContext, today: string): Promise<RetentionCountRow[]> {
  const r = await ctx.db.query<RetentionCountRow>(
    `WITH cohort AS (
       SELECT player_id, min(first_day) AS first_day FROM sdk_players
        WHERE ${scopeSql()} AND first_day <= $6 GROUP BY player_id HAVING min(first_day) >= $5
     ), act AS (
       SELECT c.player_id, c.first_day, pd.day - c.first_day AS n
         FROM cohort c JOIN sdk_player_days pd ON pd.player_id = c.player_id
        WHERE ${scopeSql('pd')} AND pd.day > $5::date AND pd.day <= LEAST($6::date + 30, $7::date) AND pd.day > c.first_day
        GROUP BY c.player_id, c.first_day, pd.day
     ), later AS (
       SELECT DISTINCT pd.player_id FROM sdk_player_days pd JOIN cohort c ON c.player_id = pd.player_id
        WHERE ${scopeSql('pd')} AND pd.day > $6::date + 30 AND pd.day <= $7::date
     ), lasts AS (
       SELECT c.first_day, CASE WHEN l.player_id IS NULL THEN LEAST(max(a.n), 30) ELSE 30 END AS n
         FROM cohort c LEFT JOIN act a ON a.player_id = c.player_id LEFT JOIN later l ON l.player_id = c.player_id
        GROUP BY c.player_id, c.first_day, l.player_id
       HAVING l.player_id IS NOT NULL OR max(a.n) IS NOT NULL
     )
     SELECT to_char(first_day, 'YYYY-MM-DD') AS cohort, 0 AS n, count(*)::int AS active, 0 AS last
       FROM cohort GROUP BY first_day
     UNION ALL
     SELECT to_char(first_day, 'YYYY-MM-DD'), n, count(*)::int, 0 FROM act WHERE n <= 30 GROUP BY first_day, n
     UNION ALL
     SELECT to_char(first_day, 'YYYY-MM-DD'), n, 0, count(*)::int FROM lasts GROUP BY first_day, n`,
    [...scopeParams(ctx), ctx.range.from, ctx.range.to, today],
  );
  return r.rows;
}
