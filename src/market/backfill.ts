/**
 * Backfill: writes `days` of past history from a source that can replay the past (the simulated
 * market), so every market endpoint is meaningful on a fresh install. It writes what the tiers
 * would hold had the collector run all along: daily rollups for every day, hourly rollups for the
 * last 8 days (the 24 h view, and genre growth against the same hour a week ago) and every 4th hour
 * of the 7 days before (the 7 d view compares two weeks; a 7 d history point spans 7 hours), raw samples for the last 12 hours (the 1 h and
 * 6 h views), and genre snapshots every 6 hours; then one normal collection for `now`. Fewer rows than a real
 * week of collection keeps a fresh install's backfill well under a minute.
 */
import { AppError } from '../errors.js';
import {
  type CollectorDeps,
  type CollectStats,
  collectOnce,
  dayKey,
  hourStart,
  type SeenUpdate,
} from './collector.js';
import * as repo from './market.repo.js';

const MIN_MS = 60_000;
const HOUR_MS = 60 * MIN_MS;
const DAY_MS = 24 * HOUR_MS;
const HOURLY_DAYS = 15;
/** Within the hourly window, only the last FULL_HOURLY_DAYS have every hour. */
const FULL_HOURLY_DAYS = 8;
const RAW_HOURS = 12;

interface Acc {
  sum: number;
  max: number;
  n: number;
  visits: number;
}

export interface BackfillStats {
  days: number;
  games: number;
  dailyRows: number;
  hourlyRows: number;
  sampleRows: number;
  snapshots: number;
  /** Game updates seen between the readings. */
  updates: number;
  ms: number;
  collect: CollectStats;
}

function accumulate(into: Map<number, Acc>, games: Map<number, { playing: number; visits: number }>): void {
  for (const [id, g] of games) {
    const a = into.get(id);
    if (a) {
      a.sum += g.playing;
      a.max = Math.max(a.max, g.playing);
      a.n += 1;
      a.visits = Math.max(a.visits, g.visits);
    } else into.set(id, { sum: g.playing, max: g.playing, n: 1, visits: g.visits });
  }
}

function toRows(acc: Map<number, Acc>, at: Date | string): repo.RollupRow[] {
  return [...acc].map(([universeId, a]) => ({
    universeId,
    at,
    ccuAvg: a.sum / a.n,
    ccuMax: a.max,
    samples: a.n,
    visits: a.visits,
  }));
}

