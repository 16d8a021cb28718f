/**
 * SDK analytics: the dashboards a studio reads from its SDK events (GET /api/sdk/games,
 * GET /api/sdk/analytics/{game_id}/{view}), the rollups behind them and the job that keeps them
 * current. Owns the sdk_* rollup tables; reads `events` and takes the batches ingest queues in
 * `sdk_rollup_inbox` (it never writes events). One view per file in views/.
 */
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import type { Job } from '../jobs/scheduler.js';
import type { Entitlements } from '../plans.js';
import { registerAnalyticsRoutes } from './analytics.routes.js';
import { SdkGames } from './analytics.schemas.js';
import { AnalyticsService } from './analytics.service.js';
import { registerExperimentRoutes } from './experiments.routes.js';
import { ExperimentsService } from './experiments.service.js';
import { registerExportRoute } from './export.routes.js';
import { ExportService } from './export.service.js';
import { PACE } from './rollups.js';
import { registerSegmentRoutes } from './segments.routes.js';
import { SegmentsService } from './segments.service.js';
import { registerSurveyRoutes } from './surveys.routes.js';
import { SurveysService } from './surveys.service.js';
import { VIEWS } from './views/index.js';

export { AnalyticsService, type Reader, type SegmentResolver } from './analytics.service.js';
export { EXPORT_USAGE, type ExportCliDeps, exportCommand } from './export.cli.js';
export { Rollups } from './rollups.js';

export interface Analytics {
  service: AnalyticsService;
  /** GET /api/sdk/export and `svc events export`. */
  exporter: ExportService;
  segments: SegmentsService;
  /** /api/sdk/surveys/{survey_id}: brand-lift survey definitions. */
  surveys: SurveysService;
  /** /api/sdk/experiments: definitions, assignment, results (`results(reader, id)`). */
  experiments: ExperimentsService;
}

export function createAnalytics(deps: { db: Db; clock: Clock; entitlements: Entitlements }): Analytics {
  // The views narrow to a segment's players through it (`?segment=<id>`).
  const segments = new SegmentsService(deps);
  return {
    service: new AnalyticsService({ ...deps, segments }),
    segments,
    exporter: new ExportService(deps),
    surveys: new SurveysService(deps),
    experiments: new ExperimentsService(deps),
  };
}

export function registerAnalytics(app: FastifyInstance, analytics: Analytics): void {
  app.addSchema(SdkGames);
  for (const view of VIEWS) app.addSchema(view.schema);
  registerAnalyticsRoutes(app, analytics.service, VIEWS);
  registerExportRoute(app, analytics.exporter);
  registerSegmentRoutes(app, analytics.segments);
  registerSurveyRoutes(app, analytics.surveys);
  registerExperimentRoutes(app, analytics.experiments);
}

/** Folds the queued batches into the rollups (every 10 s; a run takes what is due, then pauses
 * PACE times as long as it worked: rollups.ts). */
export function rollupJob(analytics: Analytics): Job {
  return {
    name: 'refresh-sdk-rollups',
    intervalMs: 10_000,
    leaseMs: 15 * 60_000,
    run: async (_now, signal) => {
      const t0 = performance.now();
      const folded = await analytics.service.rollups.run(signal);
      return { pauseMs: folded > 0 ? Math.round(PACE * (performance.now() - t0)) : 0 };
    },
  };
}
