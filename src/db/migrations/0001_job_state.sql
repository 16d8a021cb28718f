-- Scheduled jobs (collector, alert engine, forecasts, …) keep their state here so that runs never
-- overlap across processes (a lease) and a restarted process knows when each job is next due.
CREATE TABLE job_state (
  name text PRIMARY KEY,
  lease_owner text,
  lease_until timestamptz,
  last_started_at timestamptz,
  last_finished_at timestamptz,
  last_status text CHECK (last_status IN ('ok', 'failed')),
  last_error text,
  runs bigint NOT NULL DEFAULT 0,
  failures bigint NOT NULL DEFAULT 0
);
