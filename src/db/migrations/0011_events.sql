-- SDK events (POST /api/sdk/events). `events` is partitioned by month on `ts` so dashboard queries
-- over a date range touch only the months they need and old months can be dropped whole. Monthly
-- partitions are created on demand by the ingest pipeline (events_pYYYYMM) before a batch that
-- needs one is written; there is no default partition, so a row can never land in a partition that
-- would later block creating its month. No foreign keys: this is the hot write path, and team_id /
-- key_id come from an authenticated key.
CREATE TABLE events (
  id bigserial NOT NULL,
  team_id bigint NOT NULL,
  key_id bigint NOT NULL,
  sdk_version text,
  received_at timestamptz NOT NULL,
  event_id text NOT NULL,
  -- The event's own time; the receipt time when the client omitted it.
  ts timestamptz NOT NULL,
  platform text NOT NULL,
  game_id text NOT NULL,
  player_id text NOT NULL,
  session_id text,
  type text NOT NULL,
  payload jsonb NOT NULL,
  -- From the payload, or from the player's last session_start (player_countries).
  country text
) PARTITION BY RANGE (ts);

-- Dashboards filter by team, game and type over a time range.
CREATE INDEX events_team_game_type_ts_idx ON events (team_id, game_id, type, ts);
-- Makes the queue writer idempotent: a redelivered batch inserts nothing twice. A unique index on
-- a partitioned table must contain the partition key, hence ts; event_ids is the real dedupe.
CREATE UNIQUE INDEX events_team_event_ts_key ON events (team_id, event_id, ts);
-- GET /api/sdk/events/recent and `svc events tail`: newest received first.
CREATE INDEX events_team_received_idx ON events (team_id, received_at DESC, id DESC);

-- Durable idempotency per team. A separate table because a unique key on `events` would have to
-- include ts, and a retried event may carry a different (or defaulted) ts. Written in the same
-- transaction that charges the quota, so an event_id here always means "accepted".
CREATE TABLE event_ids (
  team_id bigint NOT NULL,
  event_id text NOT NULL,
  received_at timestamptz NOT NULL,
  PRIMARY KEY (team_id, event_id)
);

-- Monthly ingest usage per team: charged atomically with min(n, quota - used), so it never
-- overshoots under concurrency. `month` is the first day of the UTC month of receipt.
CREATE TABLE ingest_usage (
  team_id bigint NOT NULL,
  month date NOT NULL,
  used bigint NOT NULL DEFAULT 0 CHECK (used >= 0),
  PRIMARY KEY (team_id, month)
);

-- The last country a player's session_start reported, filled into later events that lack one.
CREATE TABLE player_countries (
  team_id bigint NOT NULL,
  player_id text NOT NULL,
  country text NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (team_id, player_id)
);

-- Transactional outbox of async mode: the accepted batch is written here in the request's
-- transaction (one jsonb row, cheap), so a 202 never depends on the queue surviving. The writer
-- deletes the row in the transaction that inserts the events; rows left behind (a process died
-- between commit and publish, or the memory queue died with it) are re-published by the relay.
CREATE TABLE ingest_outbox (
  id bigserial PRIMARY KEY,
  created_at timestamptz NOT NULL,
  rows jsonb NOT NULL
);
CREATE INDEX ingest_outbox_created_idx ON ingest_outbox (created_at);
