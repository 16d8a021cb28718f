/**
 * SQL of the performance view, over sdk_perf_days (migration 0025: per day, player, session and
 * device, each sample's fps_avg and frame_time_ms_p95 rounded to 0.1 and memory_mb to 1 MB). The
 * percentiles are percentile_cont over those values of the range, so days merge exactly and each is
 * within half the resolution of the exact one. The segment and platform filters apply (scopeSql).
 */
import { num, numOrNull, scopeParams, scopeSql } from './scope.repo.js';
import type { ViewContext } from './view.js';

/** How many devices the view names; the rest are folded into one "other devices" row. */
export const TOP_DEVICES = 20;

/** The figures of one group of samples (every sample, one device, or the other devices). */
export interface PerfFigures {
  samples: number;
  sessions: number;
  players: number;
  devices: number;
  fps: [number, number, number] | null;
  frame_time_p95: number | null;
  memory_p50: number | null;
}

/** One row of perfFigures: the whole range (`overall`), a top device, or the others (`device` null,
 * `overall` false). `device` '' is the samples that named no device. */
export interface PerfRow extends PerfFigures {
  overall: boolean;
  device: string | null;
}

const RANGE = `FROM sdk_perf_days WHERE ${scopeSql()} AND day BETWEEN $5 AND $6`;

function params(ctx: ViewContext): unknown[] {
  return [...scopeParams(ctx), ctx.range.from, ctx.range.to];
}

/** The range's figures: every sample, each of the TOP_DEVICES devices with the most samples (ties
 * by name), and the other devices together. Sessions are distinct (platform, player, session_id),
 * samples without a session_id in none. */
export async function perfFigures(ctx: ViewContext): Promise<PerfRow[]> {
  const r = await ctx.db.query<Record<string, unknown>>(
    `WITH s AS (
       SELECT platform, player_id, session_id, device, samples, fps, frame_time_ms, memory_mb ${RANGE}
     ), top AS (
       SELECT device FROM s GROUP BY device ORDER BY sum(samples) DESC, device COLLATE "C" LIMIT ${TOP_DEVICES}
     ), g AS (
       SELECT s.*, t.device IS NOT NULL AS is_top, CASE WHEN t.device IS NOT NULL THEN s.device END AS dev
         FROM s LEFT JOIN top AS t USING (device)
     )
     SELECT grouping(is_top, dev) <> 0 AS overall, dev AS device, count(u.f)::int AS samples,
            (count(DISTINCT ROW(platform, player_id, session_id)) FILTER (WHERE session_id <> ''))::int AS sessions,
            count(DISTINCT player_id)::int AS players, count(DISTINCT device)::int AS devices,
            percentile_cont(ARRAY[0.05, 0.5, 0.95]::float8[]) WITHIN GROUP (ORDER BY u.f) AS fps,
            percentile_cont(0.95) WITHIN GROUP (ORDER BY u.ft) AS frame_time_p95,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY u.m) AS memory_p50
       FROM g CROSS JOIN LATERAL unnest(g.fps, g.frame_time_ms, g.memory_mb) AS u (f, ft, m)
      GROUP BY GROUPING SETS ((is_top, dev), ())`,
    params(ctx),
  );
  return r.rows.map((row) => {
    const fps = row.fps as unknown[] | null;
    return {
      overall: row.overall === true,
      device: (row.device as string | null) ?? null,
      samples: num(row.samples),
      sessions: num(row.sessions),
      players: num(row.players),
      devices: num(row.devices),
      fps: fps === null ? null : [num(fps[0]), num(fps[1]), num(fps[2])],
      frame_time_p95: numOrNull(row.frame_time_p95),
      memory_p50: numOrNull(row.memory_p50),
    };
  });
}

/** Samples per 10-fps bucket of fps_avg (as rounded to 0.1): bucket i is [10 i, 10 i + 10), 6 is 60+.
 * Buckets without samples are absent. */
export async function fpsBuckets(ctx: ViewContext): Promise<{ bucket: number; samples: number }[]> {
  const r = await ctx.db.query<{ bucket: number; samples: number }>(
    `SELECT least(floor(f / 10), 6)::int AS bucket, count(*)::int AS samples
       FROM (SELECT fps ${RANGE}) AS s CROSS JOIN LATERAL unnest(s.fps) AS f
      GROUP BY 1 ORDER BY 1`,
    params(ctx),
  );
  return r.rows.map((row) => ({ bucket: num(row.bucket), samples: num(row.samples) }));
}
