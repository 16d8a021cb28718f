/** SQL of the overview view (sessions and playtime come from sessions.repo.ts). */
import { addDays } from '../range.js';
import { scopeParams, scopeSql } from './scope.repo.js';
import type { ViewContext } from './view.js';

/** Distinct active players per series point (day, or Monday of the ISO week). */
export async function activeSeries(ctx: ViewContext): Promise<{ date: string; players: number }[]> {
  const bucket = ctx.granularity === 'week' ? "date_trunc('week', day)::date" : 'day';
  const r = await ctx.db.query<{ date: string; players: number }>(
    `SELECT to_char(${bucket}, 'YYYY-MM-DD') AS date, count(DISTINCT player_id)::int AS players
       FROM sdk_player_days WHERE ${scopeSql()} AND day BETWEEN $5 AND $6
      GROUP BY 1 ORDER BY 1`,
    [...scopeParams(ctx), ctx.range.from, ctx.range.to],
  );
  return r.rows;
}

/** Distinct players active in the `days` days ending `to` (never before `earliest`). */
export async function activeOver(
  ctx: ViewContext,
  to: string,
  days: number,
  earliest: string | null,
): Promise<number> {
  let from = addDays(to, -(days - 1));
  if (earliest && from < earliest) from = earliest;
  const r = await ctx.db.query<{ n: number }>(
    `SELECT count(DISTINCT player_id)::int AS n FROM sdk_player_days WHERE ${scopeSql()} AND day BETWEEN $5 AND $6`,
    [...scopeParams(ctx), from, to],
  );
  return r.rows[0]!.n;
}

export interface OverviewTotalsRow {
  player_days: number;
  players: number;
  new_players: number;
  revenue_usd: number;
  paying_players: number;
}

/** Sums over the range: player-days (Σ DAU), players, new players, revenue, payers. A player is
 * new on the first day any platform of the game saw them (or the filtered platform, with one). */
export async function overviewTotals(ctx: ViewContext): Promise<OverviewTotalsRow> {
  const r = await ctx.db.query<OverviewTotalsRow>(
    `WITH pd AS (
       SELECT day, player_id, sum(revenue_usd) AS revenue_usd, sum(purchases) AS purchases
         FROM sdk_player_days WHERE ${scopeSql()} AND day BETWEEN $5 AND $6 GROUP BY day, player_id
     ), firsts AS (
       SELECT player_id FROM sdk_players WHERE ${scopeSql()}
        GROUP BY player_id HAVING min(first_day) BETWEEN $5 AND $6
     )
     SELECT (SELECT count(*) FROM pd)::int AS player_days,
            (SELECT count(DISTINCT player_id) FROM pd)::int AS players,
            (SELECT count(*) FROM firsts)::int AS new_players,
            (SELECT COALESCE(sum(revenue_usd), 0) FROM pd)::float8 AS revenue_usd,
            (SELECT count(DISTINCT player_id) FROM pd WHERE purchases > 0)::int AS paying_players`,
    [...scopeParams(ctx), ctx.range.from, ctx.range.to],
  );
  return r.rows[0]!;
}

/** The 10 countries with the most players over the range (a player counts once per country). */
export async function topCountries(ctx: ViewContext): Promise<{ country: string; players: number }[]> {
  const r = await ctx.db.query<{ country: string; players: number }>(
    `SELECT country, count(DISTINCT player_id)::int AS players
       FROM sdk_player_days WHERE ${scopeSql()} AND day BETWEEN $5 AND $6 AND country IS NOT NULL
      GROUP BY country ORDER BY players DESC, country LIMIT 10`,
    [...scopeParams(ctx), ctx.range.from, ctx.range.to],
  );
  return r.rows;
}
