-- Ad impressions per day, player and dimension (src/analytics/views/ads.repo.ts). sdk_ad_days has no
-- player, so it cannot answer for a segment's players; the ads view reads this table when a
-- segment is set (and sdk_ad_days, far smaller, otherwise). Rebuilt per day by the rollup job like
-- every sdk_* table (rollups.repo.ts REBUILD).
CREATE TABLE sdk_ad_player_days (
  team_id bigint NOT NULL,
  platform text NOT NULL,
  game_id text NOT NULL,
  day date NOT NULL,
  player_id text NOT NULL,
  format text NOT NULL,
  network text NOT NULL,
  -- '' when the impression named no placement.
  placement text NOT NULL,
  impressions integer NOT NULL,
  revenue_usd double precision NOT NULL,
  ecpm_count integer NOT NULL,
  ecpm_sum double precision NOT NULL,
  PRIMARY KEY (team_id, game_id, day, platform, player_id, format, network, placement)
);

-- Days rolled up before this table existed: filled from the raw events once (a later rebuild of a
-- day deletes and rewrites its rows, so nothing counts twice).
INSERT INTO sdk_ad_player_days (team_id, platform, game_id, day, player_id, format, network, placement,
  impressions, revenue_usd, ecpm_count, ecpm_sum)
SELECT team_id, platform, game_id, (ts AT TIME ZONE 'UTC')::date, player_id, payload->>'format',
  payload->>'network', COALESCE(payload->>'placement', ''), count(*)::int,
  sum((payload->>'revenue_usd')::float8), (count(*) FILTER (WHERE payload ? 'ecpm'))::int,
  COALESCE(sum((payload->>'ecpm')::float8), 0)
  FROM events
 WHERE type = 'ad_impression'
 GROUP BY team_id, platform, game_id, (ts AT TIME ZONE 'UTC')::date, player_id, payload->>'format',
  payload->>'network', COALESCE(payload->>'placement', '');
