-- SDK analytics at volume (src/analytics): two rollups that spare the dashboards every player-day
-- of a range.
--
-- sdk_player_activity: one row per player and platform, plus one with platform '' for the game's
-- platforms combined. `days` is a bit string: bit i (0 = leftmost) is set when the player was
-- active on first_day + i, so it spans first_day .. last_day; `paid` is the same for days with a
-- purchase. "Players active in a range", new players and cohorts read one row per player instead
-- of one per player-day, and a segment narrows it by player_id like any rollup. `countries`: the
-- distinct countries of the player's days ('' where a day had none), sorted; almost every player
-- has one, so per-country counts read only the players with several from sdk_player_days.
-- A rebuild of a day only ever adds to its players (the day's raw events are a superset of what
-- an earlier rebuild saw), so the rollup job sets bits and never clears them.
CREATE TABLE sdk_player_activity (
  team_id bigint NOT NULL,
  game_id text NOT NULL,
  -- '' = every platform of the game.
  platform text NOT NULL,
  player_id text NOT NULL,
  first_day date NOT NULL,
  last_day date NOT NULL,
  days bit varying NOT NULL,
  paid bit varying NOT NULL,
  countries text[] NOT NULL,
  PRIMARY KEY (team_id, game_id, platform, player_id)
);
CREATE INDEX sdk_player_activity_cohort_idx ON sdk_player_activity (team_id, game_id, platform, first_day);

-- sdk_day_stats: per game, platform ('' = combined) and UTC day, what the overview and engagement
-- views sum over a range. WAU and MAU are stored as moves (stretches opened − closed that day, see
-- engagement.repo.ts), so a day with no events still moves them and WAU on day d is the sum of the
-- moves up to d. Sessions are counted on the day they started; their lengths and the playtime per
-- player-day are histograms of whole seconds (values[i] seen counts[i] times). Written by the
-- rollup job's second step (src/analytics/stats.ts) for the days listed in sdk_stats_due.
CREATE TABLE sdk_day_stats (
  team_id bigint NOT NULL,
  game_id text NOT NULL,
  platform text NOT NULL,
  day date NOT NULL,
  dau integer NOT NULL,
  wau_move integer NOT NULL,
  mau_move integer NOT NULL,
  revenue_usd double precision NOT NULL,
  sessions integer NOT NULL,
  sessions_from_end integer NOT NULL,
  length_sum double precision NOT NULL,
  length_values double precision[] NOT NULL,
  length_counts integer[] NOT NULL,
  playtime_days integer NOT NULL,
  playtime_sum double precision NOT NULL,
  playtime_values double precision[] NOT NULL,
  playtime_counts integer[] NOT NULL,
  PRIMARY KEY (team_id, game_id, platform, day)
);

-- Days whose player-days were rebuilt and whose day stats (and those of the days after them that
-- it moves) are not yet derived: written in the rebuild's transaction, taken by the second step.
CREATE TABLE sdk_stats_due (
  team_id bigint NOT NULL,
  game_id text NOT NULL,
  day date NOT NULL,
  PRIMARY KEY (team_id, game_id, day)
);

-- Rollups built before these tables existed: activity from sdk_player_days (the raw events of old
-- days may be gone), and every day with players due for its stats.
INSERT INTO sdk_player_activity (team_id, game_id, platform, player_id, first_day, last_day, days, paid, countries)
SELECT team_id, game_id, platform, player_id, f, l,
       (SELECT string_agg(CASE WHEN f + i = ANY(ds) THEN '1' ELSE '0' END, '' ORDER BY i)
          FROM generate_series(0, l - f) AS i)::varbit,
       (SELECT string_agg(CASE WHEN f + i = ANY(pds) THEN '1' ELSE '0' END, '' ORDER BY i)
          FROM generate_series(0, l - f) AS i)::varbit,
       cs
  FROM (
    SELECT team_id, game_id, platform, player_id, min(day) AS f, max(day) AS l, array_agg(DISTINCT day) AS ds,
           COALESCE(array_agg(DISTINCT day) FILTER (WHERE paid), '{}') AS pds,
           array_agg(DISTINCT country ORDER BY country) AS cs
      FROM (
        SELECT team_id, game_id, platform, player_id, day, purchases > 0 AS paid, COALESCE(country, '') AS country
          FROM sdk_player_days
        UNION ALL
        SELECT team_id, game_id, '', player_id, day, purchases > 0, COALESCE(country, '') FROM sdk_player_days
      ) AS pd
     GROUP BY team_id, game_id, platform, player_id
  ) AS g;

INSERT INTO sdk_stats_due (team_id, game_id, day)
SELECT DISTINCT team_id, game_id, day FROM sdk_player_days;
