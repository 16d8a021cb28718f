-- A job may ask, as a run ends, not to run again before a given time (Job.run's `pauseMs`): the
-- SDK rollup job pauses in proportion to how long its rebuilds took, so the upkeep takes a bounded
-- share of the database's time (src/analytics/rollups.ts). NULL: due on its interval alone.
ALTER TABLE job_state ADD COLUMN not_before timestamptz;
