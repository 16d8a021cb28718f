-- The rollup job finds a stored batch's rows by (team_id, received_at, batch) (rollups.repo.ts,
-- foldQueued). With only (team_id, received_at) indexed, batches that share a receipt time (a
-- burst within one millisecond, a replay, a clock that stands still) made each lookup read all of
-- them: 1,000 batches of one instant read 237 million rows on PostgreSQL. The batch id joins the
-- index (the same index still serves the recent-events tail, newest first).
DROP INDEX events_team_received_idx;
CREATE INDEX events_team_received_idx ON events (team_id, received_at DESC, batch);
