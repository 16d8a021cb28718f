/**
 * SQL of the performance view, over sdk_perf_days (migration 0025: per day, player, session and
 * device, each sample's fps_avg and frame_time_ms_p95 rounded to 0.1 and memory_mb to 1 MB). The
 * percentiles are percentile_cont over those values of the range, so days merge exactly and each is
 * within half the resolution of the exact one. The segment and platform filters apply (scopeSql).
 * Without a segment, the percentiles and the histogram come from sdk_perf_value_days instead
 * (migration 0028: the samples per day, device and value, no player), the same percentile_cont
 * computed by walking cumulative counts (percentileOfCounts), not by sorting every sample.
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
  if (ctx.players === null) return rolledUpFigures(ctx);
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
 * Buckets without samples are absent. Without a segment, from the counts per value
 * (sdk_perf_value_days). */
export async function fpsBuckets(ctx: ViewContext): Promise<{ bucket: number; samples: number }[]> {
  if (ctx.players === null) {
    const v = await ctx.db.query<{ bucket: number; samples: number }>(
      `SELECT least(floor(value / 10), 6)::int AS bucket, sum(samples)::int AS samples
         ${VALUES_RANGE} AND metric = 'f'
        GROUP BY 1 ORDER BY 1`,
      params(ctx),
    );
    return v.rows.map((row) => ({ bucket: num(row.bucket), samples: num(row.samples) }));
  }
  const r = await ctx.db.query<{ bucket: number; samples: number }>(
    `SELECT least(floor(f / 10), 6)::int AS bucket, count(*)::int AS samples
       FROM (SELECT fps ${RANGE}) AS s CROSS JOIN LATERAL unnest(s.fps) AS f
      GROUP BY 1 ORDER BY 1`,
    params(ctx),
  );
  return r.rows.map((row) => ({ bucket: num(row.bucket), samples: num(row.samples) }));
}

// Without a segment: the percentiles from sdk_perf_value_days (migration 0028: per day and device,
// the samples per value at the resolution above), walking cumulative counts, and the distinct
// sessions, players and devices from sdk_perf_days without its value arrays.

/** The range of sdk_perf_value_days, which has no player: only for requests without a segment ($4
 * NULL, stated so a segment could never be ignored). */
const VALUES_RANGE = `FROM sdk_perf_value_days
  WHERE team_id = $1 AND game_id = $2 AND ($3::text IS NULL OR platform = $3) AND $4::text[] IS NULL
    AND day BETWEEN $5 AND $6`;

/** percentile_cont (PostgreSQL's arithmetic: position p × (N − 1), lo + (p' × (hi − lo))) of the
 * values of `sorted` (ascending value, samples > 0 each). Null without samples. */
export function percentileOfCounts(
  sorted: readonly { value: number; samples: number }[],
  p: number,
): number | null {
  let total = 0;
  for (const v of sorted) total += v.samples;
  if (total === 0) return null;
  const pos = p * (total - 1);
  const first = Math.floor(pos);
  const second = Math.ceil(pos);
  const at = (rank: number): number => {
    let seen = 0;
    for (const v of sorted) {
      seen += v.samples;
      if (rank < seen) return v.value;
    }
    return sorted[sorted.length - 1]!.value;
  };
  const lo = at(first);
  if (second <= first) return lo;
  const hi = at(second);
  return lo + (pos - first) * (hi - lo);
}

type Counted = { value: number; samples: number }[];

