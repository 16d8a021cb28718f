import type { AccountsService } from '../accounts/index.js';
import type { Job } from './scheduler.js';

const DAY_MS = 24 * 60 * 60_000;

export interface JobDeps {
  accounts: AccountsService;
}

/** Every background job the service runs; later capabilities add theirs here. */
export function allJobs(deps: JobDeps): Job[] {
  return [
    {
      name: 'purge-expired-refresh-tokens',
      intervalMs: DAY_MS,
      async run(now) {
        await deps.accounts.purgeExpiredRefreshTokens(now);
      },
    },
  ];
}
