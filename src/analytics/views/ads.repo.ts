/**
 * SQL of the ads view. Without a segment it reads sdk_ad_days (one row per day and dimension); with
 * one it reads sdk_ad_player_days (the same figures per player, migration 0019), since only a table
 * with player_id can keep a segment's players. Both are folded from the same events, so the
 * figures agree. Daily actives (the ARPDAU denominator) come from the stored day stats, or from
 * sdk_player_days for a segment (monetization.repo.ts moneyPoints).
 */
import { pointSql, scopeParams, scopeSql } from './scope.repo.js';
import type { ViewContext } from './view.js';

/** The ad table to read and its WHERE over $1..$4 (a table without player_id is only read when
 * $4, the segment's players, is NULL: the fragment says so rather than ignore it). */
function adSource(ctx: ViewContext): { table: string; where: string } {
  if (ctx.players !== null) return { table: 'sdk_ad_player_days', where: scopeSql() };
  return {
    table: 'sdk_ad_days',
    where: 'team_id = $1 AND game_id = $2 AND ($3::text IS NULL OR platform = $3) AND $4::text[] IS NULL',
  };
}

function params(ctx: ViewContext): unknown[] {
  return [...scopeParams(ctx), ctx.range.from, ctx.range.to];
}

/** Ad revenue per series point (day, or Monday of the ISO week); points without impressions absent. */
export async function adRevenueSeries(ctx: ViewContext): Promise<{ date: string; revenue_usd: number }[]> {
  const { table, where } = adSource(ctx);
  const bucket = pointSql(ctx);
  const r = await ctx.db.query<{ date: string; revenue_usd: number }>(
    `SELECT to_char(${bucket}, 'YYYY-MM-DD') AS date, sum(revenue_usd)::float8 AS revenue_usd
       FROM ${table} WHERE ${where} AND day BETWEEN $5 AND $6 GROUP BY 1 ORDER BY 1`,
    params(ctx),
  );
  return r.rows.map((row) => ({ date: row.date, revenue_usd: Number(row.revenue_usd) }));
}

/** Impressions, revenue and the impressions that sent an eCPM (with its sum), for one group. */
export interface AdFigures {
  impressions: number;
  revenue_usd: number;
  ecpm_count: number;
  ecpm_sum: number;
}

const FIGURES = `sum(impressions)::int AS impressions, sum(revenue_usd)::float8 AS revenue_usd,
  sum(ecpm_count)::int AS ecpm_count, sum(ecpm_sum)::float8 AS ecpm_sum`;

function figures<R extends AdFigures>(row: R): R {
  return {
    ...row,
    impressions: Number(row.impressions ?? 0),
    revenue_usd: Number(row.revenue_usd ?? 0),
    ecpm_count: Number(row.ecpm_count ?? 0),
    ecpm_sum: Number(row.ecpm_sum ?? 0),
  };
}

/** The range's ad figures, all formats and networks together. */
export async function adTotals(ctx: ViewContext): Promise<AdFigures> {
  const { table, where } = adSource(ctx);
  const r = await ctx.db.query<AdFigures>(
    `SELECT ${FIGURES} FROM ${table} WHERE ${where} AND day BETWEEN $5 AND $6`,
    params(ctx),
  );
  return figures(r.rows[0]!);
}

/** The dimensions the view splits by (column names, never user input). */
export type AdDimension = 'format' | 'network' | 'placement';

/** The range's ad figures per value of `dimension`, most revenue first (then by value); at most
 * `limit` rows. */
export async function adFiguresBy(
  ctx: ViewContext,
  dimension: AdDimension,
  limit: number | null,
): Promise<(AdFigures & { key: string })[]> {
  const { table, where } = adSource(ctx);
  const r = await ctx.db.query<AdFigures & { key: string }>(
    `SELECT ${dimension} AS key, ${FIGURES} FROM ${table} WHERE ${where} AND day BETWEEN $5 AND $6
      GROUP BY ${dimension} ORDER BY revenue_usd DESC, ${dimension} LIMIT $7`,
    [...params(ctx), limit],
  );
  return r.rows.map(figures);
}
