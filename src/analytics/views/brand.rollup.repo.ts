/**
 * Rollups the brand and brand-lift views keep for themselves (migration 0026), folded like every
 * rollup (rollup.source.ts): per player and day, zone entries, dwell exits per rounded dwell time,
 * equips and shares; survey impressions and answers one row each.
 */
import {
  clearDays,
  FOLDED,
  onPlatformAndAny,
  type PrevDay,
  prevDaysSql,
  ROW_KEY,
  type RollupSql,
} from '../rollup.source.js';

const KEY = 'team_id, game_id, day, platform, player_id';

/** The zone and item rows' previous (and next) days (0032): a player once per zone or item, and
 * once over every zone or item, on one platform and on every platform. */
const perPlayerOf = (thing: string, repeat: boolean): PrevDay[] => [
  ...onPlatformAndAny('prev', ['player_id', thing]),
  ...(repeat ? onPlatformAndAny('next', ['player_id', thing]) : []),
  ...onPlatformAndAny('prev', ['player_id'], [thing], 'player_'),
];

/** The tables kept here, one row set per day. */
const TABLES: readonly string[] = [
  'sdk_brand_zone_days',
  'sdk_brand_dwell_days',
  'sdk_brand_equip_days',
  'sdk_brand_share_days',
  'sdk_brand_survey_shown',
  'sdk_brand_survey_responses',
];

export const BRAND_ROLLUP: RollupSql = {
  clear: clearDays(TABLES),
  fold: [
    `INSERT INTO sdk_brand_zone_days AS d (team_id, platform, game_id, day, player_id, zone_id, entries)
     SELECT ${ROW_KEY}, player_id, payload->>'zone_id', count(*)::int
     ${FOLDED} AND type = 'brand_zone_enter'
     GROUP BY player_id, payload->>'zone_id'
     ON CONFLICT (${KEY}, zone_id) DO UPDATE SET entries = d.entries + EXCLUDED.entries`,
    prevDaysSql(
      'sdk_brand_zone_days',
      ['day', 'platform', 'player_id', 'zone_id'],
      ['player_id'],
      `SELECT player_id ${FOLDED} AND type = 'brand_zone_enter'`,
      perPlayerOf('zone_id', false),
    ),
    // Tenths of a second, rounded as numeric (half away from zero, the same on every engine).
    `INSERT INTO sdk_brand_dwell_days AS d (team_id, platform, game_id, day, player_id, zone_id, dwell_s, exits)
     SELECT ${ROW_KEY}, player_id, payload->>'zone_id', round((payload->>'dwell_seconds')::numeric, 1)::float8,
       count(*)::int
     ${FOLDED} AND type = 'brand_zone_exit'
     GROUP BY player_id, payload->>'zone_id', round((payload->>'dwell_seconds')::numeric, 1)::float8
     ON CONFLICT (${KEY}, zone_id, dwell_s) DO UPDATE SET exits = d.exits + EXCLUDED.exits`,
    `INSERT INTO sdk_brand_equip_days AS d (team_id, platform, game_id, day, player_id, item_id, equips)
     SELECT ${ROW_KEY}, player_id, payload->>'item_id', count(*)::int
     ${FOLDED} AND type = 'equip'
     GROUP BY player_id, payload->>'item_id'
     ON CONFLICT (${KEY}, item_id) DO UPDATE SET equips = d.equips + EXCLUDED.equips`,
    prevDaysSql(
      'sdk_brand_equip_days',
      ['day', 'platform', 'player_id', 'item_id'],
      ['player_id'],
      `SELECT player_id ${FOLDED} AND type = 'equip'`,
      perPlayerOf('item_id', true),
    ),
    `INSERT INTO sdk_brand_share_days AS d (team_id, platform, game_id, day, player_id, share_platform, item_id,
       shares)
     SELECT ${ROW_KEY}, player_id, payload->>'share_platform', COALESCE(payload->>'item_id', ''), count(*)::int
     ${FOLDED} AND type = 'share'
     GROUP BY player_id, payload->>'share_platform', COALESCE(payload->>'item_id', '')
     ON CONFLICT (${KEY}, share_platform, item_id) DO UPDATE SET shares = d.shares + EXCLUDED.shares`,
    `INSERT INTO sdk_brand_survey_shown (team_id, platform, game_id, day, player_id, survey_id, ts, cohort)
     SELECT ${ROW_KEY}, player_id, payload->>'survey_id', ts, NULLIF(payload->>'cohort', '')
     ${FOLDED} AND type = 'brand_survey_shown'`,
    `INSERT INTO sdk_brand_survey_responses (team_id, platform, game_id, day, player_id, survey_id, ts, answer,
       favorable, cohort)
     SELECT ${ROW_KEY}, player_id, payload->>'survey_id', ts, payload->>'answer',
       CASE WHEN jsonb_typeof(payload->'favorable') = 'boolean' THEN (payload->>'favorable')::boolean END,
       NULLIF(payload->>'cohort', '')
     ${FOLDED} AND type = 'brand_survey_response'`,
  ],
  tables: TABLES,
};
