/**
 * Rollups the quality views (performance, crashes, errors) keep for themselves (migrations 0025, and
 * 0033: sdk_perf_maps, the performance samples' values per day and device without the player, and the
 * previous-day columns of sdk_perf_days),
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
const TABLES: readonly string[] = ['sdk_perf_days', 'sdk_perf_maps', 'sdk_crash_days', 'sdk_error_days'];

/** sdk_perf_maps's (values, counts) column pairs. */
const PERF_MAPS = [
  ['fps', 'fps_n'],
  ['frame_time_ms', 'frame_time_n'],
  ['memory_mb', 'memory_n'],
] as const;

/** The performance view's distinct sessions and players (0033), overall and per device: the session
 * (its own platform), the player (on one platform and on every platform), the session on one device,
 * and the player on one device. A row is a (day, platform, player, session, device). */
const PERF_PREVS: readonly PrevDay[] = [
  { column: 'session_prev', entity: ['platform', 'player_id', 'session_id'], tieBreak: ['device'] },
  ...onPlatformAndAny('prev', ['player_id'], ['session_id', 'device'], 'player_'),
  { column: 'device_session_prev', entity: ['platform', 'player_id', 'session_id', 'device'] },
  ...onPlatformAndAny('prev', ['player_id', 'device'], ['session_id'], 'device_'),
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
    prevDaysSql(
      'sdk_perf_days',
      ['day', 'platform', 'player_id', 'session_id', 'device'],
      ['player_id'],
      `SELECT player_id ${FOLDED} AND type = 'performance'`,
      PERF_PREVS,
    ),
    // The day's value maps (0033): per device and for every device, each metric's values ascending
    // with their samples; a fold merges its own into the row's (sdk_merge_counts).
    `WITH s AS (
       SELECT COALESCE(payload->>'device', '') AS device, ${rounded('fps_avg', 10)} AS f,
              ${rounded('frame_time_ms_p95', 10)} AS t, ${rounded('memory_mb', 1)} AS m
         ${FOLDED} AND type = 'performance'
     ), n AS (
       SELECT grouping(device) = 1 AS every_device, COALESCE(device, '') AS device, count(*)::int AS samples
         FROM s GROUP BY GROUPING SETS ((device), ())
     ), v AS (
       SELECT grouping(device) = 1 AS every_device, COALESCE(device, '') AS device, metric, value,
              count(*)::int AS samples
         FROM s CROSS JOIN LATERAL (VALUES ('f'::"char", f), ('t', t), ('m', m)) AS x (metric, value)
        WHERE value IS NOT NULL
        GROUP BY GROUPING SETS ((device, metric, value), (metric, value))
     ), a AS (
       SELECT every_device, device, metric, array_agg(value ORDER BY value) AS vals,
              array_agg(samples ORDER BY value) AS counts
         FROM v GROUP BY 1, 2, 3
     )
     INSERT INTO sdk_perf_maps AS d (team_id, platform, game_id, day, every_device, device, samples, fps, fps_n,
       frame_time_ms, frame_time_n, memory_mb, memory_n)
     SELECT ${ROW_KEY}, n.every_device, n.device, n.samples,
       ${['f', 't', 'm'].flatMap((m) => [`COALESCE(max(a.vals) FILTER (WHERE a.metric = '${m}'), '{}')`, `COALESCE(max(a.counts) FILTER (WHERE a.metric = '${m}'), '{}')`]).join(', ')}
       FROM n LEFT JOIN a USING (every_device, device)
      GROUP BY n.every_device, n.device, n.samples
     ON CONFLICT (team_id, game_id, every_device, day, platform, device) DO UPDATE SET
       samples = d.samples + EXCLUDED.samples,
       ${PERF_MAPS.map(([v, c]) => `(${v}, ${c}) = (SELECT vals, counts FROM sdk_merge_counts(d.${v}, d.${c}, EXCLUDED.${v}, EXCLUDED.${c}))`).join(',\n       ')}`,
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
