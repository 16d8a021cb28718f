/**
 * SQL of the monetization view. Totals come from sdk_player_days (revenue_usd there already holds
 * USD plus Robux at the DevEx rate); the breakdowns come from sdk_purchase_days, which keeps each
 * purchase's own currency: PURCHASE_USD converts USD and the virtual currency and leaves every
 * other code out of USD (it is reported apart, never summed in).
 */
import { DEVEX_USD_PER_ROBUX, VIRTUAL_CURRENCIES } from '../rollups.repo.js';
import { scopeParams, scopeSql } from './scope.repo.js';
import type { ViewContext } from './view.js';

/** A sdk_purchase_days row's amount in USD; NULL for a currency that is not converted ($7 the
 * virtual currency codes, $8 USD per Robux). `currency` is stored upper-cased by the rollup. */
export const PURCHASE_USD = `CASE WHEN currency = 'USD' THEN amount
  WHEN currency = ANY($7::text[]) THEN amount * $8::float8 END`;
/** The row's currency is one we convert. */
export const CONVERTED = `(currency = 'USD' OR currency = ANY($7::text[]))`;

/** $1..$4 scope, $5 from, $6 to, $7 virtual currency codes, $8 USD per Robux. */
export function purchaseParams(ctx: ViewContext): unknown[] {
  return [...scopeParams(ctx), ctx.range.from, ctx.range.to, VIRTUAL_CURRENCIES, DEVEX_USD_PER_ROBUX];
}

function rangeParams(ctx: ViewContext): unknown[] {
  return [...scopeParams(ctx), ctx.range.from, ctx.range.to];
}

/** Revenue per series point (day, or Monday of the ISO week); points without players are absent. */
export async function revenueSeries(ctx: ViewContext): Promise<{ date: string; revenue_usd: number }[]> {
  const bucket = ctx.granularity === 'week' ? "date_trunc('week', day)::date" : 'day';
  const r = await ctx.db.query<{ date: string; revenue_usd: number }>(
    `SELECT to_char(${bucket}, 'YYYY-MM-DD') AS date, sum(revenue_usd)::float8 AS revenue_usd
       FROM sdk_player_days WHERE ${scopeSql()} AND day BETWEEN $5 AND $6
      GROUP BY 1 ORDER BY 1`,
    rangeParams(ctx),
  );
  return r.rows.map((row) => ({ date: row.date, revenue_usd: Number(row.revenue_usd) }));
}

export interface MonetizationTotalsRow {
  player_days: number;
  players: number;
  paying_players: number;
  first_time_payers: number;
  revenue_usd: number;
}

/** Σ daily actives, players, payers (any purchase, whatever its currency), revenue, and the payers
 * whose first purchase ever (every day the rollups hold, the scope applying) is in the range. */
export async function monetizationTotals(ctx: ViewContext): Promise<MonetizationTotalsRow> {
  const r = await ctx.db.query<MonetizationTotalsRow>(
    `WITH pd AS (
       SELECT day, player_id, sum(revenue_usd) AS revenue_usd, sum(purchases) AS purchases
         FROM sdk_player_days WHERE ${scopeSql()} AND day BETWEEN $5 AND $6 GROUP BY day, player_id
     ), payers AS (
       SELECT DISTINCT player_id FROM pd WHERE purchases > 0
     ), first_purchase AS (
       SELECT player_id, min(day) AS day FROM sdk_player_days
        WHERE ${scopeSql()} AND purchases > 0 AND player_id IN (SELECT player_id FROM payers)
        GROUP BY player_id
     )
     SELECT (SELECT count(*) FROM pd)::int AS player_days,
            (SELECT count(DISTINCT player_id) FROM pd)::int AS players,
            (SELECT count(*) FROM payers)::int AS paying_players,
            (SELECT count(*) FROM first_purchase WHERE day >= $5)::int AS first_time_payers,
            (SELECT COALESCE(sum(revenue_usd), 0) FROM pd)::float8 AS revenue_usd`,
    rangeParams(ctx),
  );
  const row = r.rows[0]!;
  return { ...row, revenue_usd: Number(row.revenue_usd) };
}

export interface SourceRow {
  source: string;
  revenue_usd: number;
  purchases: number;
}

/** Revenue (converted currencies) and purchases (all) per source, richest first. */
export async function revenueBySource(ctx: ViewContext): Promise<SourceRow[]> {
  const r = await ctx.db.query<SourceRow>(
    `SELECT source, COALESCE(sum(${PURCHASE_USD}), 0)::float8 AS revenue_usd, sum(purchases)::int AS purchases
       FROM sdk_purchase_days WHERE ${scopeSql()} AND day BETWEEN $5 AND $6
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

/** The 20 SKUs with the most revenue (then units, then name). */
export async function topSkus(ctx: ViewContext): Promise<SkuRow[]> {
  const r = await ctx.db.query<SkuRow>(
    `SELECT sku, COALESCE(sum(${PURCHASE_USD}), 0)::float8 AS revenue_usd, sum(units)::float8 AS units,
            count(DISTINCT player_id)::int AS buyers
       FROM sdk_purchase_days WHERE ${scopeSql()} AND day BETWEEN $5 AND $6
      GROUP BY sku ORDER BY revenue_usd DESC, units DESC, sku LIMIT 20`,
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

/** Revenue, units and buyers per purchase country (null: unknown, last). */
export async function revenueByCountry(ctx: ViewContext): Promise<CountryRevenueRow[]> {
  const r = await ctx.db.query<CountryRevenueRow>(
    `SELECT country, COALESCE(sum(${PURCHASE_USD}), 0)::float8 AS revenue_usd, sum(units)::float8 AS units,
            count(DISTINCT player_id)::int AS buyers
       FROM sdk_purchase_days WHERE ${scopeSql()} AND day BETWEEN $5 AND $6
      GROUP BY country ORDER BY country IS NULL, revenue_usd DESC, country`,
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
  const r = await ctx.db.query<UnconvertedRow>(
    `SELECT currency, sum(amount)::float8 AS amount, sum(units)::float8 AS units, sum(purchases)::int AS purchases
       FROM sdk_purchase_days WHERE ${scopeSql()} AND day BETWEEN $5 AND $6 AND NOT ${CONVERTED}
      GROUP BY currency ORDER BY currency`,
    // No rate here ($8): PostgreSQL refuses a parameter the statement does not use.
    purchaseParams(ctx).slice(0, 7),
  );
  return r.rows.map((row) => ({ ...row, amount: Number(row.amount) }));
}
