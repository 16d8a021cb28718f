/**
 * SQL of the performance view, over sdk_perf_days (migration 0025: per day, platform, player,
 * session and device, each sample's fps_avg and frame_time_ms_p95 rounded to 0.1 and memory_mb to
 * 1 MB) and sdk_perf_maps (0033: per day, platform and device, and for every device, the samples per
 * value at that resolution).
 *
 * Distinct sessions and players are counted from sdk_perf_days's previous-day columns (0033): one
 * scan of the range's rows, grouped by device, with or without a segment. Percentiles are
 * percentile_cont over the rounded values, so days merge exactly and each is within half the
 * resolution of the exact one. Without a segment they and the histogram come from the value maps,
 * merged here (the devices beyond the top 20 are every device's counts less the top 20's) and walked
 * by cumulative count (daily.ts, percentile); with one, PostgreSQL sorts the segment's samples.
 */
import { type Histogram, percentile } from './daily.js';
import { firstInRange, num, numOrNull, scopeParams, scopeSql } from './scope.repo.js';
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

/** The range's figures: every sample, each of the TOP_DEVICES devices with the most samples (ties by
 * name, compared as bytes), most samples first, and the other devices together (null: none).
 * `device` '' is the samples that named no device. */
export interface Performance {
  overall: PerfFigures;
  devices: (PerfFigures & { device: string })[];
  other: PerfFigures | null;
  /** Samples per 10-fps bucket of fps_avg (as rounded to 0.1): bucket i is [10 i, 10 i + 10), 6 is
   * 60 and more. */
  buckets: number[];
}

function params(ctx: ViewContext): unknown[] {
  return [...scopeParams(ctx), ctx.range.from, ctx.range.to];
}

const RANGE = `FROM sdk_perf_days WHERE ${scopeSql()} AND day BETWEEN $5 AND $6`;

/** Strings in PostgreSQL's "C" order (bytes of UTF-8). */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

export async function performanceFigures(ctx: ViewContext): Promise<Performance> {
  // Without a segment the top devices come off an index first, so the counts' scan and the value
  // maps' read run side by side; a segment's top devices are its own (from the counts).
  const top = ctx.players === null ? await topDevices(ctx) : null;
  const [counts, values] = await Promise.all([deviceCounts(ctx), top === null ? null : valueMaps(ctx, top)]);
  const ranked = [...counts.values()].sort((a, b) => b.samples - a.samples || byBytes(a.device, b.device));
  const named = top ?? ranked.slice(0, TOP_DEVICES).map((c) => c.device);
  const dist = values ?? (await sortedPercentiles(ctx, named));
  const isTop = new Set(named);
  const others = ranked.filter((c) => !isTop.has(c.device));
  const sum = (rows: DeviceCounts[], k: keyof Omit<DeviceCounts, 'device'>) =>
    rows.reduce((a, r) => a + r[k], 0);
  const all = [...counts.values()];
  const figures = (
    c: { samples: number; sessions: number; players: number; devices: number },
    d: Percentiles | undefined,
  ): PerfFigures => ({
    ...c,
    fps: d?.fps ?? null,
    frame_time_p95: d?.frame_time_p95 ?? null,
    memory_p50: d?.memory_p50 ?? null,
  });
  return {
    overall: figures(
      {
        samples: sum(all, 'samples'),
        sessions: sum(all, 'firstSessions'),
        players: sum(all, 'firstPlayers'),
        devices: all.length,
      },
      dist.overall,
    ),
    devices: named
      .map((device) => counts.get(device))
      .filter((c) => c !== undefined)
      .map((c) => ({ device: c.device, ...figures({ ...c, devices: 1 }, dist.devices.get(c.device)) })),
    other:
      others.length === 0
        ? null
        : figures(
            {
              samples: sum(others, 'samples'),
              sessions: sum(others, 'sessions'),
              players: sum(others, 'players'),
              devices: others.length,
            },
            dist.other,
          ),
    buckets: dist.buckets,
  };
}

/** The TOP_DEVICES devices with the most samples in the range, without a segment (the maps' index). */
async function topDevices(ctx: ViewContext): Promise<string[]> {
  const r = await ctx.db.query<{ device: string }>(
    `SELECT device ${MAPS_RANGE} AND NOT every_device
      GROUP BY device ORDER BY sum(samples) DESC, device COLLATE "C" LIMIT ${TOP_DEVICES}`,
    params(ctx),
  );
  return r.rows.map((row) => row.device);
}

