/**
 * Rollups the brand and brand-lift views keep for themselves (migration 0026), rebuilt with every
 * day (rollups.repo.ts REBUILD_ALL; parameters: $1 team, $2 platform, $3 game, $4 day, $5..$6 the
 * day's start and end; the later ones are not named here). Each INSERT is one pass over the day's
 * events of one type, so the (team_id, game_id, type, ts) index ranges and a game without brand
 * events pays an empty index probe per statement.
 */

const KEY = 'team_id = $1 AND platform = $2 AND game_id = $3 AND day = $4';
const OF_DAY = (type: string) =>
  `FROM events WHERE team_id = $1 AND game_id = $3 AND type = '${type}' AND ts >= $5 AND ts < $6 AND platform = $2`;
const ROW_KEY = '$1::bigint, $2::text, $3::text, $4::date';

/** Statements run, in order, after the core rebuild of a day. */
export const BRAND_REBUILD: readonly string[] = [
  `DELETE FROM sdk_brand_zone_days WHERE ${KEY}`,
  `INSERT INTO sdk_brand_zone_days (team_id, platform, game_id, day, player_id, zone_id, entries)
   SELECT ${ROW_KEY}, player_id, payload->>'zone_id', count(*)::int
   ${OF_DAY('brand_zone_enter')}
   GROUP BY player_id, payload->>'zone_id'`,
  `DELETE FROM sdk_brand_dwell_days WHERE ${KEY}`,
  // Tenths of a second, rounded as numeric (half away from zero, the same on every engine).
  `INSERT INTO sdk_brand_dwell_days (team_id, platform, game_id, day, player_id, zone_id, dwell_s, exits)
   SELECT ${ROW_KEY}, player_id, payload->>'zone_id', round((payload->>'dwell_seconds')::numeric, 1)::float8,
     count(*)::int
   ${OF_DAY('brand_zone_exit')}
   GROUP BY player_id, payload->>'zone_id', round((payload->>'dwell_seconds')::numeric, 1)::float8`,
  `DELETE FROM sdk_brand_equip_days WHERE ${KEY}`,
  `INSERT INTO sdk_brand_equip_days (team_id, platform, game_id, day, player_id, item_id, equips)
   SELECT ${ROW_KEY}, player_id, payload->>'item_id', count(*)::int
   ${OF_DAY('equip')}
   GROUP BY player_id, payload->>'item_id'`,
  `DELETE FROM sdk_brand_share_days WHERE ${KEY}`,
  `INSERT INTO sdk_brand_share_days (team_id, platform, game_id, day, player_id, share_platform, item_id, shares)
   SELECT ${ROW_KEY}, player_id, payload->>'share_platform', COALESCE(payload->>'item_id', ''), count(*)::int
   ${OF_DAY('share')}
   GROUP BY player_id, payload->>'share_platform', COALESCE(payload->>'item_id', '')`,
  `DELETE FROM sdk_brand_survey_shown WHERE ${KEY}`,
  `INSERT INTO sdk_brand_survey_shown (team_id, platform, game_id, day, player_id, survey_id, ts, cohort)
   SELECT ${ROW_KEY}, player_id, payload->>'survey_id', ts, NULLIF(payload->>'cohort', '')
   ${OF_DAY('brand_survey_shown')}`,
  `DELETE FROM sdk_brand_survey_responses WHERE ${KEY}`,
  `INSERT INTO sdk_brand_survey_responses (team_id, platform, game_id, day, player_id, survey_id, ts, answer,
     favorable, cohort)
   SELECT ${ROW_KEY}, player_id, payload->>'survey_id', ts, payload->>'answer',
     CASE WHEN jsonb_typeof(payload->'favorable') = 'boolean' THEN (payload->>'favorable')::boolean END,
     NULLIF(payload->>'cohort', '')
   ${OF_DAY('brand_survey_response')}`,
];

/** Tables of its own to ANALYZE after large rebuilds. */
export const BRAND_TABLES: readonly string[] = [
  'sdk_brand_zone_days',
  'sdk_brand_dwell_days',
  'sdk_brand_equip_days',
  'sdk_brand_share_days',
  'sdk_brand_survey_shown',
  'sdk_brand_survey_responses',
];