async function rolledUpFigures(ctx: ViewContext): Promise<PerfRow[]> {
  const top = await ctx.db.query<{ device: string }>(
    `SELECT device ${VALUES_RANGE} AND metric = 'n'
      GROUP BY device ORDER BY sum(samples) DESC, device COLLATE "C" LIMIT ${TOP_DEVICES}`,
    params(ctx),
  );
  const topDevices = top.rows.map((r) => r.device);
  const withTop = [...params(ctx), topDevices];
  const values = await ctx.db.query<{
    overall: boolean;
    dev: string | null;
    metric: string;
    value: number;
    samples: number;
  }>(
    `SELECT grouping(dev) <> 0 AS overall, dev, metric, value, sum(samples)::int AS samples
       FROM (SELECT CASE WHEN device = ANY($7::text[]) THEN device END AS dev, metric, value, samples
               ${VALUES_RANGE}) AS v
      GROUP BY GROUPING SETS ((dev, metric, value), (metric, value))
      ORDER BY 1, 2, 3, 4`,
    withTop,
  );
  const groups = new Map<
    string,
    { overall: boolean; device: string | null; n: number; f: Counted; t: Counted; m: Counted }
  >();
  const key = (overall: boolean, device: string | null) => `${overall} ${device}`;
  const groupOf = (overall: boolean, device: string | null) => {
    const k = key(overall, device);
    let g = groups.get(k);
    if (!g) {
      g = { overall, device, n: 0, f: [], t: [], m: [] };
      groups.set(k, g);
    }
    return g;
  };
  groupOf(true, null);
  for (const row of values.rows) {
    const g = groupOf(row.overall === true, row.overall ? null : row.dev);
    const c = { value: Number(row.value), samples: num(row.samples) };
    if (row.metric === 'n') g.n += c.samples;
    else if (row.metric === 'f' || row.metric === 't' || row.metric === 'm') g[row.metric].push(c);
  }
  const counts = await rolledUpDistinctCounts(ctx, withTop);
  return [...groups.values()]
    .filter((g) => g.overall || g.n > 0)
    .map((g) => {
      const c = counts.get(key(g.overall, g.device));
      const samples = g.f.reduce((a, v) => a + v.samples, 0);
      const p = (q: number) => percentileOfCounts(g.f, q) as number;
      return {
        overall: g.overall,
        device: g.device,
        samples,
        fps: samples === 0 ? null : [p(0.05), p(0.5), p(0.95)],
        frame_time_p95: percentileOfCounts(g.t, 0.95),
        memory_p50: percentileOfCounts(g.m, 0.5),
        sessions: c?.sessions ?? 0,
        players: c?.players ?? 0,
        devices: c?.devices ?? 0,
      };
    });
}

/** Distinct sessions (session_id <> ''), players and devices per group ($7: the top devices) and
 * overall, in one pass of sdk_perf_days's keys (GROUPING SETS: one hash per set). GROUPING bits
 * (dev, platform, player_id, session_id, device): 1 sessions of a group, 17 every session, 11
 * players of a group, 27 every player, 14 devices of a group, 30 every device. */
async function rolledUpDistinctCounts(
  ctx: ViewContext,
  withTop: unknown[],
): Promise<Map<string, { sessions: number; players: number; devices: number }>> {
  const r = await ctx.db.query<{ gid: number; dev: string | null; n: number }>(
    `SELECT gid, dev, count(*) FILTER (WHERE gid NOT IN (1, 17) OR session_id <> '')::int AS n
       FROM (SELECT grouping(dev, platform, player_id, session_id, device) AS gid, dev, session_id
               FROM (SELECT CASE WHEN device = ANY($7::text[]) THEN device END AS dev, device, platform,
                            player_id, session_id ${RANGE}) AS k
              GROUP BY GROUPING SETS ((dev, platform, player_id, session_id), (platform, player_id, session_id),
                (dev, player_id), (player_id), (dev, device), (device))) AS d
      GROUP BY gid, dev`,
    withTop,
  );
  const kinds: Record<number, [boolean, 'sessions' | 'players' | 'devices']> = {
    1: [false, 'sessions'],
    17: [true, 'sessions'],
    11: [false, 'players'],
    27: [true, 'players'],
    14: [false, 'devices'],
    30: [true, 'devices'],
  };
  const out = new Map<string, { sessions: number; players: number; devices: number }>();
  for (const row of r.rows) {
    const kind = kinds[num(row.gid)];
    if (!kind) continue;
    const [overall, what] = kind;
    const k = `${overall} ${overall ? null : row.dev}`;
    const c = out.get(k) ?? { sessions: 0, players: 0, devices: 0 };
    c[what] = num(row.n);
    out.set(k, c);
  }
  return out;
}
