/**
 * SQL of the engagement view (sessions and playtime come from sessions.repo.ts). Rolling WAU and
 * MAU are exact without joining each day to the 7 or 30 days before it: a player's active days,
 * in order, each cover the days up to the next active day or the window's end, whichever comes
 * first. Those stretches never overlap for one player, so the actives of a window ending on day d
 * are the stretches open on d: a running sum of +1 where a stretch starts and −1 where it ends.
 */
import { scopeParams, scopeSql } from './scope.repo.js';
import type { ViewContext } from './view.js';

/** Per day that anything changes: actives that day (dau), new players among them, and how WAU and
 * MAU move that day (their running sums from `readFrom` are the windows' distinct counts). */
export interface EngagementDeltaRow {
  day: string;
  dau: number;
  new_players: number;
  wau_delta: number;
  mau_delta: number;
}

/**
 * One row per day from `readFrom` to the range's `to` on which DAU is non-zero or WAU/MAU move.
 * `readFrom` must be 29 days before `from` (or the plan's earliest day) so MAU on `from` is whole.
 * A player is new on their first day on any platform of the game (on the filtered one, with one).
 */
export async function engagementDeltas(ctx: ViewContext, readFrom: string): Promise<EngagementDeltaRow[]> {
  const r = await ctx.db.query<EngagementDeltaRow>(
    `WITH pd AS (
       SELECT player_id, day FROM sdk_player_days
        WHERE ${scopeSql()} AND day BETWEEN $5 AND $6
        GROUP BY player_id, day
     ), stretch AS (
       SELECT player_id, day, lead(day) OVER (PARTITION BY player_id ORDER BY day) AS next_day FROM pd
     ), firsts AS (
       SELECT player_id, min(first_day) AS first_day FROM sdk_players
        WHERE ${scopeSql()} AND first_day <= $6 GROUP BY player_id HAVING min(first_day) >= $5
     ), moves AS (
       SELECT s.day, 1 AS dau, (f.player_id IS NOT NULL)::int AS new_player, 1 AS w, 1 AS m
         FROM stretch s LEFT JOIN firsts f ON f.player_id = s.player_id AND f.first_day = s.day
       UNION ALL
       SELECT LEAST(COALESCE(next_day, day + 7), day + 7), 0, 0, -1, 0 FROM stretch
       UNION ALL
       SELECT LEAST(COALESCE(next_day, day + 30), day + 30), 0, 0, 0, -1 FROM stretch
     )
     SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(dau)::int AS dau, sum(new_player)::int AS new_players,
            sum(w)::int AS wau_delta, sum(m)::int AS mau_delta
       FROM moves WHERE day <= $6 GROUP BY day ORDER BY day`,
    [...scopeParams(ctx), readFrom, ctx.range.to],
  );
  return r.rows;
}

/** Distinct players active in the range. */
export async function playersInRange(ctx: ViewContext): Promise<number> {
  const r = await ctx.db.query<{ n: number }>(
    `SELECT count(DISTINCT player_id)::int AS n FROM sdk_player_days WHERE ${scopeSql()} AND day BETWEEN $5 AND $6`,
    [...scopeParams(ctx), ctx.range.from, ctx.range.to],
  );
  return r.rows[0]!.n;
}
