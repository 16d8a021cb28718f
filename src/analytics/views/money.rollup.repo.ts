/**
 * Rollups the monetization and geo views keep for themselves, rebuilt with every day (rollups.repo.ts
 * REBUILD_ALL; parameters: $1 team, $2 platform, $3 game, $4 day, $5..$6 the day's start and end,
 * $7 event types, $8 virtual currency codes, $9 USD per Robux).
 */

const KEY = 'team_id = $1 AND platform = $2 AND game_id = $3 AND day = $4';

/** Statements run, in order, after the core rebuild of a day. */
export const MONEY_REBUILD: readonly string[] = [
  // The day's purchases without the player (0023), from the sdk_purchase_days rows just rebuilt.
  `DELETE FROM sdk_purchase_totals WHERE ${KEY}`,
  `INSERT INTO sdk_purchase_totals (team_id, platform, game_id, day, sku, source, currency, country, purchases,
     units, amount)
   SELECT $1::bigint, $2::text, $3::text, $4::date, sku, source, currency, country, sum(purchases)::int,
     sum(units)::bigint, sum(amount)
     FROM sdk_purchase_days WHERE ${KEY}
    GROUP BY sku, source, currency, country`,
];

/** Tables of its own to ANALYZE after large rebuilds. */
export const MONEY_TABLES: readonly string[] = ['sdk_purchase_totals'];
