/**
 * Tracking and alerts: a user's tracked games, alert rules, the alert engine that fires once per
 * crossing, and delivery beyond the in-app list (e-mail, webhooks). Reads market data through
 * market/index.ts and platform/index.ts; owns tracked_games, alerts, alert_firings and the delivery
 * tables. It never collects market data: the engine only reads what the collector stored.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import type { Entitlements } from '../plans.js';
import type { PlatformSource } from '../platform/index.js';
import { registerAlertRoutes } from './alerts.routes.js';
import { alertSchemas } from './alerts.schemas.js';
import { AlertsService } from './alerts.service.js';
import {
  createDelivery,
  type Delivery,
  registerWebhookRoutes,
  type SecretBox,
  type WebhooksDeps,
} from './delivery/index.js';
import { type EvaluationStats, evaluateAlerts } from './engine.js';
import { registerTrackingRoutes } from './tracking.routes.js';
import { trackingSchemas } from './tracking.schemas.js';
import { TrackingService } from './tracking.service.js';

export {
  createDelivery,
  type Delivery,
  type ResealStats,
  SecretBox,
  sealPlainSecrets,
  WEBHOOKS_USAGE,
  webhooksCommand,
} from './delivery/index.js';
export { type AlertEngineDeps, type EvaluationStats, evaluateAlerts } from './engine.js';
export { type Firing, type FiringSink, inAppOnly } from './firing.js';
export { ALERT_TYPES, type AlertType } from './rules.js';

export interface TrackingDeps {
  db: Db;
  clock: Clock;
  entitlements: Entitlements;
  /** Fetches a universe the catalogue lacks when a user tracks it (absent: unknown → 404). */
  platform?: PlatformSource;
  webhookAllowPrivate: boolean;
  /** Encrypts webhook secrets at rest. */
  secrets: SecretBox;
  /** smtp:// or smtps:// for alert e-mail; unset: the outbox table. */
  smtpUrl?: string | undefined;
  log: FastifyBaseLogger;
}

/** The domain's services, built once by src/services.ts. */
export interface Tracking {
  tracking: TrackingService;
  alerts: AlertsService;
  webhooks: WebhooksDeps;
  /** Sends firings beyond the in-app list (deliver-alerts job). */
  delivery: Delivery;
  /** The alert engine: evaluates every rule at `now`, firings handed to `delivery` (evaluate-alerts
   * job, and after each collection). */
  evaluateAlerts(now: Date): Promise<EvaluationStats>;
}

export function createTracking(deps: TrackingDeps): Tracking {
  const { db, clock, entitlements, log } = deps;
  const delivery = createDelivery({
    db,
    clock,
    entitlements,
    webhookAllowPrivate: deps.webhookAllowPrivate,
    secrets: deps.secrets,
    log,
    ...(deps.smtpUrl ? { smtpUrl: deps.smtpUrl } : {}),
  });
  return {
    tracking: new TrackingService(deps),
    alerts: new AlertsService(deps),
    webhooks: deps,
    delivery,
    evaluateAlerts: (now) => evaluateAlerts({ db, clock, sink: delivery, entitlements, log }, now),
  };
}

export function registerTracking(app: FastifyInstance, t: Tracking): void {
  for (const schema of [...trackingSchemas, ...alertSchemas]) app.addSchema(schema);
  registerTrackingRoutes(app, t.tracking);
  registerAlertRoutes(app, t.alerts);
  registerWebhookRoutes(app, t.webhooks);
}
