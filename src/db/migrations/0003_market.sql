-- Market data: the game catalogue, CCU history in three tiers, genre snapshots, precomputed views.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE games (
  universe_id bigint PRIMARY KEY,
  place_id bigint NOT NULL,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  creator_id bigint,
  creator_name text NOT NULL,
  creator_type text NOT NULL DEFAULT 'User',
  genre text NOT NULL,
  max_players integer,
  created_at timestamptz,
  updated_at timestamptz,
  -- The latest reading (null until the first successful one).
  ccu integer,
  visits bigint,
  favorites bigint,
  up_votes bigint,
  down_votes bigint,
  gamepass_count integer,
  gamepass_median_price numeric,
  passes_checked_at timestamptz,
  observed_at timestamptz,
  first_seen_at timestamptz NOT NULL,
  -- Lower-cased, accent-stripped "name creator" for typo-tolerant search (pg_trgm).
  search_text text NOT NULL
);
CREATE UNIQUE INDEX games_place_key ON games (place_id);
CREATE INDEX games_genre_ccu_idx ON games (genre, ccu DESC);
CREATE INDEX games_ccu_idx ON games (ccu DESC);
CREATE INDEX games_search_trgm_idx ON games USING gin (search_text gin_trgm_ops);

CREATE TABLE game_passes (
  universe_id bigint NOT NULL REFERENCES games (universe_id) ON DELETE CASCADE,
  pass_id bigint NOT NULL,
  name text NOT NULL,
  price integer,
  PRIMARY KEY (universe_id, pass_id)
);

-- Raw readings every collection (5 min), kept 48 hours.
CREATE TABLE ccu_samples (
  universe_id bigint NOT NULL,
  ts timestamptz NOT NULL,
  ccu integer NOT NULL,
  visits bigint,
  PRIMARY KEY (universe_id, ts)
);
CREATE INDEX ccu_samples_ts_idx ON ccu_samples (ts);

-- Hourly rollups, kept 90 days.
CREATE TABLE ccu_hourly (
  universe_id bigint NOT NULL,
  hour timestamptz NOT NULL,
  ccu_avg real NOT NULL,
  ccu_max integer NOT NULL,
  samples integer NOT NULL,
  visits bigint,
  PRIMARY KEY (universe_id, hour)
);
CREATE INDEX ccu_hourly_hour_idx ON ccu_hourly (hour);

-- Daily rollups (UTC days), kept forever.
CREATE TABLE ccu_daily (
  universe_id bigint NOT NULL,
  day date NOT NULL,
  ccu_avg real NOT NULL,
  ccu_max integer NOT NULL,
  samples integer NOT NULL,
  visits bigint,
  PRIMARY KEY (universe_id, day)
);
CREATE INDEX ccu_daily_day_idx ON ccu_daily (day);

-- Per-genre totals every 6 hours, kept forever (growth needs its 7-day baseline).
CREATE TABLE genre_snapshots (
  genre text NOT NULL,
  ts timestamptz NOT NULL,
  total_games integer NOT NULL,
  active_games integer NOT NULL,
  total_ccu bigint NOT NULL,
  PRIMARY KEY (genre, ts)
);

-- Market views computed once per collection and served as they are.
CREATE TABLE market_views (
  name text PRIMARY KEY,
  computed_at timestamptz NOT NULL,
  body jsonb NOT NULL
);
