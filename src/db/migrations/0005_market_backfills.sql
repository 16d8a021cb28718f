-- Each backfill run: a run stopped half-way (shutdown, crash) has no completed_at, so the next
-- scheduled collection backfills again (every write of a backfill is an idempotent upsert).
CREATE TABLE market_backfills (
  id serial PRIMARY KEY,
  days integer NOT NULL,
  until timestamptz NOT NULL,
  started_at timestamptz NOT NULL,
  completed_at timestamptz
);
