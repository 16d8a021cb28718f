/**
 * The rollup the monetization and geo views keep for themselves (migration 0023): the day's purchases
 * without the player, per SKU, source, currency and country, folded like every rollup
 * (rollup.source.ts).
 */
import { AMOUNT, CURRENCY, clearDays, FOLDED, ROW_KEY, type RollupSql } from '../rollup.source.js';

export const MONEY_ROLLUP: RollupSql = {
  clear: clearDays(['sdk_purchase_totals']),
  fold: [
    `INSERT INTO sdk_purchase_totals AS t (team_id, platform, game_id, day, sku, source, currency, country, purchases,
       units, amount)
     SELECT ${ROW_KEY}, payload->>'sku', COALESCE(payload->>'source', 'iap'), ${CURRENCY}, country, count(*)::int,
       sum(COALESCE((payload->>'quantity')::bigint, 1))::bigint, sum(${AMOUNT})
     ${FOLDED} AND type = 'purchase'
     GROUP BY payload->>'sku', COALESCE(payload->>'source', 'iap'), ${CURRENCY}, country
     ON CONFLICT (team_id, game_id, day, platform, sku, source, currency, country) DO UPDATE SET
       purchases = t.purchases + EXCLUDED.purchases, units = t.units + EXCLUDED.units,
       amount = t.amount + EXCLUDED.amount`,
  ],
  tables: ['sdk_purchase_totals'],
};
