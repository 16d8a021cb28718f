/**
 * Backfill: writes the catalog's past from a source that can replay it (the simulated catalog), so
 * the UGC pages have price and favourites history on a fresh install: daily rollups of 4 readings a
 * day (every 6 hours) for the days before yesterday, hourly raw readings from yesterday's start (the
 * 24-hour gains need them), then one normal collection for `now`.
 */
import { AppError } from '../errors.js';
import type { CatalogItem } from '../platform/index.js';
import { type CatalogCollectorDeps, dayKey, readings, storeCollection } from './collector.js';
import * as repo from './ugc.repo.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
export const CATALOG_BACKFILL_DAYS = 35;
const RAW_STEP_MS = 2 * HOUR_MS;

export interface CatalogBackfillStats {
  days: number;
  items: number;
  dailyReadings: number;
  rawReadings: number;
}

export async function backfillCatalog(
  deps: CatalogCollectorDeps,
  days: number,
  now: Date,
  signal?: AbortSignal,
): Promise<CatalogBackfillStats> {
  const { db, source } = deps;
  if (!source.replaysPast) {
    throw new AppError(
      422,
      'backfill_unsupported',
      `The ${source.name} catalog cannot produce past readings; backfill needs the simulated catalog.`,
    );
  }
  const run = await repo.startBackfill(db, days, now);
  const refs = await source.discover(now, signal);
  // Every item read in the past exists now: store them first (the history refers to them).
  const current = [...(await source.getItems(refs, now, signal)).items.values()];
  await repo.upsertItems(db, current, now);
  const live = current.map((c) => ({ itemType: c.itemType, id: c.id }));
  const read = async (t: number): Promise<CatalogItem[]> => {
    // Yield between readings: shutdown can stop here, and requests are served meanwhile.
    await new Promise((resolve) => setImmediate(resolve));
    signal?.throwIfAborted();
    return [...(await source.getItems(live, new Date(t), signal)).items.values()];
  };
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const rawFrom = today - DAY_MS;
  let dailyReadings = 0;
  for (let day = today - days * DAY_MS; day < rawFrom; day += DAY_MS) {
    for (const h of [9, 21]) {
      const t = day + h * HOUR_MS;
      const rows = readings(await read(t), new Date(t));
      await repo.foldIntoDaily(db, dayKey(day), rows);
      dailyReadings += rows.length;
    }
  }
  let rawReadings = 0;
  for (let t = rawFrom; t < now.getTime(); t += RAW_STEP_MS) {
    const rows = readings(await read(t), new Date(t));
    await repo.insertSamples(db, rows);
    await repo.foldIntoDaily(db, dayKey(t), rows);
    rawReadings += rows.length;
  }
  await repo.analyseCatalog(db);
  await storeCollection(db, current, now);
  await repo.completeBackfill(db, run, now);
  const stats = { days, items: current.length, dailyReadings, rawReadings };
  deps.log.info({ ...stats }, 'catalog backfilled');
  return stats;
}
