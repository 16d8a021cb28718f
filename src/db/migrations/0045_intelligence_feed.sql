-- Intelligence feed (src/intelligence): what a user follows (a game, or a creator: a Roblox user
-- or group), and the market events the collector produces as it sees changes, which each user's
-- feed selects from: launches, detected updates, CCU records, entries into the top 100 or a
-- genre's top 10, and clones appearing.
CREATE TABLE intelligence_follows (
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('game', 'user', 'group')),
  -- A universe id (game) or a creator id (user, group).
  target_id bigint NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, kind, target_id)
);

CREATE TABLE market_events (
  id bigserial PRIMARY KEY,
  kind text NOT NULL
    CHECK (kind IN ('launch', 'update', 'ccu_record', 'top100_entry', 'genre_top10_entry', 'clone')),
  universe_id bigint NOT NULL REFERENCES games (universe_id) ON DELETE CASCADE,
  -- The game's creator when the event was seen (a creator's feed must not change with a transfer).
  creator_type text NOT NULL,
  creator_id bigint,
  -- clone: the game it copies.
  related_universe_id bigint REFERENCES games (universe_id) ON DELETE CASCADE,
  occurred_at timestamptz NOT NULL,
  detected_at timestamptz NOT NULL,
  data jsonb NOT NULL DEFAULT '{}'
);
CREATE UNIQUE INDEX market_events_launch_key ON market_events (universe_id) WHERE kind = 'launch';
CREATE UNIQUE INDEX market_events_update_key ON market_events (universe_id, occurred_at) WHERE kind = 'update';
CREATE UNIQUE INDEX market_events_clone_key ON market_events (universe_id, related_universe_id) WHERE kind = 'clone';
CREATE INDEX market_events_game_idx ON market_events (universe_id, id);
CREATE INDEX market_events_creator_idx ON market_events (creator_type, creator_id, id);
CREATE INDEX market_events_related_idx ON market_events (related_universe_id, id) WHERE related_universe_id IS NOT NULL;
CREATE INDEX market_events_detected_idx ON market_events (detected_at);

-- Each game's CCU record so far (seeded from its daily maxima the first time it is seen).
CREATE TABLE game_ccu_records (
  universe_id bigint PRIMARY KEY REFERENCES games (universe_id) ON DELETE CASCADE,
  record_ccu integer NOT NULL,
  record_at timestamptz NOT NULL
);

-- When each game was last in the top 100 ('top100') or its genre's top 10 ('genre:<key>'): an entry
-- is announced only after a day outside.
CREATE TABLE market_rank_presence (
  scope text NOT NULL,
  universe_id bigint NOT NULL REFERENCES games (universe_id) ON DELETE CASCADE,
  last_seen_at timestamptz NOT NULL,
  PRIMARY KEY (scope, universe_id)
);
