-- SDK analytics, levels view at volume: what it sums over a range instead of every player-level-day
-- (sdk_level_days) of it. Kept by the rollup job with every day it rebuilds
-- (src/analytics/views/levels.rollup.repo.ts); a segment still reads the per-player tables.
--
-- sdk_level_outcomes: per platform, day and level, the attempts and their results.
CREATE TABLE sdk_level_outcomes (
  team_id bigint NOT NULL,
  game_id text NOT NULL,
  platform text NOT NULL,
  day date NOT NULL,
  level bigint NOT NULL,
  attempts integer NOT NULL,
  wins integer NOT NULL,
  losses integer NOT NULL,
  quits integer NOT NULL,
  completes integer NOT NULL,
  PRIMARY KEY (team_id, game_id, platform, day, level)
);

-- sdk_level_player_days: sdk_level_days again, per platform and with platform '' for the game's
-- platforms combined (attempts summed), keyed by player and level so the rollup job reads a
-- player's whole history at a level in one index range. Each row also says:
--   prev_day  the player's previous day with an attempt at the level ('-infinity': none), so a
--             range [from, to] holds exactly one row per player with prev_day < from;
--   done_day  the player's first finish (win or complete) of the level when this day is not after
--             it, else 'infinity';
--   to_done   then, the attempts from this day up to and including that finish (the finish day's
--             attempts_to_done), else 0: the "attempts to complete" of a range starting this day.
CREATE TABLE sdk_level_player_days (
  team_id bigint NOT NULL,
  game_id text NOT NULL,
  -- '' = every platform of the game.
  platform text NOT NULL,
  player_id text NOT NULL,
  level bigint NOT NULL,
  day date NOT NULL,
  attempts integer NOT NULL,
  attempts_to_done integer,
  prev_day date NOT NULL,
  done_day date NOT NULL,
  to_done integer NOT NULL,
  PRIMARY KEY (team_id, game_id, player_id, level, platform, day)
);
-- The players a rebuilt day had, before its rebuild.
CREATE INDEX sdk_level_player_days_day_idx ON sdk_level_player_days (team_id, game_id, platform, day);

-- sdk_level_reach: sdk_level_player_days counted by everything but the player. Distinct players
-- of a level over [from, to] are the rows with day in the range and prev_day < from; the median
-- attempts to a first finish in the range is over those with done_day <= to, of to_done.
CREATE TABLE sdk_level_reach (
  team_id bigint NOT NULL,
  game_id text NOT NULL,
  platform text NOT NULL,
  day date NOT NULL,
  level bigint NOT NULL,
  prev_day date NOT NULL,
  done_day date NOT NULL,
  to_done integer NOT NULL,
  players integer NOT NULL,
  PRIMARY KEY (team_id, game_id, platform, day, level, prev_day, done_day, to_done)
);
-- The rollup job adds and takes away counts; the emptied rows go in the same transaction.
CREATE INDEX sdk_level_reach_empty_idx ON sdk_level_reach (team_id, game_id, platform) WHERE players = 0;

-- Level rows rolled up before these tables existed (the same derivation as the rollup job's).
INSERT INTO sdk_level_outcomes (team_id, game_id, platform, day, level, attempts, wins, losses, quits, completes)
SELECT team_id, game_id, platform, day, level, sum(attempts), sum(wins), sum(losses), sum(quits), sum(completes)
  FROM sdk_level_days
 GROUP BY team_id, game_id, platform, day, level;

INSERT INTO sdk_level_player_days (team_id, game_id, platform, player_id, level, day, attempts, attempts_to_done,
  prev_day, done_day, to_done)
SELECT team_id, game_id, platform, player_id, level, day, attempts, attempts_to_done,
       COALESCE(prev, '-infinity'),
       CASE WHEN day <= f THEN f ELSE 'infinity' END,
       CASE WHEN day <= f
         THEN COALESCE(sum(attempts) FILTER (WHERE day < f)
                OVER (PARTITION BY team_id, game_id, platform, player_id, level ORDER BY day DESC), 0)
              + max(attempts_to_done) FILTER (WHERE day = f)
                OVER (PARTITION BY team_id, game_id, platform, player_id, level)
         ELSE 0 END
  FROM (
    SELECT s.*,
           lag(day) OVER (PARTITION BY team_id, game_id, platform, player_id, level ORDER BY day) AS prev,
           min(day) FILTER (WHERE attempts_to_done IS NOT NULL)
             OVER (PARTITION BY team_id, game_id, platform, player_id, level) AS f
      FROM (
        SELECT team_id, game_id, platform, player_id, level, day, attempts, attempts_to_done FROM sdk_level_days
        UNION ALL
        SELECT team_id, game_id, '', player_id, level, day, sum(attempts)::int, sum(attempts_to_done)::int
          FROM sdk_level_days
         GROUP BY team_id, game_id, player_id, level, day
      ) AS s
  ) AS w;

INSERT INTO sdk_level_reach (team_id, game_id, platform, day, level, prev_day, done_day, to_done, players)
SELECT team_id, game_id, platform, day, level, prev_day, done_day, to_done, count(*)
  FROM sdk_level_player_days
 GROUP BY team_id, game_id, platform, day, level, prev_day, done_day, to_done;
