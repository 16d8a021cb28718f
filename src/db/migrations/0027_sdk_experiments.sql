-- SDK experiments (src/analytics/experiments.*): A/B tests a team defines on one of its games.
-- Assignment is computed (a hash of the key and the player id), never stored, so it is the same in
-- every process and after restarts; what is stored is the definition, and the exposures the game
-- reports as `custom` events named experiment_exposure (rolled up below).
CREATE TABLE sdk_experiments (
  id bigserial PRIMARY KEY,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  game_id text NOT NULL,
  -- The name the game's code and its exposure events use; unique per team and game, since
  -- exposures name it and assignment hashes it.
  key text NOT NULL,
  -- [{key, weight}], 2 to 5, the first is the control (weights are positive integers).
  variants jsonb NOT NULL,
  -- {metric, event_name?}; secondary: a list of the same.
  primary_metric jsonb NOT NULL,
  secondary_metrics jsonb NOT NULL,
  -- Absolute, in the primary metric's unit (a share of players, or USD per player); null: no plan.
  minimum_detectable_effect double precision,
  -- The control's expected rate (rate metrics) or standard deviation (revenue) for the sample
  -- size; null: the control's figures observed so far.
  baseline double precision,
  -- Exposures from this UTC day on are analysed (may precede creation: an experiment the game
  -- already runs).
  start_day date NOT NULL,
  status text NOT NULL CHECK (status IN ('running', 'stopped')),
  created_at timestamptz NOT NULL,
  stopped_at timestamptz,
  UNIQUE (team_id, game_id, key)
);
CREATE INDEX sdk_experiments_team_idx ON sdk_experiments (team_id, created_at DESC, id DESC);

-- The day's custom events per player and name, one row per (player, name) and, for exposures,
-- per (experiment, variant): exposures give each player's first exposure and the variants seen
-- (contamination), the other names the experiments' `custom` metric ("reached the event after the
-- first exposure", hence first_ts and last_ts). Rebuilt with the day by the rollup job
-- (views/experiments.rollup.repo.ts) in one pass over the day's custom events. experiment and
-- variant are '' for any other name.
CREATE TABLE sdk_custom_player_days (
  team_id bigint NOT NULL,
  platform text NOT NULL,
  game_id text NOT NULL,
  day date NOT NULL,
  player_id text NOT NULL,
  name text NOT NULL,
  experiment text NOT NULL,
  variant text NOT NULL,
  events integer NOT NULL,
  first_ts timestamptz NOT NULL,
  last_ts timestamptz NOT NULL,
  PRIMARY KEY (team_id, game_id, name, experiment, day, platform, player_id, variant)
);
-- The rebuild deletes a (team, platform, game, day) whatever the names.
CREATE INDEX sdk_custom_player_days_day_idx ON sdk_custom_player_days (team_id, game_id, day, platform);
