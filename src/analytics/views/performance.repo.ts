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

/** The groups' rows (s: the range's rows; g: with `dev`, the device when among the TOP_DEVICES
 * with the most samples (ties by name), else NULL) as CTEs over $1..$6. */
const GROUPS = `s AS (
    SELECT platform, player_id, session_id, device, samples, fps, frame_time_ms, memory_mb ${RANGE}
  ), top AS (
    SELECT device FROM s GROUP BY device ORDER BY sum(samples) DESC, device COLLATE "C" LIMIT ${TOP_DEVICES}
  ), g AS (
    SELECT s.*, t.device IS NOT NULL AS is_top, CASE WHEN t.device IS NOT NULL THEN s.device END AS dev
      FROM s LEFT JOIN top AS t USING (device)
  )`;

/** The range's figures: every sample, each of the TOP_DEVICES devices, and the other devices
 * together. Sessions are distinct (platform, player, session_id), samples without a session_id in
 * none. */
export async function perfFigures(ctx: ViewContext): Promise<PerfRow[]> {
  const [figures, counts] = [await percentiles(ctx), await distinctCounts(ctx)];
  const keyOf = (overall: boolean, device: string | null) => `${overall} ${device}`;
  const found = new Map(counts.map((c) => [keyOf(c.overall, c.device), c]));
  return figures.map((f) => {
    const c = found.get(keyOf(f.overall, f.device));
    return { ...f, sessions: c?.sessions ?? 0, players: c?.players ?? 0, devices: c?.devices ?? 0 };
  });
}

type Percentiles = Omit<PerfRow, 'sessions' | 'players' | 'devices'>;

/** Samples and percentiles per group (GROUPING SETS: each group, and every sample). */
async function percentiles(ctx: ViewContext): Promise<Percentiles[]> {
  const r = await ctx.db.query<Record<string, unknown>>(
    `WITH ${GROUPS}
     SELECT grouping(is_top, dev) <> 0 AS overall, dev AS device, count(u.f)::int AS samples,
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
      fps: fps === null ? null : [num(fps[0]), num(fps[1]), num(fps[2])],
      frame_time_p95: numOrNull(row.frame_time_p95),
      memory_p50: numOrNull(row.memory_p50),
    };
  });
}

/** Distinct sessions, players and devices per group and overall: DISTINCT then count (hashed),
 * where count(DISTINCT ROW(…)) sorted every row of every grouping set. */
async function distinctCounts(
  ctx: ViewContext,
): Promise<
  { overall: boolean; device: string | null; sessions: number; players: number; devices: number }[]
> {
  const r = await ctx.db.query<{ overall: boolean; device: string | null; kind: string; n: number }>(
    `WITH ${GROUPS}
     SELECT false AS overall, dev AS device, 'sessions' AS kind, count(*)::int AS n
       FROM (SELECT DISTINCT dev, platform, player_id, session_id FROM g WHERE session_id <> '') AS d GROUP BY dev
     UNION ALL
     SELECT true, NULL, 'sessions', count(*)::int
       FROM (SELECT DISTINCT platform, player_id, session_id FROM g WHERE session_id <> '') AS d
     UNION ALL
     SELECT false, dev, 'players', count(*)::int FROM (SELECT DISTINCT dev, player_id FROM g) AS d GROUP BY dev
     UNION ALL
     SELECT true, NULL, 'players', count(*)::int FROM (SELECT DISTINCT player_id FROM g) AS d
     UNION ALL
     SELECT false, dev, 'devices', count(*)::int FROM (SELECT DISTINCT dev, device FROM g) AS d GROUP BY dev
     UNION ALL
     SELECT true, NULL, 'devices', count(*)::int FROM (SELECT DISTINCT device FROM g) AS d`,
    params(ctx),
  );
  const out = new Map<
    string,
    { overall: boolean; device: string | null; sessions: number; players: number; devices: number }
  >();
  for (const row of r.rows) {
    const key = `${row.overall} ${row.device}`;
    const c = out.get(key) ?? {
      overall: row.overall,
      device: row.device,
      sessions: 0,
      players: 0,
      devices: 0,
    };
    c[row.kind as 'sessions' | 'players' | 'devices'] = num(row.n);
    out.set(key, c);
  }
  return [...out.values()];
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
