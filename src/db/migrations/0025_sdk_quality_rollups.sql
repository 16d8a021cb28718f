-- SDK analytics, quality views (performance, crashes, errors: src/analytics/views/*.view.ts).
-- Each table keeps the player (a segment narrows any of them by player_id, and "players affected"
-- over a range must be distinct players, not a sum of days) and is rebuilt per (team, platform,
-- game, UTC day) by the rollup job with every other sdk_* table
-- (src/analytics/views/quality.rollup.repo.ts), so late events land in their day and nothing counts
-- twice.

-- How crash traces and error messages are normalised before they are grouped, in SQL because the
-- rollup that groups them runs in SQL (both engines are PostgreSQL: PGlite has the same regex
-- engine and md5). One line: directories of file paths dropped (down to the file name, Unix or
-- Windows), addresses (0x…), UUIDs and hex ids of 8+ digits with at least one decimal digit become
-- <hex>, then every run of digits <n> (line and column numbers, numbers in identifiers), runs of
-- white space one space, trimmed. IMMUTABLE: a change of these rules is a new migration
-- (CREATE OR REPLACE) and a rebuild of the days to regroup.
CREATE FUNCTION sdk_normalise_line(line text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT btrim(regexp_replace(regexp_replace(regexp_replace(regexp_replace(
    line,
    '(?:\m[A-Za-z]:)?(?:[^\s/\\:()\[\]"''<>]*[/\\])+', '', 'g'),
    '\m0[xX][0-9a-fA-F]+\M|\m[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}\M|\m(?=[0-9a-fA-F]*[0-9])[0-9a-fA-F]{8,}\M',
    '<hex>', 'g'),
    '[0-9]+', '<n>', 'g'),
    '\s+', ' ', 'g'))
$$;

-- A crash's frames for grouping: the first 5 lines of the trace that are not blank once
-- normalised (blank lines dropped), in order.
CREATE FUNCTION sdk_crash_frames(trace text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT COALESCE(array_agg(f ORDER BY n), '{}') FROM (
    SELECT f, n FROM (
      SELECT sdk_normalise_line(line) AS f, n
        FROM regexp_split_to_table(trace, '\r?\n') WITH ORDINALITY AS l (line, n)
    ) AS x
     WHERE f <> '' ORDER BY n LIMIT 5
  ) AS y
$$;

-- Performance samples per day, player, session and device. The values are kept (as arrays, one
-- element per sample) rounded to a fixed resolution: fps_avg and frame_time_ms_p95 to 0.1, memory_mb
-- to 1 MB. Percentiles over a range are percentile_cont of these, within half the resolution of
-- the exact ones (rounding is monotone), and days merge exactly. frame_time and memory hold only
-- the samples that sent them.
CREATE TABLE sdk_perf_days (
  team_id bigint NOT NULL,
  game_id text NOT NULL,
  platform text NOT NULL,
  day date NOT NULL,
  player_id text NOT NULL,
  -- '' when the samples had no session_id.
  session_id text NOT NULL,
  -- '' when the samples named no device.
  device text NOT NULL,
  samples integer NOT NULL,
  fps double precision[] NOT NULL,
  frame_time_ms double precision[] NOT NULL,
  memory_mb double precision[] NOT NULL,
  PRIMARY KEY (team_id, game_id, day, platform, player_id, session_id, device)
);

-- Crashes per day, player, session, group, build and OS. The group is the client's signature when
-- it sent a non-empty one (key_source 'signature'), else the md5 of the trace's normalised frames
-- joined by newlines (key_source 'frames'). sample_trace: the row's latest trace (the view shows the
-- group's latest and its frames).
CREATE TABLE sdk_crash_days (
  team_id bigint NOT NULL,
  game_id text NOT NULL,
  platform text NOT NULL,
  day date NOT NULL,
  player_id text NOT NULL,
  -- '' when the crash had no session_id (it then counts for players, not sessions).
  session_id text NOT NULL,
  key_source text NOT NULL,
  group_key text NOT NULL,
  -- '' when not sent.
  build text NOT NULL,
  os text NOT NULL,
  crashes integer NOT NULL,
  first_ts timestamptz NOT NULL,
  last_ts timestamptz NOT NULL,
  sample_trace text NOT NULL,
  PRIMARY KEY (team_id, game_id, day, platform, player_id, session_id, key_source, group_key, build, os)
);

-- Errors per day, player, severity, source ('' when not sent) and message prefix (the message
-- normalised by sdk_normalise_line, cut to 80 characters). sample_message: the row's latest message.
CREATE TABLE sdk_error_days (
  team_id bigint NOT NULL,
  game_id text NOT NULL,
  platform text NOT NULL,
  day date NOT NULL,
  player_id text NOT NULL,
  severity text NOT NULL,
  source text NOT NULL,
  prefix text NOT NULL,
  errors integer NOT NULL,
  first_ts timestamptz NOT NULL,
  last_ts timestamptz NOT NULL,
  sample_message text NOT NULL,
  PRIMARY KEY (team_id, game_id, day, platform, player_id, severity, source, prefix)
);

-- Days rolled up before these tables existed: filled from the raw events once, as the rollup job
-- would (views/quality.rollup.repo.ts; a later rebuild of a day deletes and rewrites its rows, so
-- nothing counts twice). Not by marking the days for a rebuild: a day whose raw events retention
-- already removed would lose its other rollups.
INSERT INTO sdk_perf_days (team_id, game_id, platform, day, player_id, session_id, device, samples, fps,
  frame_time_ms, memory_mb)
SELECT team_id, game_id, platform, (ts AT TIME ZONE 'UTC')::date, player_id, COALESCE(session_id, ''),
  COALESCE(payload->>'device', ''), count(*)::int, array_agg(round((payload->>'fps_avg')::float8 * 10) / 10),
  COALESCE(array_agg(round((payload->>'frame_time_ms_p95')::float8 * 10) / 10)
    FILTER (WHERE payload->>'frame_time_ms_p95' IS NOT NULL), '{}'),
  COALESCE(array_agg(round((payload->>'memory_mb')::float8)) FILTER (WHERE payload->>'memory_mb' IS NOT NULL), '{}')
  FROM events
 WHERE type = 'performance'
 GROUP BY 1, 2, 3, 4, 5, 6, 7;

INSERT INTO sdk_crash_days (team_id, game_id, platform, day, player_id, session_id, key_source, group_key, build,
  os, crashes, first_ts, last_ts, sample_trace)
SELECT team_id, game_id, platform, (ts AT TIME ZONE 'UTC')::date, player_id, COALESCE(session_id, ''),
  CASE WHEN COALESCE(payload->>'signature', '') <> '' THEN 'signature' ELSE 'frames' END,
  CASE WHEN COALESCE(payload->>'signature', '') <> '' THEN payload->>'signature'
    ELSE md5(array_to_string(sdk_crash_frames(payload->>'stack_trace'), E'\n')) END,
  COALESCE(payload->>'build', ''), COALESCE(payload->>'os', ''), count(*)::int, min(ts), max(ts),
  (array_agg(payload->>'stack_trace' ORDER BY ts DESC, event_id))[1]
  FROM events
 WHERE type = 'crash'
 GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10;

INSERT INTO sdk_error_days (team_id, game_id, platform, day, player_id, severity, source, prefix, errors, first_ts,
  last_ts, sample_message)
SELECT team_id, game_id, platform, (ts AT TIME ZONE 'UTC')::date, player_id, payload->>'severity',
  COALESCE(payload->>'source', ''), left(sdk_normalise_line(payload->>'message'), 80), count(*)::int, min(ts),
  max(ts), (array_agg(payload->>'message' ORDER BY ts DESC, event_id))[1]
  FROM events
 WHERE type = 'error'
 GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;
