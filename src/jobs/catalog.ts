import type { AccountsService } from '../accounts/index.js';
import type { ForecastService } from '../games/index.js';
import { type CollectorDeps, scheduledCollection } from '../market/index.js';
import type { Delivery } from '../tracking/index.js';
import type { Job } from './scheduler.js';

const DAY_MS = 24 * 60 * 60_000;

export interface JobDeps {
  accounts: AccountsService;
  market: CollectorDeps;
  collectIntervalSec: number;
  forecasts: ForecastService;
  /** Evaluates every alert rule at `now` (the alert engine with its sink). */
  evaluateAlerts: (now: Date) => Promise<unknown>;
  alertIntervalSec: number;
  delivery: Delivery;
}

/** Every background job the service runs; later capabilities add theirs here. */
export function allJobs(deps: JobDeps): Job[] {
  return [
    {
      // The first run on an empty database backfills history (it may take a minute): a long lease.
      name: 'collect-market',
      intervalMs: deps.collectIntervalSec * 1000,
      leaseMs: Math.max(10 * 60_000, deps.collectIntervalSec * 4000),
      run: (now, signal) => scheduledCollection(deps.market, now, signal),
    },
    {
      // Checks often, works rarely: forecasts are due at 04:00 UTC and after a backfill.
      name: 'forecast-games',
      intervalMs: 5 * 60_000,
      leaseMs: 30 * 60_000,
      async run(now, signal) {
        if (await deps.forecasts.due(now)) await deps.forecasts.refreshAll(now, signal);
      },
    },
    {
      // Also runs right after each collection in embedded mode; this keeps a worker-only deployment
      // (and a slow collector) evaluating on time.
      name: 'evaluate-alerts',
      intervalMs: deps.alertIntervalSec * 1000,
      run: (now) => deps.evaluateAlerts(now).then(() => {}),
    },
    {
      name: 'deliver-alerts',
      intervalMs: 60_000,
      run: (now, signal) => deps.delivery.runPending(now, signal).then(() => {}),
    },
    purgeRefreshTokensJob(deps.accounts),
  ];
}

/** Deletes refresh tokens past their expiry, once a day. */
export function purgeRefreshTokensJob(accounts: AccountsService): Job {
  return {
    name: 'purge-expired-refresh-tokens',
    intervalMs: DAY_MS,
    async run(now) {
      await accounts.purgeExpiredRefreshTokens(now);
    },
  };
}
