/**
 * Rollups the quality views (performance, crashes, errors) keep for themselves (migrations 0025, and
 * 0028: sdk_perf_value_days, the performance samples per device and rounded value without the player),
 * folded like every rollup (rollup.source.ts). Traces and messages are normalised by the SQL
 * functions of 0025 (sdk_crash_frames, sdk_normalise_line): the one implementation, used here and by
 * the crashes view. A crash group's or error prefix's sample is its latest event's (ties to the
 * smallest event id): a fold keeps the newer of the row's and its own.
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

/** A payload number rounded to `step` (0.1 or 1): the resolution the percentiles are stated at. */
const rounded = (field: string, perUnit: number) =>
  perUnit === 1
    ? `round((payload->>'${field}')::float8)`
    : `round((payload->>'${field}')::float8 * ${perUnit}) / ${perUnit}`;
const sent = (field: string) => `payload->>'${field}' IS NOT NULL`;

/** The crash's group: the non-empty signature, else the md5 of its normalised frames. */
const SIGNED = `COALESCE(payload->>'signature', '') <> ''`;

/** The sample `column` of the row `r` or of the folded rows (EXCLUDED), whichever is newer. */
const newer = (r: string, column: string) => `CASE WHEN EXCLUDED.last_ts > ${r}.last_ts
    OR (EXCLUDED.last_ts = ${r}.last_ts AND EXCLUDED.sample_event_id < ${r}.sample_event_id)
  THEN EXCLUDED.${column} ELSE ${r}.${column} END`;

/** The tables kept here, one row set per day. */
const TABLES: readonly string[] = [
  'sdk_perf_days',
  'sdk_perf_value_days',
  'sdk_crash_days',
  'sdk_error_days',
];

const ERROR_GROUP = ['severity', 'source', 'prefix'];

/** The errors view's distinct players (0031): per group and per severity, on one platform and on
 * every platform (a player's rows on two platforms one day: the first platform's counts). */
const ERROR_PREVS: readonly PrevDay[] = [
  ...onPlatformAndAny('prev', ['player_id', ...ERROR_GROUP]),
  ...onPlatformAndAny('prev', ['player_id', 'severity'], ['source', 'prefix'], 'severity_'),
];

export const QUALITY_ROLLUP: RollupSql = {
  clear: clearDays(TABLES),
  fold: [
    `INSERT INTO sdk_perf_days AS d (team_id, platform, game_id, day, player_id, session_id, device, samples, fps,
       frame_time_ms, memory_mb)
     SELECT ${ROW_KEY}, player_id, COALESCE(session_id, ''),
       COALESCE(payload->>'device', ''), count(*)::int, array_agg(${rounded('fps_avg', 10)}),
       COALESCE(array_agg(${rounded('frame_time_ms_p95', 10)}) FILTER (WHERE ${sent('frame_time_ms_p95')}), '{}'),
       COALESCE(array_agg(${rounded('memory_mb', 1)}) FILTER (WHERE ${sent('memory_mb')}), '{}')
     ${FOLDED} AND type = 'performance'
     GROUP BY player_id, COALESCE(session_id, ''), COALESCE(payload->>'device', '')
     ON CONFLICT (team_id, game_id, day, platform, player_id, session_id, device) DO UPDATE SET
       samples = d.samples + EXCLUDED.samples, fps = d.fps || EXCLUDED.fps,
       frame_time_ms = d.frame_time_ms || EXCLUDED.frame_time_ms, memory_mb = d.memory_mb || EXCLUDED.memory_mb`,
    `INSERT INTO sdk_perf_value_days AS d (team_id, platform, game_id, day, device, metric, value, samples)
     SELECT ${ROW_KEY}, COALESCE(payload->>'device', ''), v.metric, v.value, count(*)::int
       FROM sdk_fold CROSS JOIN LATERAL (VALUES ('n'::"char", 0::float8), ('f', ${rounded('fps_avg', 10)}),
         ('t', ${rounded('frame_time_ms_p95', 10)}), ('m', ${rounded('memory_mb', 1)})) AS v (metric, value)
      WHERE team_id = $1 AND platform = $2 AND game_id = $3 AND day = $4 AND type = 'performance'
        AND v.value IS NOT NULL
      GROUP BY 5, 6, 7
     ON CONFLICT (team_id, game_id, day, platform, device, metric, value) DO UPDATE SET
       samples = d.samples + EXCLUDED.samples`,
    `INSERT INTO sdk_crash_days AS d (team_id, platform, game_id, day, player_id, session_id, key_source, group_key,
       build, os, crashes, first_ts, last_ts, sample_trace, sample_event_id)
     SELECT ${ROW_KEY}, player_id, COALESCE(session_id, ''),
       CASE WHEN ${SIGNED} THEN 'signature' ELSE 'frames' END,
       CASE WHEN ${SIGNED} THEN payload->>'signature'
         ELSE md5(array_to_string(sdk_crash_frames(payload->>'stack_trace'), E'\\n')) END,
       COALESCE(payload->>'build', ''), COALESCE(payload->>'os', ''), count(*)::int, min(ts), max(ts),
       (array_agg(payload->>'stack_trace' ORDER BY ts DESC, event_id))[1],
       (array_agg(event_id ORDER BY ts DESC, event_id))[1]
     ${FOLDED} AND type = 'crash'
     GROUP BY 5, 6, 7, 8, 9, 10
     ON CONFLICT (team_id, game_id, day, platform, player_id, session_id, key_source, group_key, build, os)
     DO UPDATE SET
       crashes = d.crashes + EXCLUDED.crashes, first_ts = LEAST(d.first_ts, EXCLUDED.first_ts),
       last_ts = GREATEST(d.last_ts, EXCLUDED.last_ts), sample_trace = ${newer('d', 'sample_trace')},
       sample_event_id = ${newer('d', 'sample_event_id')}`,
    `INSERT INTO sdk_error_days AS d (team_id, platform, game_id, day, player_id, severity, source, prefix, errors,
       first_ts, last_ts, sample_message, sample_event_id)
     SELECT ${ROW_KEY}, player_id, payload->>'severity', COALESCE(payload->>'source', ''),
       left(sdk_normalise_line(payload->>'message'), 80), count(*)::int, min(ts), max(ts),
       (array_agg(payload->>'message' ORDER BY ts DESC, event_id))[1],
       (array_agg(event_id ORDER BY ts DESC, event_id))[1]
     ${FOLDED} AND type = 'error'
     GROUP BY 5, 6, 7, 8
     ON CONFLICT (team_id, game_id, day, platform, player_id, severity, source, prefix) DO UPDATE SET
       errors = d.errors + EXCLUDED.errors, first_ts = LEAST(d.first_ts, EXCLUDED.first_ts),
       last_ts = GREATEST(d.last_ts, EXCLUDED.last_ts), sample_message = ${newer('d', 'sample_message')},
       sample_event_id = ${newer('d', 'sample_event_id')}`,
    prevDaysSql(
      'sdk_error_days',
      ['day', 'platform', 'player_id', ...ERROR_GROUP],
      ['player_id', 'severity'],
      `SELECT player_id, payload->>'severity' ${FOLDED} AND type = 'error'`,
      ERROR_PREVS,
    ),
  ],
  tables: TABLES,
};
