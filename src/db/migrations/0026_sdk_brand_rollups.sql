-- Brand activation and brand lift (src/analytics/views/brand*.ts): the rollups the `brand` and
-- `brand-lift` views read, rebuilt per (team, platform, game, UTC day) with the other rollups
-- (views/brand.rollup.repo.ts), and the survey definitions a team sets.
--
-- Every table keeps player_id: reach, players equipping and the share funnel are distinct players
-- over a range (not sums of days), repeat-equip needs each player's distinct days per item, and a
-- segment narrows any of them by player.

-- Zone entries per player, zone and day (reach = distinct players of a range, entries = the sum).
CREATE TABLE sdk_brand_zone_days (
  team_id bigint NOT NULL,
  platform text NOT NULL,
  game_id text NOT NULL,
  day date NOT NULL,
  player_id text NOT NULL,
  zone_id text NOT NULL,
  entries integer NOT NULL,
  PRIMARY KEY (team_id, game_id, day, platform, player_id, zone_id)
);

-- Zone exits per player, zone, day and dwell (dwell_seconds rounded to the tenth of a second, so a
-- day holds a histogram rather than a row per exit; the median of a range is within 0.05 s of the
-- exact one). An exit counts its dwell whether or not an enter was seen.
CREATE TABLE sdk_brand_dwell_days (
  team_id bigint NOT NULL,
  platform text NOT NULL,
  game_id text NOT NULL,
  day date NOT NULL,
  player_id text NOT NULL,
  zone_id text NOT NULL,
  dwell_s double precision NOT NULL,
  exits integer NOT NULL,
  PRIMARY KEY (team_id, game_id, day, platform, player_id, zone_id, dwell_s)
);

-- Equips per player, item and day: a player's distinct days per item give repeat-equip.
CREATE TABLE sdk_brand_equip_days (
  team_id bigint NOT NULL,
  platform text NOT NULL,
  game_id text NOT NULL,
  day date NOT NULL,
  player_id text NOT NULL,
  item_id text NOT NULL,
  equips integer NOT NULL,
  PRIMARY KEY (team_id, game_id, day, platform, player_id, item_id)
);

-- Shares per player, destination and day ('' item: none named).
CREATE TABLE sdk_brand_share_days (
  team_id bigint NOT NULL,
  platform text NOT NULL,
  game_id text NOT NULL,
  day date NOT NULL,
  player_id text NOT NULL,
  share_platform text NOT NULL,
  item_id text NOT NULL,
  shares integer NOT NULL,
  PRIMARY KEY (team_id, game_id, day, platform, player_id, share_platform, item_id)
);

-- One row per brand_survey_shown and per brand_survey_response event (surveys are shown once or a
-- few times per player, so these stay small). Kept per event, with its time, because a response
-- without its own cohort takes the cohort of the player's latest shown before it, which may lie on
-- an earlier day: resolving it when the response's day is rebuilt would miss a shown that arrives
-- late for an earlier day, so the views resolve it when they read (an index probe per response).
CREATE TABLE sdk_brand_survey_shown (
  team_id bigint NOT NULL,
  platform text NOT NULL,
  game_id text NOT NULL,
  day date NOT NULL,
  player_id text NOT NULL,
  survey_id text NOT NULL,
  ts timestamptz NOT NULL,
  -- As sent; '' and absent are null.
  cohort text
);
CREATE INDEX sdk_brand_survey_shown_day_idx ON sdk_brand_survey_shown (team_id, game_id, day);
CREATE INDEX sdk_brand_survey_shown_player_idx
  ON sdk_brand_survey_shown (team_id, game_id, platform, player_id, survey_id, ts);

CREATE TABLE sdk_brand_survey_responses (
  team_id bigint NOT NULL,
  platform text NOT NULL,
  game_id text NOT NULL,
  day date NOT NULL,
  player_id text NOT NULL,
  survey_id text NOT NULL,
  ts timestamptz NOT NULL,
  answer text NOT NULL,
  -- null: the response did not say (the survey's favorable_answers decide).
  favorable boolean,
  cohort text
);
CREATE INDEX sdk_brand_survey_responses_day_idx ON sdk_brand_survey_responses (team_id, game_id, day);

-- A survey's definition, set by the team (PUT /api/sdk/surveys/{survey_id}): the answer keys that
-- count as favourable when a response carries no `favorable` of its own.
CREATE TABLE sdk_brand_surveys (
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  game_id text NOT NULL,
  survey_id text NOT NULL,
  favorable_answers text[] NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (team_id, game_id, survey_id)
);
