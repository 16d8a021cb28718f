/**
 * SQL of the geo view: players, new players and converted revenue per country. Without a segment,
 * players and new players come from sdk_player_activity (a row per player) and revenue from
 * sdk_purchase_totals; a segment reads the player-day rollups (see monetization.repo.ts).
 */
import { activeBetween, activityScope } from './activity.repo.js';
import { CONVERTED, PURCHASE_USD, purchaseParams, purchaseSource } from './monetization.repo.js';
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
export function countries(ctx: ViewContext): Promise<GeoRow[]> {
  return ctx.players === null ? activityCountries(ctx) : playerDayCountries(ctx);
}

/** `countries` from the player-days, for a segment's players. */
export async function playerDayCountries(ctx: ViewContext): Promise<GeoRow[]> {
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

/**
 * `countries` without a segment: one pass over the activity rows of the players seen up to the range's
 * end. A player active in the range whose days all had one country (`countries`, '' for none) counts there, and, when
 * first seen in the range, counts there as new (their first day had that country). The few with
 * several are looked up day by day in sdk_player_days, and their first country in sdk_players (the
 * earliest row over the platforms kept, as playerDayCountries does).
 */
export async function activityCountries(ctx: ViewContext): Promise<GeoRow[]> {
  const r = await ctx.db.query<GeoRow>(
    `WITH act AS (
       SELECT player_id, countries, first_day >= $5 AS new
         FROM sdk_player_activity
        WHERE ${activityScope()} AND first_day <= $6 AND ${activeBetween('days', '$5::date', '$6::date')}
     ), moved AS (
       SELECT player_id, new FROM act WHERE cardinality(countries) > 1
     ), parts AS (
       SELECT NULLIF(countries[1], '') AS country, count(*) AS players,
              count(*) FILTER (WHERE new) AS new_players, 0::float8 AS revenue_usd
         FROM act WHERE cardinality(countries) = 1 GROUP BY countries[1]
       UNION ALL
       SELECT country, count(DISTINCT player_id), 0, 0 FROM sdk_player_days
        WHERE ${scopeSql()} AND day BETWEEN $5 AND $6 AND player_id IN (SELECT player_id FROM moved)
        GROUP BY country
       UNION ALL
       SELECT first_country, 0, count(*), 0 FROM (
         SELECT DISTINCT ON (player_id) first_country FROM sdk_players
          WHERE ${scopeSql()} AND player_id IN (SELECT player_id FROM moved WHERE new)
          ORDER BY player_id, first_day, platform
       ) AS f GROUP BY first_country
       UNION ALL
       SELECT country, 0, 0, sum(${PURCHASE_USD}) FROM sdk_purchase_totals
        WHERE team_id = $1 AND game_id = $2 AND ($3::text IS NULL OR platform = $3)
          AND day BETWEEN $5 AND $6 AND ${CONVERTED} GROUP BY country
     )
     SELECT country, sum(players)::int AS players, sum(new_players)::int AS new_players,
            sum(revenue_usd)::float8 AS revenue_usd
       FROM parts GROUP BY country
      ORDER BY country IS NULL, players DESC, country`,
    purchaseParams(ctx),
  );
  return r.rows.map((row) => ({ ...row, revenue_usd: Number(row.revenue_usd) }));
}

/** Purchases in the range in a currency we do not convert (left out of revenue_usd). */
export async function unconvertedPurchaseCount(ctx: ViewContext): Promise<number> {
  const { table, where } = purchaseSource(ctx);
  const r = await ctx.db.query<{ n: number }>(
    `SELECT COALESCE(sum(purchases), 0)::int AS n FROM ${table}
      WHERE ${where} AND day BETWEEN $5 AND $6 AND NOT ${CONVERTED}`,
    // No rate ($8): PostgreSQL refuses a parameter the statement does not use.
    purchaseParams(ctx).slice(0, 7),
  );
  return r.rows[0]!.n;
}
