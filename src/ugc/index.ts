/**
 * The UGC catalog: avatar items (accessories, clothing, bundles) collected from a CatalogSource
 * (the simulated catalog or the public Roblox catalog APIs) every 15 minutes, their price and
 * favourites history, and the public /api/ugc/* endpoints built on them. Owns the ugc_* tables;
 * reads the catalog only through CatalogSource and never writes another domain's tables.
 */
import type { FastifyInstance } from 'fastify';
import type { Job } from '../jobs/scheduler.js';
import { backfillCatalog, CATALOG_BACKFILL_DAYS } from './backfill.js';
import { CATALOG_INTERVAL_MS, type CatalogCollectorDeps, collectCatalog } from './collector.js';
import { hasCompletedBackfill } from './ugc.repo.js';
import { registerUgcRoutes } from './ugc.routes.js';
import { ugcSchemas } from './ugc.schemas.js';
import { type UgcDeps, UgcService } from './ugc.service.js';

export { backfillCatalog, CATALOG_BACKFILL_DAYS } from './backfill.js';
export { type CatalogCollectorDeps, type CatalogCollectStats, collectCatalog } from './collector.js';
export { UgcService } from './ugc.service.js';

export function createUgc(deps: UgcDeps): UgcService {
  return new UgcService(deps);
}

export function registerUgc(app: FastifyInstance, ugc: UgcService): void {
  for (const schema of ugcSchemas) app.addSchema(schema);
  registerUgcRoutes(app, ugc);
}

/**
 * Until a backfill has completed on a source that can replay the past, a run backfills
 * CATALOG_BACKFILL_DAYS of history; every other run collects the present.
 */
export async function scheduledCatalogCollection(
  deps: CatalogCollectorDeps,
  now: Date,
  signal?: AbortSignal,
): Promise<void> {
  if (deps.source.replaysPast && !(await hasCompletedBackfill(deps.db))) {
    await backfillCatalog(deps, CATALOG_BACKFILL_DAYS, now, signal);
    return;
  }
  await collectCatalog(deps, now, signal);
}

/** collect-ugc-catalog: every 15 minutes, one run at a time across processes (lease 20 minutes). */
export function collectCatalogJob(deps: CatalogCollectorDeps): Job {
  return {
    name: 'collect-ugc-catalog',
    intervalMs: CATALOG_INTERVAL_MS,
    leaseMs: 20 * 60_000,
    run: (now, signal) => scheduledCatalogCollection(deps, now, signal),
  };
}
