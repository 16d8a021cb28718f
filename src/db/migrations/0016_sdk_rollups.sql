-- SDK analytics (src/analytics): dashboards read rollups, never raw events.
--
-- events_touched (written by ingest, in the transaction that stores the events): the
-- (team, platform, game, UTC day) keys with events the rollups have not seen yet. The rollup job
-- claims keys (claimed_at), recomputes each day's rollups from the raw events, and deletes the key
-- unless `version` moved meanwhile (new events arrived during the recompute: it runs again). A
-- recompute reads committed events only and replaces the whole day, so a late, out-of-order or
-- re-delivered event can never count twice.
CREATE TABLE events_touched (
  team_id bigint NOT NULL,
  platform text NOT NULL,
  game_id text NOT NULL,
  day date NOT NULL,
  version bigint NOT NULL DEFAULT 0,
  claimed_at timestamptz,
  PRIMARY KEY (team_id, platform, game_id, day)
);

-- One row per game a team has sent events for.
CREATE TABLE sdk_games (
  team_id bigint NOT NULL,
  platform text NOT NULL,
  game_id text NOT NULL,
  first_day date NOT NULL,
  last_day date NOT NULL,
  PRIMARY KEY (team_id, game_id, platform)
);

-- One row per player per UTC day with any event: DAU/WAU/MAU, new vs returning, revenue per
-- player, countries. revenue_usd holds USD and the platform's virtual currency at the DevEx rate;
-- other currencies are in sdk_purchase_days only.
CREATE TABLE sdk_player_days (
  team_id bigint NOT NULL,
  platform text NOT NULL,
  game_id text NOT NULL,
  day date NOT NULL,
  player_id text NOT NULL,
  events integer NOT NULL,
  -- The last country the player's events of the day carried.
  country text,
  purchases integer NOT NULL,
  revenue_usd double precision NOT NULL,
  ad_impressions integer NOT NULL,
  ad_revenue_usd double precision NOT NULL,
  PRIMARY KEY (team_id, game_id, day, platform, player_id)
);

-- The day each player was first seen (cohorts, new players) and their country that day.
CREATE TABLE sdk_players (
  team_id bigint NOT NULL,
  platform text NOT NULL,
  game_id text NOT NULL,
  player_id text NOT NULL,
  first_day date NOT NULL,
  first_country text,
  PRIMARY KEY (team_id, game_id, platform, player_id)
);
CREATE INDEX sdk_players_cohort_idx ON sdk_players (team_id, game_id, first_day);

-- One row per session per UTC day it has events on: a session's length is its session_end's
-- duration_s when one was sent, else the span from its first to its last event.
CREATE TABLE sdk_session_days (
  team_id bigint NOT NULL,
  platform text NOT NULL,
  game_id text NOT NULL,
  day date NOT NULL,
  player_id text NOT NULL,
  session_id text NOT NULL,
  first_ts timestamptz NOT NULL,
  last_ts timestamptz NOT NULL,
  -- The largest session_end.duration_s of the day; null when the day has no session_end.
  end_duration_s double precision,
  events integer NOT NULL,
  PRIMARY KEY (team_id, game_id, day, platform, player_id, session_id)
);

-- Purchases per day, player and dimension, in the purchase's own currency (amount = price × quantity).
CREATE TABLE sdk_purchase_days (
  team_id bigint NOT NULL,
  platform text NOT NULL,
  game_id text NOT NULL,
  day date NOT NULL,
  player_id text NOT NULL,
  sku text NOT NULL,
  source text NOT NULL,
  currency text NOT NULL,
  country text,
  purchases integer NOT NULL,
  -- bigint: a quantity may be up to 2^53 − 1.
  units bigint NOT NULL,
  amount double precision NOT NULL
);
CREATE INDEX sdk_purchase_days_idx ON sdk_purchase_days (team_id, game_id, day);

-- Ad impressions per day and dimension.
CREATE TABLE sdk_ad_days (
  team_id bigint NOT NULL,
  platform text NOT NULL,
  game_id text NOT NULL,
  day date NOT NULL,
  format text NOT NULL,
  network text NOT NULL,
  placement text NOT NULL,
  country text,
  impressions integer NOT NULL,
  revenue_usd double precision NOT NULL,
  -- Impressions that carried an ecpm, and the sum of those: eCPM falls back to revenue/impressions.
  ecpm_count integer NOT NULL,
  ecpm_sum double precision NOT NULL
);
CREATE INDEX sdk_ad_days_idx ON sdk_ad_days (team_id, game_id, day);

-- Level events per day, player and level. done = win or complete; attempts_to_done counts the
-- day's attempts up to and including the first done (null when the day has none), so the attempts
-- to a first completion across days are exact.
CREATE TABLE sdk_level_days (
  team_id bigint NOT NULL,
  platform text NOT NULL,
  game_id text NOT NULL,
  day date NOT NULL,
  player_id text NOT NULL,
  -- bigint: ingest accepts levels up to 2^53 − 1.
  level bigint NOT NULL,
  attempts integer NOT NULL,
  wins integer NOT NULL,
  losses integer NOT NULL,
  quits integer NOT NULL,
  completes integer NOT NULL,
  attempts_to_done integer,
  PRIMARY KEY (team_id, game_id, day, platform, player_id, level)
);
