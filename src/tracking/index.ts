/**
 * Tracking and alerts: a user's tracked games, alert rules, the alert engine that fires once per
 * crossing, and delivery beyond the in-app list (e-mail, webhooks). Reads market data through
 * market/index.ts and platform/index.ts; owns tracked_games, alerts and the delivery tables.
 */
import type { FastifyInstance } from 'fastify';
import type { Entitlements } from '../accounts/index.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import type { PlatformSource } from '../platform/index.js';

export { type Firing, type FiringSink, inAppOnly } from './firing.js';

export interface TrackingDeps {
  db: Db;
  clock: Clock;
  entitlements: Entitlements;
  /** Fetches a universe the catalogue lacks when a user tracks it (absent: unknown → 404). */
  platform?: PlatformSource;
  webhookAllowPrivate: boolean;
}

export function registerTracking(_app: FastifyInstance, _deps: TrackingDeps): void {
  // Routes land in tracking.routes.ts, alerts.routes.ts and delivery/webhooks.routes.ts.
}
