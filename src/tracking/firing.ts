/**
 * The hand-off between the alert engine and delivery: when a rule fires, the engine records the
 * firing and, in the same transaction, gives it to a FiringSink, which queues what the owner's plan
 * delivers beyond the in-app list (e-mail, webhooks). One transaction: a firing is never recorded
 * without its deliveries, nor delivered twice.
 */

import type { Queryable } from '../db/index.js';
import type { PlanName } from '../plans.js';

export interface Firing {
  /** The alert_firings row. */
  firingId: number;
  alertId: number;
  userId: number;
  teamId: number;
  universeId: number;
  type: string;
  /** What happened, as a person reads it: "Blox Fruits passed 500,000 CCU (threshold 450,000) at 18:05 UTC". */
  message: string;
  firedAt: Date;
  /** The figures behind the message (for webhook payloads): ccu, threshold, trend_score, rank … */
  details: Record<string, unknown>;
}

export interface FiringSink {
  enqueue(tx: Queryable, firing: Firing, plan: PlanName): Promise<void>;
}

/** A sink that delivers nothing beyond the in-app list. */
export const inAppOnly: FiringSink = { enqueue: async () => {} };
