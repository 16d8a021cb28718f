-- The UGC catalog (src/ugc): avatar items as the catalog collector reads them every 15 minutes,
-- their raw readings (kept 48 hours), daily rollups of price and favourites (kept for good), the
-- trends view computed after each collection, and the backfill marker. Owned by the ugc domain.
CREATE TABLE ugc_items (
  item_type text NOT NULL CHECK (item_type IN ('Asset', 'Bundle')),
  item_id bigint NOT NULL,
  name text NOT NULL,
  category text NOT NULL,
  creator_type text NOT NULL CHECK (creator_type IN ('User', 'Group')),
  creator_id bigint NOT NULL,
  creator_name text NOT NULL,
  -- Robux while on sale; null when off sale.
  price integer,
  on_sale boolean NOT NULL,
  favorites bigint NOT NULL,
  -- Published (null when the source does not say); listed_at falls back to the first sighting.
  created_at timestamptz,
  first_seen_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  listed_at timestamptz NOT NULL,
  -- Derived after each collection (src/ugc/scores.ts says how).
  favorites_24h_ago bigint NOT NULL DEFAULT 0,
  gain_24h bigint NOT NULL DEFAULT 0,
  gain_7d bigint NOT NULL DEFAULT 0,
  trending_score double precision NOT NULL DEFAULT 0,
  PRIMARY KEY (item_type, item_id)
);
-- One index per list order, with and without the category filter (keyset pages walk them in order).
CREATE INDEX ugc_items_trending_idx ON ugc_items (trending_score DESC, item_type DESC, item_id DESC);
CREATE INDEX ugc_items_cat_trending_idx ON ugc_items (category, trending_score DESC, item_type DESC, item_id DESC);
CREATE INDEX ugc_items_new_idx ON ugc_items (listed_at DESC, item_type DESC, item_id DESC);
CREATE INDEX ugc_items_cat_new_idx ON ugc_items (category, listed_at DESC, item_type DESC, item_id DESC);
CREATE INDEX ugc_items_price_idx ON ugc_items (price, item_type, item_id) WHERE price IS NOT NULL;
CREATE INDEX ugc_items_cat_price_idx ON ugc_items (category, price, item_type, item_id) WHERE price IS NOT NULL;
CREATE INDEX ugc_items_favorites_idx ON ugc_items (favorites DESC, item_type DESC, item_id DESC);
CREATE INDEX ugc_items_cat_favorites_idx ON ugc_items (category, favorites DESC, item_type DESC, item_id DESC);
CREATE INDEX ugc_items_creator_idx ON ugc_items (creator_type, creator_id, favorites DESC, item_type DESC, item_id DESC);

-- Raw readings, one per item per collection; pruned after 48 hours.
CREATE TABLE ugc_samples (
  item_type text NOT NULL,
  item_id bigint NOT NULL,
  ts timestamptz NOT NULL,
  price integer,
  on_sale boolean NOT NULL,
  favorites bigint NOT NULL,
  PRIMARY KEY (item_type, item_id, ts),
  FOREIGN KEY (item_type, item_id) REFERENCES ugc_items (item_type, item_id) ON DELETE CASCADE
);
CREATE INDEX ugc_samples_ts_idx ON ugc_samples (ts);

-- Daily rollups (UTC days): lowest, highest and last price, last sale state and favourites.
CREATE TABLE ugc_daily (
  item_type text NOT NULL,
  item_id bigint NOT NULL,
  day date NOT NULL,
  price_min integer,
  price_max integer,
  price_last integer,
  on_sale_last boolean NOT NULL,
  favorites_last bigint NOT NULL,
  samples integer NOT NULL,
  PRIMARY KEY (item_type, item_id, day),
  FOREIGN KEY (item_type, item_id) REFERENCES ugc_items (item_type, item_id) ON DELETE CASCADE
);
CREATE INDEX ugc_daily_day_idx ON ugc_daily (day);

-- Views computed after each collection (the trends), shared by every process.
CREATE TABLE ugc_views (
  name text PRIMARY KEY,
  computed_at timestamptz NOT NULL,
  body jsonb NOT NULL
);

-- Backfills of past history from a source that can replay it (the simulated catalog).
CREATE TABLE ugc_backfills (
  id bigserial PRIMARY KEY,
  days integer NOT NULL,
  started_at timestamptz NOT NULL,
  completed_at timestamptz
);