export async function backfill(
  deps: CollectorDeps,
  days: number,
  now: Date,
  signal?: AbortSignal,
): Promise<BackfillStats> {
  const { db, platform } = deps;
  if (!platform.replaysPast) {
    throw new AppError(
      422,
      'backfill_unsupported',
      `The ${platform.name} source cannot produce past readings; backfill needs the simulated market.`,
    );
  }
  const started = performance.now();
  const run = await repo.startBackfill(db, days, now, now);
  const ids = await platform.discover(now);
  // Every step reads the platform here: the one place to stop when shutdown asks, and to let the
  // event loop serve requests (the simulated source and PGlite compute without ever waiting on I/O).
  // Updates as the collector would have seen them: each game's `updated` time moving on between
  // readings (the passes below go back in time, so only a later time than the latest seen counts).
  const latestUpdate = new Map<number, number>();
  const seen: SeenUpdate[] = [];
  const read = async (t: number) => {
    await new Promise((resolve) => setImmediate(resolve));
    signal?.throwIfAborted();
    const items = (await platform.getGames(ids, new Date(t))).items;
    for (const g of items.values()) {
      const updated = g.updated.getTime();
      const latest = latestUpdate.get(g.universeId);
      if (latest !== undefined && updated > latest) {
        seen.push({
          universeId: g.universeId,
          releasedAt: g.updated,
          previousAt: new Date(latest),
          detectedAt: new Date(t),
        });
      }
      if (latest === undefined || updated > latest) latestUpdate.set(g.universeId, updated);
    }
    return items;
  };
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const firstDay = today - days * DAY_MS;
  // Whole days: a day is either hourly or daily-only; a short backfill is hourly all through.
  const hourlyFrom = Math.max(firstDay, today - HOURLY_DAYS * DAY_MS);
  let dailyRows = 0;
  let hourlyRows = 0;

  // Days before the hourly window: 8 readings a day (every 3 h) make the daily mean.
  for (let day = firstDay; day + DAY_MS <= hourlyFrom; day += DAY_MS) {
    const acc = new Map<number, Acc>();
    for (let h = 1.5; h < 24; h += 3) accumulate(acc, await read(day + h * HOUR_MS));
    const rows = toRows(acc, dayKey(new Date(day)));
    await repo.insertRollups(db, 'daily', rows);
    dailyRows += rows.length;
  }
  // The hourly window: 3 readings an hour; daily rollups of those days come from the hours.
  const currentHour = hourStart(now).getTime();
  const everyHourFrom = today - FULL_HOURLY_DAYS * DAY_MS;
  for (let hour = hourlyFrom; hour < currentHour; hour += HOUR_MS) {
    if (hour < everyHourFrom && (hour / HOUR_MS) % 4 !== 0) continue;
    const acc = new Map<number, Acc>();
    for (const m of [10, 30, 50]) accumulate(acc, await read(hour + m * MIN_MS));
    const rows = toRows(acc, new Date(hour));
    await repo.insertRollups(db, 'hourly', rows);
    hourlyRows += rows.length;
  }
  for (let day = Math.floor(hourlyFrom / DAY_MS) * DAY_MS; day <= today; day += DAY_MS) {
    await repo.rollUpDay(db, dayKey(new Date(day)));
  }
  // Raw samples every 5 minutes over the last RAW_HOURS.
  let sampleRows = 0;
  for (let t = now.getTime() - RAW_HOURS * HOUR_MS; t < now.getTime(); t += 5 * MIN_MS) {
    const items = await read(t);
    await repo.insertSamples(
      db,
      [...items.values()].map((g) => ({
        universeId: g.universeId,
        ts: new Date(t),
        ccu: g.playing,
        visits: g.visits,
      })),
    );
    sampleRows += items.size;
  }
  // Genre snapshots every 6 hours: per-genre totals of the readings at that moment.
  let snapshots = 0;
  for (let t = Math.ceil(firstDay / (6 * HOUR_MS)) * 6 * HOUR_MS; t < now.getTime(); t += 6 * HOUR_MS) {
    const items = await read(t);
    const byGenre = new Map<string, { total: number; active: number; ccu: number }>();
    for (const g of items.values()) {
      const s = byGenre.get(g.genre) ?? { total: 0, active: 0, ccu: 0 };
      s.total += 1;
      if (g.playing >= 10) s.active += 1;
      s.ccu += g.playing;
      byGenre.set(g.genre, s);
    }
    await repo.insertGenreSnapshotRows(
      db,
      new Date(t),
      [...byGenre].map(([genre, s]) => ({
        genre,
        totalGames: s.total,
        activeGames: s.active,
        totalCcu: s.ccu,
      })),
    );
    snapshots += 1;
  }
  // Millions of rows just arrived: without fresh statistics the planner reads them as the empty
  // tables it last saw (the first collections and views scanned whole tables until autovacuum ran).
  await repo.analyseHistory(db);
  // The collection stores the updates seen here with the catalogue they belong to, before the
  // views and what follows them (update impact measures every update it can at once).
  const collect = await collectOnce(deps, now, seen);
  await repo.completeBackfill(db, run, now);
  const stats = {
    days,
    games: ids.length,
    dailyRows,
    hourlyRows,
    sampleRows,
    snapshots,
    updates: seen.length,
    ms: Math.round(performance.now() - started),
    collect,
  };
  deps.log.info({ ...stats, collect: undefined }, 'market backfilled');
  return stats;
}
