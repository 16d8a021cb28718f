/**
 * SQL of the monetization view (and the pieces geo and ads share). Without a segment it reads the
 * per-day rollups: revenue and daily actives from sdk_day_stats, players and payers from
 * sdk_player_activity (one row per player), purchase breakdowns from sdk_purchase_totals (migration
 * 0023: per day and dimension, no player). A segment's players can only be kept by tables with
 * player_id, so then it reads sdk_player_days and sdk_purchase_days; both paths are folded from
 * the same events and agree. sdk_player_days.revenue_usd already holds USD plus Robux at the DevEx
 * rate; the purchase tables keep each purchase's own currency: PURCHASE_USD converts USD and the
 * virtual currency and leaves every other code out of USD (it is reported apart, never summed in).
 */
import { DEVEX_USD_PER_ROBUX, VIRTUAL_CURRENCIES } from '../rollups.repo.js';
import { pointSql, scopeParams, scopeSql } from './scope.repo.js';
import type { ViewContext } from './view.js';

/** A purchase row's amount in USD; NULL for a currency that is not converted ($7 the
 * virtual currency codes, $8 USD per Robux). `currency` is stored upper-cased by the rollup. */
export const PURCHASE_USD = `CASE WHEN currency = 'USD' THEN amount
  WHEN currency = ANY($7::text[]) THEN amount * $8::float8 END`;
/** The row's currency is one we convert. */
export const CONVERTED = `(currency = 'USD' OR currency = ANY($7::text[]))`;

/** $1..$4 scope, $5 from, $6 to, $7 virtual currency codes, $8 USD per Robux. */
export function purchaseParams(ctx: ViewContext): unknown[] {
  return [...scopeParams(ctx), ctx.range.from, ctx.range.to, VIRTUAL_CURRENCIES, DEVEX_USD_PER_ROBUX];
}

/**
 * The purchase table to read and its WHERE over $1..$4: sdk_purchase_totals (same columns but the
 * player, far fewer rows) without a segment, sdk_purchase_days with one. The totals' fragment
 * requires $4 NULL rather than ignore it.
 */
export function purchaseSource(ctx: ViewContext): { table: string; where: string } {
  if (ctx.players !== null) return { table: 'sdk_purchase_days', where: scopeSql() };
  return {
    table: 'sdk_purchase_totals',
    where: 'team_id = $1 AND game_id = $2 AND ($3::text IS NULL OR platform = $3) AND $4::text[] IS NULL',
  };
}

function rangeParams(ctx: ViewContext): unknown[] {
  return [...scopeParams(ctx), ctx.range.from, ctx.range.to];
}

/** Revenue and daily actives (player-days) of one series point. */
export interface MoneyPoint {
  date: string;
  revenue_usd: number;
  player_days: number;
}

/**
 * Revenue and Σ daily actives per series point (day, or Monday of the ISO week) from the stored day
 * stats (platform $3, '' = combined; their DAU counts a player once a day across platforms): the
 * unsegmented path. Points without players are absent. Unlike engagement's windows, these are
 * figures of single days, so a plan's history limit changes nothing in them.
 */
export async function storedMoneyPoints(ctx: ViewContext): Promise<MoneyPoint[]> {
  const bucket = pointSql(ctx);
  const r = await ctx.db.query<MoneyPoint>(
    `SELECT to_char(${bucket}, 'YYYY-MM-DD') AS date, sum(revenue_usd)::float8 AS revenue_usd,
            sum(dau)::int AS player_days
       FROM sdk_day_stats
      WHERE team_id = $1 AND game_id = $2 AND platform = COALESCE($3::text, '') AND day BETWEEN $4 AND $5
      GROUP BY 1 ORDER BY 1`,
    [ctx.teamId, ctx.gameId, ctx.platform, ctx.range.from, ctx.range.to],
  );
  return r.rows.map((row) => ({ ...row, revenue_usd: Number(row.revenue_usd) }));
}

/** The same points from the player-days (sdk_player_days), for a segment's players. */
export async function liveMoneyPoints(ctx: ViewContext): Promise<MoneyPoint[]> {
  const bucket = pointSql(ctx);
  const r = await ctx.db.query<MoneyPoint>(
    `SELECT to_char(${bucket}, 'YYYY-MM-DD') AS date, sum(revenue_usd)::float8 AS revenue_usd,
            count(*)::int AS player_days
       FROM (SELECT day, sum(revenue_usd) AS revenue_usd FROM sdk_player_days
              WHERE ${scopeSql()} AND day BETWEEN $5 AND $6 GROUP BY day, player_id) AS pd
      GROUP BY 1 ORDER BY 1`,
    rangeParams(ctx),
  );
  return r.rows.map((row) => ({ ...row, revenue_usd: Number(row.revenue_usd) }));
}

