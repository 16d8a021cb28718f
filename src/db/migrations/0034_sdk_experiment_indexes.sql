-- Experiment results at volume (src/analytics/experiments.repo.ts). Both partial, covering what the
-- results read, so each is an index-only scan of the rows it needs:
-- - an experiment's exposures (the custom event experiment_exposure), per player their first
--   instant and variant, instead of a heap fetch per exposure row;
-- - the player-days with purchases (conversion and revenue per exposed player), instead of a scan
--   of every player-day.
CREATE INDEX sdk_custom_player_days_exposure_idx ON sdk_custom_player_days (team_id, game_id, experiment, day)
  INCLUDE (player_id, first_ts, variant) WHERE name = 'experiment_exposure';

CREATE INDEX sdk_player_days_payer_idx ON sdk_player_days (team_id, game_id, day)
  INCLUDE (player_id, purchases, revenue_usd) WHERE purchases > 0;
