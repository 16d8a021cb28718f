-- SDK analytics, levels view: the first UTC day each player finished (win or complete) each level,
-- per platform. "Attempts to complete" counts only players whose first finish falls in the range
-- read; without this table that test would scan every level row of the game's whole history on
-- each request. Kept by the rollup job like sdk_players: a rebuilt day can only move the day
-- earlier. The key leads with the player and level so "did they finish it earlier, on any
-- platform?" is one index probe.
CREATE TABLE sdk_level_firsts (
  team_id bigint NOT NULL,
  platform text NOT NULL,
  game_id text NOT NULL,
  player_id text NOT NULL,
  level bigint NOT NULL,
  first_done_day date NOT NULL,
  PRIMARY KEY (team_id, game_id, player_id, level, platform)
);
CREATE INDEX sdk_level_firsts_day_idx ON sdk_level_firsts (team_id, game_id, first_done_day);

-- Level rows rolled up before this table existed.
INSERT INTO sdk_level_firsts (team_id, platform, game_id, player_id, level, first_done_day)
SELECT team_id, platform, game_id, player_id, level, min(day)
  FROM sdk_level_days WHERE attempts_to_done IS NOT NULL
 GROUP BY team_id, platform, game_id, player_id, level;
