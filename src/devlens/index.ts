/**
 * Dev Lens: analyses a creator's analytics CSV export (Studio and Enterprise), answers metrics,
 * benchmarks, patterns, recommendations and a narrative, and keeps saved reports. Owns the
 * devlens_reports table. It must never store, log or send anywhere the uploaded file: the file is held
 * in memory while its request is served and handed to the statistical core (analysis.ts and its
 * siblings, which do no I/O) on a worker thread (devlens.pool.ts), never on the HTTP event loop.
 */
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import type { Entitlements } from '../plans.js';
import type { NarrativeProvider } from './advice.js';
import { AnalysisGate, createAnalysisPool, type DevLensLimits, defaultLimits } from './devlens.pool.js';
import { registerDevLensRoutes } from './devlens.routes.js';
import { devLensSchemas } from './devlens.schemas.js';
import { DevLensService } from './devlens.service.js';

export { type Advice, advise, type NarrativeProvider, offlineNarrative } from './advice.js';
export { analyseCsv } from './analysis.js';
export { safeCell } from './benchmarks.js';
export { type DevLensLimits, defaultLimits } from './devlens.pool.js';
export type { Analysis, DevLensResult, FileType, Pattern } from './types.js';

export interface DevLensRegistration {
  db: Db;
  clock: Clock;
  entitlements: Entitlements;
  /** A narrative writer other than the offline default (none is shipped that calls out). */
  narrative?: NarrativeProvider;
  /** Worker threads and caps on analyses in flight; defaultLimits() unless given. */
  limits?: DevLensLimits;
}

/** The domain's service and its worker pool, built once by src/services.ts. */
export interface DevLens {
  service: DevLensService;
  limits: DevLensLimits;
  /** Stops the analysis threads (the composition root calls it on shutdown). */
  close(): Promise<void>;
}

export function createDevLens(deps: DevLensRegistration): DevLens {
  const limits = deps.limits ?? defaultLimits();
  // Threads start with the first upload; closing stops them, so tests and `svc serve` exit.
  const pool = createAnalysisPool({ threads: limits.threads });
  const service = new DevLensService({ ...deps, pool, gate: new AnalysisGate(limits) });
  return { service, limits, close: () => pool.close() };
}

export function registerDevLens(app: FastifyInstance, devLens: DevLens): void {
  for (const schema of devLensSchemas) app.addSchema(schema);
  registerDevLensRoutes(app, devLens.service, devLens.limits);
}
