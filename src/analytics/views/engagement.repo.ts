/**
 * The WAU and MAU moves of the day figures (daily.ts), for the rollup job's day stats and for a
 * request that computes them live. Rolling WAU and
 * MAU are exact without joining each day to the 7 or 30 days before it: a player's active days,
 * in order, each cover the days up to the next active day or the window's end, whichever comes
 * first. Those stretches never overlap for one player, so the actives of a window ending on day d
 * are the stretches open on d: a running sum of +1 where a stretch starts and −1 where it ends.
 */
import { scopeParams, scopeSql } from './scope.repo.js';
import type { ViewContext } from './view.js';

/**
 * One pass over the player-days from `readFrom` to `to`, in player order (index
 * sdk_player_days_player_order_idx, migration 0020), grouped three ways at once (a row answers the
 * grouping of `day`, `wau_end` or `mau_end` that is not null):
 * - by `day`: `active` rows that are a player's last of the day (dau; with every platform combined
 *   a player has a row per platform) and `rows`, each opening a WAU and a MAU stretch;
 * - by `wau_end` / `mau_end`: the day each stretch closes, min(next active day, day + 7 or 30);
 *   a same-day duplicate closes the day it opens, so it never counts.
 */
export interface EngagementPassRow {
  day: string | null;
  wau_end: string | null;
  mau_end: string | null;
  rows: number;
  active: number;
}

/** `readFrom` must be 29 days before `from` (or the plan's earliest day) so MAU on `from` is whole. */
export async function engagementPass(ctx: ViewContext, readFrom: string): Promise<EngagementPassRow[]> {
  const r = await ctx.db.query<EngagementPassRow>(
    `WITH s AS (
       SELECT day, lead(day) OVER (PARTITION BY player_id ORDER BY day) AS next_day
         FROM sdk_player_days WHERE ${scopeSql()} AND day BETWEEN $5 AND $6
     ), e AS (
       SELECT day, next_day, LEAST(next_day, day + 7) AS wau_end, LEAST(next_day, day + 30) AS mau_end FROM s
     )
     SELECT to_char(day, 'YYYY-MM-DD') AS day, to_char(wau_end, 'YYYY-MM-DD') AS wau_end,
            to_char(mau_end, 'YYYY-MM-DD') AS mau_end, count(*)::int AS rows,
            (count(*) FILTER (WHERE next_day IS DISTINCT FROM day))::int AS active
       FROM e GROUP BY GROUPING SETS ((day), (wau_end), (mau_end))`,
    [...scopeParams(ctx), readFrom, ctx.range.to],
  );
  return r.rows;
}
