/**
 * Update impact: the updates the collector sees (a game's `updated` time moving on), what each did
 * to the game's players against a counterfactual forecast, and the market-wide lists built on
 * them. Owns the game_updates table; reads the catalogue and the daily rollups; collects nothing
 * itself (the collector hands it what it saw) and never writes another domain's tables.
 */
import type { FastifyInstance } from 'fastify';
import type { Job } from '../jobs/scheduler.js';
import { registerUpdateRoutes } from './updates.routes.js';
import { updateSchemas } from './updates.schemas.js';
import { UpdateImpactService, type UpdatesDeps } from './updates.service.js';

export { type Impact, measureImpact } from './impact.js';
export { UpdateImpactService } from './updates.service.js';

export function createUpdates(deps: UpdatesDeps): UpdateImpactService {
  return new UpdateImpactService(deps);
}

export function registerUpdates(app: FastifyInstance, updates: UpdateImpactService): void {
  for (const schema of updateSchemas) app.addSchema(schema);
  registerUpdateRoutes(app, updates);
}

/** Measures the updates whose 7-day window has passed (within the hour after it does). */
export function measureUpdatesJob(updates: UpdateImpactService): Job {
  return {
    name: 'measure-update-impact',
    intervalMs: 15 * 60_000,
    leaseMs: 30 * 60_000,
    run: (now, signal) => updates.measureDue(now, signal).then(() => {}),
  };
}
