/**
 * The catalog collector: every 15 minutes it reads the catalog source (the items it discovers and
 * the stored ones, longest unread first) within a time budget, stores each item's current state, a
 * raw reading and the day's rollup, prunes raw readings past 48 hours, recomputes every item's
 * scores and the trends view. An item the source could not read this time is left as it was: a gap.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.js';
import { type CatalogItem, type CatalogRef, type CatalogSource, refKey } from '../platform/index.js';
import { RAW_RETENTION_HOURS } from './scores.js';
import { computeTrends } from './trends.js';
import * as repo from './ugc.repo.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Refs handed to the source at once (it batches further inside, e.g. 120 per catalog request). */
const READ_CHUNK = 1200;
/** Stored items refreshed per collection at most (besides those discovered). */
const MAX_KNOWN = 100_000;

export const CATALOG_INTERVAL_MS = 15 * 60_000;
/** Reads of one collection stop after this (the job's lease is longer). */
export const CATALOG_BUDGET_MS = 10 * 60_000;
export const TRENDS_VIEW = 'trends';

export interface CatalogCollectorDeps {
  db: Db;
  source: CatalogSource;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  /** Time budget of one collection's reads (CATALOG_BUDGET_MS unless given). */
  budgetMs?: number;
}

export interface CatalogCollectStats {
  requested: number;
  stored: number;
  failed: number;
  /** Refs not read because the budget ran out. */
  skipped: number;
  pruned: number;
}

export const dayKey = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function readings(items: readonly CatalogItem[], ts: Date): repo.ItemReading[] {
  return items.map((i) => ({
    itemType: i.itemType,
    id: i.id,
    ts,
    price: i.price,
    onSale: i.onSale,
    favorites: i.favorites,
  }));
}

/** The refs to read: those discovered, then the stored ones, each once. */
async function refsToRead(deps: CatalogCollectorDeps, now: Date, signal: AbortSignal): Promise<CatalogRef[]> {
  const seen = new Set<string>();
  const out: CatalogRef[] = [];
  for (const r of [
    ...(await deps.source.discover(now, signal)),
    ...(await repo.staleRefs(deps.db, MAX_KNOWN)),
  ]) {
    const k = refKey(r);
    if (!seen.has(k)) {
      seen.add(k);
      out.push(r);
    }
  }
  return out;
}

/** Stores readings of `now`, then the derived scores and the trends view. */
export async function storeCollection(db: Db, items: readonly CatalogItem[], now: Date): Promise<number> {
  await db.transaction(async (tx) => {
    await repo.upsertItems(tx, items, now);
    const rows = readings(items, now);
    await repo.insertSamples(tx, rows);
    await repo.foldIntoDaily(tx, dayKey(now.getTime()), rows);
  });
  const pruned = await repo.pruneSamples(db, new Date(now.getTime() - RAW_RETENTION_HOURS * HOUR_MS));
  await refreshDerived(db, now);
  return pruned;
}

/** Every item's scores, then the trends view (its time is the catalog's version for caches). */
export async function refreshDerived(db: Db, now: Date): Promise<void> {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  await repo.refreshScores(db, now, dayKey(today - 7 * DAY_MS));
  await repo.saveView(db, TRENDS_VIEW, now, await computeTrends(db, now));
}

export async function collectCatalog(
  deps: CatalogCollectorDeps,
  now: Date,
  signal?: AbortSignal,
): Promise<CatalogCollectStats> {
  const budget = AbortSignal.timeout(deps.budgetMs ?? CATALOG_BUDGET_MS);
  const reads = signal ? AbortSignal.any([signal, budget]) : budget;
  const refs = await refsToRead(deps, now, reads);
  const items: CatalogItem[] = [];
  let failed = 0;
  let read = 0;
  for (let i = 0; i < refs.length && !reads.aborted; i += READ_CHUNK) {
    const chunk = refs.slice(i, i + READ_CHUNK);
    const got = await deps.source.getItems(chunk, now, reads);
    items.push(...got.items.values());
    failed += got.failed.length;
    read += chunk.length;
  }
  signal?.throwIfAborted(); // shutdown: store nothing half-read
  const pruned = await storeCollection(deps.db, items, now);
  const stats = { requested: refs.length, stored: items.length, failed, skipped: refs.length - read, pruned };
  if (stats.skipped > 0) deps.log.warn({ ...stats }, 'catalog collection cut by its time budget');
  deps.log.info({ ...stats }, 'catalog collected');
  return stats;
}
