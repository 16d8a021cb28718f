/**
 * SQL of the day figures (daily.ts): the stored ones (sdk_day_stats, migration 0021) and the pieces
 * the live computation adds to the engagement pass and the session histograms.
 */
import type { DayFigures } from './daily.js';
import { scopeParams, scopeSql } from './scope.repo.js';
import type { ViewContext } from './view.js';

/** Revenue (USD and the virtual currency at the DevEx rate) per day of the range with players. */
export async function revenueByDay(ctx: ViewContext): Promise<{ day: string; revenue_usd: number }[]> {
  const r = await ctx.db.query<{ day: string; revenue_usd: number }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(revenue_usd)::float8 AS revenue_usd
       FROM sdk_player_days WHERE ${scopeSql()} AND day BETWEEN $5 AND $6 GROUP BY day`,
    [...scopeParams(ctx), ctx.range.from, ctx.range.to],
  );
  return r.rows;
}

/** A stored row: the day figures with each histogram as its two array columns (null outside the
 * range read). */
export type StoredDayRow = Omit<DayFigures, 'lengths' | 'playtimes'> & {
  length_values: number[] | null;
  length_counts: number[] | null;
  playtime_values: number[] | null;
  playtime_counts: number[] | null;
};

/** The stored day rows of the game (platform $3, '' = combined) up to `to`: every one from the
 * first, for the WAU and MAU moves; the histograms only for the days of the range. */
export async function storedDays(ctx: ViewContext): Promise<StoredDayRow[]> {
  const inRange = (col: string) => `CASE WHEN day >= $4 THEN ${col} END AS ${col}`;
  const r = await ctx.db.query<StoredDayRow>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, dau, wau_move, mau_move, revenue_usd, sessions,
            sessions_from_end, length_sum, ${inRange('length_values')}, ${inRange('length_counts')},
            playtime_days, playtime_sum, ${inRange('playtime_values')}, ${inRange('playtime_counts')}
       FROM sdk_day_stats
      WHERE team_id = $1 AND game_id = $2 AND platform = COALESCE($3::text, '') AND day <= $5
      ORDER BY day`,
    [ctx.teamId, ctx.gameId, ctx.platform, ctx.range.from, ctx.range.to],
  );
  return r.rows;
}