/** Revenue and daily actives per series point: stored without a segment, else from the player-days. */
export function moneyPoints(ctx: ViewContext): Promise<MoneyPoint[]> {
  return ctx.players === null ? storedMoneyPoints(ctx) : liveMoneyPoints(ctx);
}

export interface SourceRow {
  source: string;
  revenue_usd: number;
  purchases: number;
}

/** Revenue (converted currencies) and purchases (all) per source, richest first. */
export async function revenueBySource(ctx: ViewContext): Promise<SourceRow[]> {
  const { table, where } = purchaseSource(ctx);
  const r = await ctx.db.query<SourceRow>(
    `SELECT source, COALESCE(sum(${PURCHASE_USD}), 0)::float8 AS revenue_usd, sum(purchases)::int AS purchases
       FROM ${table} WHERE ${where} AND day BETWEEN $5 AND $6
      GROUP BY source ORDER BY revenue_usd DESC, source`,
    purchaseParams(ctx),
  );
  return r.rows.map((row) => ({ ...row, revenue_usd: Number(row.revenue_usd) }));
}

export interface SkuRow {
  sku: string;
  revenue_usd: number;
  units: number;
  buyers: number;
}

/**
 * Distinct buyers over the range per value of `column` (sku or country; NULL is a group), counted in
 * sdk_purchase_days, the only purchase table with the player, and only for the rows `keep` passes:
 * DISTINCT then count, which PostgreSQL hashes, where count(DISTINCT) sorts every row of each group.
 */
function buyersOf(column: 'sku' | 'country', keep = 'true'): string {
  return `SELECT ${column}, count(*)::int AS buyers FROM (
      SELECT DISTINCT ${column}, player_id FROM sdk_purchase_days
       WHERE ${scopeSql()} AND day BETWEEN $5 AND $6 AND ${keep}
    ) AS d GROUP BY ${column}`;
}

/** The 20 SKUs with the most revenue (then units, then name), with their distinct buyers. */
export async function topSkus(ctx: ViewContext): Promise<SkuRow[]> {
  const { table, where } = purchaseSource(ctx);
  const r = await ctx.db.query<SkuRow>(
    `WITH t AS (
       SELECT sku, COALESCE(sum(${PURCHASE_USD}), 0)::float8 AS revenue_usd, sum(units)::float8 AS units
         FROM ${table} WHERE ${where} AND day BETWEEN $5 AND $6
        GROUP BY sku ORDER BY revenue_usd DESC, units DESC, sku LIMIT 20
     ), b AS (${buyersOf('sku', 'sku IN (SELECT sku FROM t)')})
     SELECT t.sku, t.revenue_usd, t.units, b.buyers FROM t JOIN b USING (sku)
      ORDER BY revenue_usd DESC, units DESC, sku`,
    purchaseParams(ctx),
  );
  return r.rows.map((row) => ({ ...row, revenue_usd: Number(row.revenue_usd) }));
}

export interface CountryRevenueRow {
  country: string | null;
  revenue_usd: number;
  units: number;
  buyers: number;
}

/** Revenue, units and distinct buyers per purchase country (null: unknown, last). */
export async function revenueByCountry(ctx: ViewContext): Promise<CountryRevenueRow[]> {
  const { table, where } = purchaseSource(ctx);
  const r = await ctx.db.query<CountryRevenueRow>(
    `WITH t AS (
       SELECT country, COALESCE(sum(${PURCHASE_USD}), 0)::float8 AS revenue_usd, sum(units)::float8 AS units
         FROM ${table} WHERE ${where} AND day BETWEEN $5 AND $6 GROUP BY country
     ), b AS (${buyersOf('country')})
     SELECT t.country, t.revenue_usd, t.units, b.buyers
       FROM t JOIN b ON t.country IS NOT DISTINCT FROM b.country
      ORDER BY t.country IS NULL, revenue_usd DESC, t.country`,
    purchaseParams(ctx),
  );
  return r.rows.map((row) => ({ ...row, revenue_usd: Number(row.revenue_usd) }));
}

export interface UnconvertedRow {
  currency: string;
  amount: number;
  units: number;
  purchases: number;
}

/** Purchases in a currency we do not convert, in that currency, per code. */
export async function unconvertedPurchases(ctx: ViewContext): Promise<UnconvertedRow[]> {
  const { table, where } = purchaseSource(ctx);
  const r = await ctx.db.query<UnconvertedRow>(
    `SELECT currency, sum(amount)::float8 AS amount, sum(units)::float8 AS units, sum(purchases)::int AS purchases
       FROM ${table} WHERE ${where} AND day BETWEEN $5 AND $6 AND NOT ${CONVERTED}
      GROUP BY currency ORDER BY currency`,
    // No rate here ($8): PostgreSQL refuses a parameter the statement does not use.
    purchaseParams(ctx).slice(0, 7),
  );
  return r.rows.map((row) => ({ ...row, amount: Number(row.amount) }));
}
