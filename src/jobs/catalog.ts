import type { AccountsService } from '../accounts/index.js';
import type { ForecastService } from '../games/index.js';
import { type CollectorDeps, scheduledCollection } from '../market/index.js';
import type { Job } from './scheduler.js';

const DAY_MS = 24 * 60 * 60_000;

export interface JobDeps {
  accounts: AccountsService;
  market: CollectorDeps;
  collectIntervalSec: number;
  forecasts: ForecastService;
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
      name: 'purge-expired-refresh-tokens',
      intervalMs: DAY_MS,
      async run(now) {
        await deps.accounts.purgeExpiredRefreshTokens(now);
      },
    },
  ];
}
