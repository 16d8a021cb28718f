-- SDK analytics, money views (monetization, geo): purchases per day and dimension without the
-- player. Revenue, units and purchase counts by source, SKU, country and currency are sums, so a
-- range reads a row per day and dimension instead of one per player (sdk_purchase_days, still read
-- for distinct buyers and for a segment's players). Rebuilt per day from that day's
-- sdk_purchase_days rows (views/money.rollup.repo.ts), so both always hold the same purchases.
CREATE TABLE sdk_purchase_totals (
  team_id bigint NOT NULL,
  platform text NOT NULL,
  game_id text NOT NULL,
  day date NOT NULL,
  sku text NOT NULL,
  source text NOT NULL,
  -- Upper-cased, as in sdk_purchase_days.
  currency text NOT NULL,
  country text,
  purchases integer NOT NULL,
  units bigint NOT NULL,
  amount double precision NOT NULL
);
CREATE INDEX sdk_purchase_totals_idx ON sdk_purchase_totals (team_id, game_id, day);

-- Days rolled up before this table existed (a later rebuild of a day replaces its rows).
INSERT INTO sdk_purchase_totals (team_id, platform, game_id, day, sku, source, currency, country, purchases,
  units, amount)
SELECT team_id, platform, game_id, day, sku, source, currency, country, sum(purchases)::int, sum(units)::bigint,
  sum(amount)
  FROM sdk_purchase_days
 GROUP BY team_id, platform, game_id, day, sku, source, currency, country;