interface DeviceCounts {
  device: string;
  samples: number;
  /** Distinct sessions (platform, player, session_id; samples without a session_id in none) and
   * players sampled on the device. */
  sessions: number;
  players: number;
  /** Of the distinct sessions and players over every device, those whose first row of the range is
   * on this device (they add up to the range's). */
  firstSessions: number;
  firstPlayers: number;
}

/** Per device with samples in the range: its samples and distinct sessions and players, from one scan
 * of the range's rows (previous-day columns: a row counts an entity when it is the entity's first
 * in the range). A segment keeps or drops all of a player's rows, so the counts stay exact. */
async function deviceCounts(ctx: ViewContext): Promise<Map<string, DeviceCounts>> {
  const r = await ctx.db.query<Record<string, unknown>>(
    `SELECT device, sum(samples)::int AS samples,
            count(*) FILTER (WHERE session_id <> '' AND ${firstInRange('device_session_prev')})::int AS sessions,
            count(*) FILTER (WHERE ${firstInRange('device_prev_day', 'device_prev_any')})::int AS players,
            count(*) FILTER (WHERE session_id <> '' AND ${firstInRange('session_prev')})::int AS first_sessions,
            count(*) FILTER (WHERE ${firstInRange('player_prev_day', 'player_prev_any')})::int AS first_players
       ${RANGE}
      GROUP BY device`,
    params(ctx),
  );
  return new Map(
    r.rows.map((row) => {
      const device = row.device as string;
      return [
        device,
        {
          device,
          samples: num(row.samples),
          sessions: num(row.sessions),
          players: num(row.players),
          firstSessions: num(row.first_sessions),
          firstPlayers: num(row.first_players),
        },
      ];
    }),
  );
}

type Percentiles = Pick<PerfFigures, 'fps' | 'frame_time_p95' | 'memory_p50'>;

interface Distributions {
  overall: Percentiles | undefined;
  devices: Map<string, Percentiles>;
  other: Percentiles | undefined;
  buckets: number[];
}

/** With a segment: percentile_cont over the segment's samples of the range, per named device, for
 * the others together and for all of them (GROUPING SETS), and the histogram. */
async function sortedPercentiles(ctx: ViewContext, named: string[]): Promise<Distributions> {
  const withNamed = [...params(ctx), named];
  const [r, b] = await Promise.all([
    ctx.db.query<Record<string, unknown>>(
      `WITH g AS (
         SELECT device = ANY($7::text[]) AS is_top, CASE WHEN device = ANY($7::text[]) THEN device END AS dev,
                fps, frame_time_ms, memory_mb ${RANGE}
       )
       SELECT grouping(is_top, dev) <> 0 AS overall, dev AS device,
              percentile_cont(ARRAY[0.05, 0.5, 0.95]::float8[]) WITHIN GROUP (ORDER BY u.f) AS fps,
              percentile_cont(0.95) WITHIN GROUP (ORDER BY u.ft) AS frame_time_p95,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY u.m) AS memory_p50
         FROM g CROSS JOIN LATERAL unnest(g.fps, g.frame_time_ms, g.memory_mb) AS u (f, ft, m)
        GROUP BY GROUPING SETS ((is_top, dev), ())`,
      withNamed,
    ),
    ctx.db.query<{ value: number; samples: number }>(
      `SELECT f AS value, count(*)::int AS samples
         FROM (SELECT fps ${RANGE}) AS s CROSS JOIN LATERAL unnest(s.fps) AS f
        GROUP BY 1 ORDER BY 1`,
      params(ctx),
    ),
  ]);
  const out: Distributions = {
    overall: undefined,
    devices: new Map(),
    other: undefined,
    buckets: fpsBuckets({
      values: b.rows.map((row) => num(row.value)),
      counts: b.rows.map((row) => num(row.samples)),
    }),
  };
  for (const row of r.rows) {
    const fps = row.fps as unknown[] | null;
    const p: Percentiles = {
      fps: fps === null ? null : [num(fps[0]), num(fps[1]), num(fps[2])],
      frame_time_p95: numOrNull(row.frame_time_p95),
      memory_p50: numOrNull(row.memory_p50),
    };
    if (row.overall === true) out.overall = p;
    else if (row.device === null) out.other = p;
    else out.devices.set(row.device as string, p);
  }
  return out;
}

