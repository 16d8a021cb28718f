-- The performance view at volume (src/analytics/views/performance.repo.ts).
--
-- 1. Distinct sessions and players sampled, counted like the errors and brand views' (0031, 0032;
--    analytics/rollup.source.ts, PrevDay): each row of sdk_perf_days (a day, platform, player,
--    session and device) names the day of its entity's row before it, for four entities: the
--    session, the player (on the row's platform and on every platform), the session on that device,
--    and the player on that device (on the row's platform and on every platform). A range's counts
--    are then one scan of its rows, grouped by device. The fold finds a player's rows by the new
--    index.
ALTER TABLE sdk_perf_days ADD COLUMN session_prev date, ADD COLUMN player_prev_day date,
  ADD COLUMN player_prev_any date, ADD COLUMN device_session_prev date, ADD COLUMN device_prev_day date,
  ADD COLUMN device_prev_any date;

CREATE INDEX sdk_perf_days_player_idx ON sdk_perf_days (team_id, game_id, player_id);

UPDATE sdk_perf_days AS p
   SET session_prev = w.session_prev, player_prev_day = w.player_prev_day, player_prev_any = w.player_prev_any,
       device_session_prev = w.device_session_prev, device_prev_day = w.device_prev_day,
       device_prev_any = w.device_prev_any
  FROM (SELECT team_id, game_id, day, platform, player_id, session_id, device,
               lag(day) OVER (PARTITION BY team_id, game_id, platform, player_id, session_id ORDER BY day, device)
                 AS session_prev,
               lag(day) OVER (PARTITION BY team_id, game_id, platform, player_id ORDER BY day, session_id, device)
                 AS player_prev_day,
               lag(day) OVER (PARTITION BY team_id, game_id, player_id ORDER BY day, platform, session_id, device)
                 AS player_prev_any,
               lag(day) OVER (PARTITION BY team_id, game_id, platform, player_id, session_id, device ORDER BY day)
                 AS device_session_prev,
               lag(day) OVER (PARTITION BY team_id, game_id, platform, player_id, device ORDER BY day, session_id)
                 AS device_prev_day,
               lag(day) OVER (PARTITION BY team_id, game_id, player_id, device ORDER BY day, platform, session_id)
                 AS device_prev_any
          FROM sdk_perf_days) AS w
 WHERE p.team_id = w.team_id AND p.game_id = w.game_id AND p.day = w.day AND p.platform = w.platform
   AND p.player_id = w.player_id AND p.session_id = w.session_id AND p.device = w.device
   AND ROW(w.session_prev, w.player_prev_day, w.player_prev_any, w.device_session_prev, w.device_prev_day,
           w.device_prev_any)
     IS DISTINCT FROM ROW(NULL::date, NULL::date, NULL::date, NULL::date, NULL::date, NULL::date);

-- 2. Percentiles and the FPS histogram without a segment: per (team, platform, game, UTC day) one row
--    per device and one for every device together, each holding its samples' values at the view's
--    resolution (fps_avg and frame_time_ms_p95 rounded to 0.1, memory_mb to 1 MB, as in
--    sdk_perf_days) as a sorted array with a parallel array of how many samples had each. A 90-day
--    range then reads a few hundred rows per device instead of a row per value, and the view merges
--    them (the devices beyond the top 20: every device's counts less the top 20's). Replaces
--    sdk_perf_value_days (0028), a row per value.
CREATE TABLE sdk_perf_maps (
  team_id bigint NOT NULL,
  game_id text NOT NULL,
  platform text NOT NULL,
  day date NOT NULL,
  -- true: every device's samples together (device ''); false: one device's ('' when the samples
  -- named none).
  every_device boolean NOT NULL,
  device text NOT NULL,
  samples integer NOT NULL,
  fps double precision[] NOT NULL,
  fps_n integer[] NOT NULL,
  frame_time_ms double precision[] NOT NULL,
  frame_time_n integer[] NOT NULL,
  memory_mb double precision[] NOT NULL,
  memory_n integer[] NOT NULL,
  PRIMARY KEY (team_id, game_id, every_device, day, platform, device)
);

-- The top devices of a range without reading the arrays.
CREATE INDEX sdk_perf_maps_samples_idx ON sdk_perf_maps (team_id, game_id, every_device, day, platform, device)
  INCLUDE (samples);

-- Two value maps merged: each value once, ascending, with the sum of its counts.
CREATE FUNCTION sdk_merge_counts(a_values double precision[], a_counts integer[], b_values double precision[],
  b_counts integer[], OUT vals double precision[], OUT counts integer[])
LANGUAGE sql IMMUTABLE AS $$
  SELECT COALESCE(array_agg(v ORDER BY v), '{}'), COALESCE(array_agg(n ORDER BY v), '{}')
    FROM (SELECT v, sum(n)::int AS n
            FROM (SELECT * FROM unnest(a_values, a_counts) UNION ALL SELECT * FROM unnest(b_values, b_counts))
              AS u (v, n)
           GROUP BY v) AS m
$$;

INSERT INTO sdk_perf_maps (team_id, game_id, platform, day, every_device, device, samples, fps, fps_n,
  frame_time_ms, frame_time_n, memory_mb, memory_n)
SELECT team_id, game_id, platform, day, every_device, device,
       COALESCE(sum(samples[1]) FILTER (WHERE metric = 'n'), 0)::int,
       COALESCE(max(vals) FILTER (WHERE metric = 'f'), '{}'), COALESCE(max(samples) FILTER (WHERE metric = 'f'), '{}'),
       COALESCE(max(vals) FILTER (WHERE metric = 't'), '{}'), COALESCE(max(samples) FILTER (WHERE metric = 't'), '{}'),
       COALESCE(max(vals) FILTER (WHERE metric = 'm'), '{}'), COALESCE(max(samples) FILTER (WHERE metric = 'm'), '{}')
  FROM (SELECT team_id, game_id, platform, day, every_device, device, metric,
               array_agg(value ORDER BY value) AS vals, array_agg(samples ORDER BY value) AS samples
          FROM (SELECT team_id, game_id, platform, day, grouping(device) = 1 AS every_device,
                       COALESCE(device, '') AS device, metric, value, sum(samples)::int AS samples
                  FROM sdk_perf_value_days
                 GROUP BY GROUPING SETS ((team_id, game_id, platform, day, device, metric, value),
                                         (team_id, game_id, platform, day, metric, value))) AS v
         GROUP BY 1, 2, 3, 4, 5, 6, 7) AS a
 GROUP BY 1, 2, 3, 4, 5, 6;

DROP TABLE sdk_perf_value_days;
