-- Game updates: a game's `updated` time moved on between two readings (the collector and the
-- backfill write them), and what each did to the game's players once the 7 UTC days after its
-- release day have passed (the measure-update-impact job; src/updates/impact.ts says how).
CREATE TABLE game_updates (
  id bigserial PRIMARY KEY,
  universe_id bigint NOT NULL REFERENCES games (universe_id) ON DELETE CASCADE,
  -- The game's new `updated` time, and the one it replaced.
  released_at timestamptz NOT NULL,
  previous_at timestamptz,
  detected_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'measuring'
    CHECK (status IN ('measuring', 'measured', 'insufficient_history', 'insufficient_data')),
  -- Another update of the game went out before this one's window ended (its effect is mixed in).
  overlapping boolean NOT NULL DEFAULT false,
  impact double precision,
  ci80_low double precision,
  ci80_high double precision,
  ci95_low double precision,
  ci95_high double precision,
  significant boolean,
  observed_mean double precision,
  counterfactual_mean double precision,
  baseline_days integer,
  window_days integer,
  model_version text,
  measured_at timestamptz,
  UNIQUE (universe_id, released_at)
);
-- The job's queue: updates still waiting for their window to pass.
CREATE INDEX game_updates_measuring_idx ON game_updates (released_at) WHERE status = 'measuring';
-- Market-wide gains and losses: the rankable updates by impact (read forwards for gains, backwards
-- for losses), so a page stops after its rows instead of sorting every measured update.
CREATE INDEX game_updates_ranked_idx ON game_updates (impact, id)
  WHERE status = 'measured' AND NOT overlapping;