/** Samples per 10-fps bucket of an fps_avg histogram: [10 i, 10 i + 10), the last 60 and more. */
function fpsBuckets(fps: Histogram): number[] {
  const buckets = [0, 0, 0, 0, 0, 0, 0];
  for (let i = 0; i < fps.values.length; i += 1)
    buckets[Math.min(Math.floor(fps.values[i]! / 10), 6)]! += fps.counts[i]!;
  return buckets;
}

/** sdk_perf_maps of the range, without a segment ($4 NULL, stated so a segment could never be
 * ignored). */
const MAPS_RANGE = `FROM sdk_perf_maps
  WHERE team_id = $1 AND game_id = $2 AND ($3::text IS NULL OR platform = $3) AND $4::text[] IS NULL
    AND day BETWEEN $5 AND $6`;

/** A group's samples per value, one map per metric (fps_avg, frame_time_ms_p95, memory_mb). */
type ValueCounts = [Map<number, number>, Map<number, number>, Map<number, number>];

const newCounts = (): ValueCounts => [new Map(), new Map(), new Map()];

/** Without a segment: every device's and the named devices' value maps of the range (arrays sent as
 * text: splitting them is far quicker than parsing array literals), added up per group as they are
 * read (a histogram per row, then merged, took 15% longer on a synthetic 90 days of rows). */
async function valueMaps(ctx: ViewContext, named: string[]): Promise<Distributions> {
  const r = await ctx.db.query<{ every_device: boolean; device: string; maps: string[] }>(
    `SELECT every_device, device,
            ARRAY[array_to_string(fps, ','), array_to_string(fps_n, ','), array_to_string(frame_time_ms, ','),
                  array_to_string(frame_time_n, ','), array_to_string(memory_mb, ','),
                  array_to_string(memory_n, ',')] AS maps
       ${MAPS_RANGE} AND (every_device OR device = ANY($7::text[]))`,
    [...params(ctx), named],
  );
  const every = newCounts();
  const devices = new Map<string, ValueCounts>();
  for (const row of r.rows) {
    let into = every;
    if (!row.every_device) {
      into = devices.get(row.device) ?? newCounts();
      devices.set(row.device, into);
    }
    for (let m = 0; m < 3; m += 1) addCounts(into[m]!, row.maps[2 * m]!, row.maps[2 * m + 1]!);
  }
  // The other devices: every device's counts less the named ones'.
  const other = every.map((all, m) => {
    const left = new Map(all);
    for (const d of devices.values()) for (const [v, n] of d[m]!) left.set(v, left.get(v)! - n);
    return left;
  }) as ValueCounts;
  const overall = histograms(every);
  return {
    overall: percentilesOf(overall),
    devices: new Map([...devices].map(([d, c]) => [d, percentilesOf(histograms(c))])),
    other: percentilesOf(histograms(other)),
    buckets: fpsBuckets(overall[0]),
  };
}

/** Adds a value map, as array_to_string writes its two arrays (comma-separated), to `into`. */
function addCounts(into: Map<number, number>, values: string, counts: string): void {
  if (values === '') return;
  const v = values.split(',');
  const n = counts.split(',');
  for (let i = 0; i < v.length; i += 1) {
    const value = Number(v[i]);
    into.set(value, (into.get(value) ?? 0) + Number(n[i]));
  }
}

/** Each metric's counts as a histogram (values ascending; values left at 0 samples dropped). */
function histograms(c: ValueCounts): [Histogram, Histogram, Histogram] {
  return c.map((map) => {
    const values = [...map.keys()].filter((v) => map.get(v)! > 0).sort((a, b) => a - b);
    return { values, counts: values.map((v) => map.get(v)!) };
  }) as [Histogram, Histogram, Histogram];
}

function percentilesOf([f, t, m]: [Histogram, Histogram, Histogram]): Percentiles {
  const p5 = percentile(f, 0.05);
  return {
    fps: p5 === null ? null : [p5, percentile(f, 0.5)!, percentile(f, 0.95)!],
    frame_time_p95: percentile(t, 0.95),
    memory_p50: percentile(m, 0.5),
  };
}
