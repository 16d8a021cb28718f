-- The performance view without a segment (src/analytics/views/performance.repo.ts): per (team,
-- platform, game, UTC day, device), how many samples had each value at the view's resolution
-- (fps_avg and frame_time_ms_p95 rounded to 0.1, memory_mb to 1 MB, as in sdk_perf_days), so the
-- percentiles and the histogram of a range walk the cumulative counts of a few thousand
-- (value, samples) rows instead of sorting every sample. No player: a segment keeps reading
-- sdk_perf_days, and so do the distinct sessions and players. Rebuilt per day with the other
-- rollups (views/quality.rollup.repo.ts).
CREATE TABLE sdk_perf_value_days (
  team_id bigint NOT NULL,
  game_id text NOT NULL,
  platform text NOT NULL,
  day date NOT NULL,
  -- '' when the samples named no device.
  device text NOT NULL,
  -- 'n': every sample (value 0), 'f': fps_avg, 't': frame_time_ms_p95, 'm': memory_mb (the samples
  -- that sent it).
  metric "char" NOT NULL,
  value double precision NOT NULL,
  samples integer NOT NULL,
  PRIMARY KEY (team_id, game_id, day, platform, device, metric, value)
);

-- Days rolled up before this table existed: from sdk_perf_days, which holds the same rounded values
-- (so days whose raw events retention removed keep their figures).
INSERT INTO sdk_perf_value_days (team_id, game_id, platform, day, device, metric, value, samples)
SELECT team_id, game_id, platform, day, device, 'n', 0, sum(samples)::int
  FROM sdk_perf_days
 GROUP BY 1, 2, 3, 4, 5
UNION ALL
SELECT d.team_id, d.game_id, d.platform, d.day, d.device, v.metric, v.value, count(*)::int
  FROM sdk_perf_days AS d
 CROSS JOIN LATERAL (
   SELECT 'f'::"char", f FROM unnest(d.fps) AS f
   UNION ALL SELECT 't'::"char", t FROM unnest(d.frame_time_ms) AS t
   UNION ALL SELECT 'm'::"char", m FROM unnest(d.memory_mb) AS m
 ) AS v (metric, value)
 WHERE v.value IS NOT NULL
 GROUP BY 1, 2, 3, 4, 5, 6, 7;
