/** SQL of the geo view: players, new players and converted revenue per country. */
import { CONVERTED, PURCHASE_USD, purchaseParams } from './monetization.repo.js';
import { scopeSql } from './scope.repo.js';
import type { ViewContext } from './view.js';

export interface GeoRow {
  country: string | null;
  players: number;
  new_players: number;
  revenue_usd: number;
}

/**
 * Per country (NULL: unknown, one group): distinct players active in the range with that country on
 * one of their days (a player who moved counts in each country, as overview's top countries do);
 * players first seen in the range, under the country of their first day (the earliest row of
 * sdk_players over the platforms kept, so a new player is new once, as in overview); revenue of
 * the purchases made there, in the currencies we convert. Sorted by players, then country; NULL last.
 */
export async function countries(ctx: ViewContext): Promise<GeoRow[]> {
  const r = await ctx.db.query<GeoRow>(
    `WITH firsts AS (
       SELECT DISTINCT ON (player_id) player_id, first_day, first_country FROM sdk_players
        WHERE ${scopeSql()} ORDER BY player_id, first_day, platform
     ), parts AS (
       SELECT country, count(DISTINCT player_id) AS players, 0 AS new_players, 0::float8 AS revenue_usd
         FROM sdk_player_days WHERE ${scopeSql()} AND day BETWEEN $5 AND $6 GROUP BY country
       UNION ALL
       SELECT first_country, 0, count(*), 0 FROM firsts WHERE first_day BETWEEN $5 AND $6 GROUP BY first_country
       UNION ALL
       SELECT country, 0, 0, sum(${PURCHASE_USD}) FROM sdk_purchase_days
        WHERE ${scopeSql()} AND day BETWEEN $5 AND $6 AND ${CONVERTED} GROUP BY country
     )
     SELECT country, sum(players)::int AS players, sum(new_players)::int AS new_players,
            sum(revenue_usd)::float8 AS revenue_usd
       FROM parts GROUP BY country ORDER BY country IS NULL, players DESC, country`,
    purchaseParams(ctx),
  );
  return r.rows.map((row) => ({ ...row, revenue_usd: Number(row.revenue_usd) }));
}

/** Purchases in the range in a currency we do not convert (left out of revenue_usd). */
export async function unconvertedPurchaseCount(ctx: ViewContext): Promise<number> {
  const r = await ctx.db.query<{ n: number }>(
    `SELECT COALESCE(sum(purchases), 0)::int AS n FROM sdk_purchase_days
      WHERE ${scopeSql()} AND day BETWEEN $5 AND $6 AND NOT ${CONVERTED}`,
    // No rate ($8): PostgreSQL refuses a parameter the statement does not use.
    purchaseParams(ctx).slice(0, 7),
  );
  return r.rows[0]!.n;
}
