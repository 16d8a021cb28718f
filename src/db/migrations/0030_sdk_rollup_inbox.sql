-- Incremental rollups (src/analytics/rollups.ts): the rollup job folds each stored batch into the
-- rollups once, instead of rebuilding whole days from the raw events.
--
-- events.batch: the id of the batch an event was stored with (random, see ingest batch.ts; NULL for
-- events stored before this migration). With team_id and received_at (indexed) it finds a batch's
-- rows again.
ALTER TABLE events ADD COLUMN batch bigint;

-- sdk_rollup_inbox (written by ingest, in the transaction that stores the events): one row per
-- stored batch and (platform, game, UTC day) it has events for. The rollup job deletes rows and
-- folds their events into the rollups in one transaction: each event is counted exactly once.
CREATE TABLE sdk_rollup_inbox (
  id bigserial PRIMARY KEY,
  team_id bigint NOT NULL,
  platform text NOT NULL,
  game_id text NOT NULL,
  day date NOT NULL,
  received_at timestamptz NOT NULL,
  batch bigint NOT NULL
);
CREATE INDEX sdk_rollup_inbox_game_idx ON sdk_rollup_inbox (team_id, game_id);

-- What a fold needs to merge a day's rows with new events:
-- the latest country's time (the day's country is that of its latest event with one);
ALTER TABLE sdk_player_days ADD COLUMN country_ts timestamptz;
-- the day's first finish and the attempts up to it (attempts_to_done counts them; a later-arriving
-- earlier finish drops those after it);
ALTER TABLE sdk_level_days ADD COLUMN done_ts timestamptz;
ALTER TABLE sdk_level_days ADD COLUMN attempt_ts timestamptz[] NOT NULL DEFAULT '{}';
-- the sample's event id (the sample is the latest event's, ties to the smallest id).
ALTER TABLE sdk_crash_days ADD COLUMN sample_event_id text;
ALTER TABLE sdk_error_days ADD COLUMN sample_event_id text;

-- Rows a fold merges into are found by their whole key (NULL countries equal).
DROP INDEX sdk_purchase_days_idx;
CREATE UNIQUE INDEX sdk_purchase_days_key
  ON sdk_purchase_days (team_id, game_id, day, platform, player_id, sku, source, currency, country) NULLS NOT DISTINCT;
DROP INDEX sdk_ad_days_idx;
CREATE UNIQUE INDEX sdk_ad_days_key
  ON sdk_ad_days (team_id, game_id, day, platform, format, network, placement, country) NULLS NOT DISTINCT;
DROP INDEX sdk_purchase_totals_idx;
CREATE UNIQUE INDEX sdk_purchase_totals_key
  ON sdk_purchase_totals (team_id, game_id, day, platform, sku, source, currency, country) NULLS NOT DISTINCT;

-- events_touched now only marks days to rebuild whole (a repair: this migration's new columns).
-- Every day whose raw events are still kept is rebuilt once.
INSERT INTO events_touched (team_id, platform, game_id, day)
SELECT DISTINCT d.team_id, d.platform, d.game_id, d.day FROM sdk_player_days d
 WHERE EXISTS (
   SELECT 1 FROM events e
    WHERE e.team_id = d.team_id AND e.game_id = d.game_id AND e.platform = d.platform
      AND e.ts >= d.day::timestamp AT TIME ZONE 'UTC' AND e.ts < (d.day + 1)::timestamp AT TIME ZONE 'UTC')
ON CONFLICT DO NOTHING;
