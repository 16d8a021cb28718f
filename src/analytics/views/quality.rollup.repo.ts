/**
 * Rollups the quality views (performance, crashes, errors) keep for themselves (migrations 0025, and
 * 0028: sdk_perf_value_days, the performance samples per device and rounded value without the player),
 * rebuilt with every day (rollups.repo.ts REBUILD_ALL; parameters: $1 team, $2 platform, $3 game,
 * $4 day, $5..$6 the day's start and end). Each insert is one pass over the day's events of one
 * type (`type = '…'` lets the (team_id, game_id, type, ts) index range on ts). Traces and messages
 * are normalised by the SQL functions of 0025 (sdk_crash_frames, sdk_normalise_line): the one
 * implementation, used here and by the crashes view.
 */

const KEY = 'team_id = $1 AND platform = $2 AND game_id = $3 AND day = $4';
const OF_TYPE = (type: string) => `FROM events
  WHERE team_id = $1 AND game_id = $3 AND type = '${type}' AND ts >= $5 AND ts < $6 AND platform = $2`;

/** A payload number rounded to `step` (0.1 or 1): the resolution the percentiles are stated at. */
const rounded = (field: string, perUnit: number) =>
  perUnit === 1
    ? `round((payload->>'${field}')::float8)`
    : `round((payload->>'${field}')::float8 * ${perUnit}) / ${perUnit}`;
const sent = (field: string) => `payload->>'${field}' IS NOT NULL`;

/** The crash's group: the non-empty signature, else the md5 of its normalised frames. */
const SIGNED = `COALESCE(payload->>'signature', '') <> ''`;

/** Statements run, in order, after the core rebuild of a day. */
export const QUALITY_REBUILD: readonly string[] = [
  `DELETE FROM sdk_perf_days WHERE ${KEY}`,
  `INSERT INTO sdk_perf_days (team_id, game_id, platform, day, player_id, session_id, device, samples, fps,
     frame_time_ms, memory_mb)
   SELECT $1::bigint, $3::text, $2::text, $4::date, player_id, COALESCE(session_id, ''),
     COALESCE(payload->>'device', ''), count(*)::int, array_agg(${rounded('fps_avg', 10)}),
     COALESCE(array_agg(${rounded('frame_time_ms_p95', 10)}) FILTER (WHERE ${sent('frame_time_ms_p95')}), '{}'),
     COALESCE(array_agg(${rounded('memory_mb', 1)}) FILTER (WHERE ${sent('memory_mb')}), '{}')
   ${OF_TYPE('performance')}
   GROUP BY player_id, COALESCE(session_id, ''), COALESCE(payload->>'device', '')`,
  `DELETE FROM sdk_perf_value_days WHERE ${KEY}`,
  `INSERT INTO sdk_perf_value_days (team_id, game_id, platform, day, device, metric, value, samples)
   SELECT $1::bigint, $3::text, $2::text, $4::date, COALESCE(payload->>'device', ''), v.metric, v.value, count(*)::int
     FROM events CROSS JOIN LATERAL (VALUES ('n'::"char", 0::float8), ('f', ${rounded('fps_avg', 10)}),
       ('t', ${rounded('frame_time_ms_p95', 10)}), ('m', ${rounded('memory_mb', 1)})) AS v (metric, value)
    WHERE team_id = $1 AND game_id = $3 AND type = 'performance' AND ts >= $5 AND ts < $6 AND platform = $2
      AND v.value IS NOT NULL
    GROUP BY 5, 6, 7`,
  `DELETE FROM sdk_crash_days WHERE ${KEY}`,
  `INSERT INTO sdk_crash_days (team_id, game_id, platform, day, player_id, session_id, key_source, group_key,
     build, os, crashes, first_ts, last_ts, sample_trace)
   SELECT $1::bigint, $3::text, $2::text, $4::date, player_id, COALESCE(session_id, ''),
     CASE WHEN ${SIGNED} THEN 'signature' ELSE 'frames' END,
     CASE WHEN ${SIGNED} THEN payload->>'signature'
       ELSE md5(array_to_string(sdk_crash_frames(payload->>'stack_trace'), E'\\n')) END,
     COALESCE(payload->>'build', ''), COALESCE(payload->>'os', ''), count(*)::int, min(ts), max(ts),
     (array_agg(payload->>'stack_trace' ORDER BY ts DESC, event_id))[1]
   ${OF_TYPE('crash')}
   GROUP BY 5, 6, 7, 8, 9, 10`,
  `DELETE FROM sdk_error_days WHERE ${KEY}`,
  `INSERT INTO sdk_error_days (team_id, game_id, platform, day, player_id, severity, source, prefix, errors,
     first_ts, last_ts, sample_message)
   SELECT $1::bigint, $3::text, $2::text, $4::date, player_id, payload->>'severity', COALESCE(payload->>'source', ''),
     left(sdk_normalise_line(payload->>'message'), 80), count(*)::int, min(ts), max(ts),
     (array_agg(payload->>'message' ORDER BY ts DESC, event_id))[1]
   ${OF_TYPE('error')}
   GROUP BY 5, 6, 7, 8`,
];

/** Tables of its own to ANALYZE after large rebuilds. */
export const QUALITY_TABLES: readonly string[] = [
  'sdk_perf_days',
  'sdk_perf_value_days',
  'sdk_crash_days',
  'sdk_error_days',
];
