/**
 * `svc collect` and `svc backfill`: run one collection, or write past history, from the command
 * line against the configured database and platform source.
 */
import { parseArgs } from 'node:util';
import type { Db } from '../db/index.js';
import { CliUsageError } from '../errors.js';
import type { PlatformSource } from '../platform/index.js';
import { backfill } from './backfill.js';
import { type CollectorDeps, collectOnce } from './collector.js';
import { refreshViews } from './views.service.js';

export const COLLECT_USAGE = 'svc collect [--once]';
export const BACKFILL_USAGE = 'svc backfill --days N';

export interface MarketCliDeps {
  db: Db;
  platform: PlatformSource;
  log: CollectorDeps['log'];
  now: Date;
  out: (line: string) => void;
}

/** Checks `svc collect` arguments before anything is opened. */
export function parseCollectArgs(args: string[]): void {
  parseArgs({ args, options: { once: { type: 'boolean', default: true } }, strict: true });
}

/** The number of days `svc backfill --days N` asks for (checked before anything is opened). */
export function parseBackfillArgs(args: string[]): number {
  const { values } = parseArgs({ args, options: { days: { type: 'string' } }, strict: true });
  const days = Number(values.days);
  if (values.days === undefined || !Number.isInteger(days) || days < 1 || days > 400) {
    throw new CliUsageError('--days must be a whole number from 1 to 400');
  }
  return days;
}

/** Collects the platform once (the schedule itself runs in `svc worker`, or `svc serve` embedded). */
export async function collectCommand(args: string[], deps: MarketCliDeps): Promise<number> {
  parseCollectArgs(args);
  const stats = await collectOnce(
    {
      db: deps.db,
      platform: deps.platform,
      log: deps.log,
      refreshViews: (now) => refreshViews(deps.db, now).then(() => {}),
    },
    deps.now,
  );
  deps.out(
    `collected ${stats.stored} of ${stats.requested} games from the ${deps.platform.name} source` +
      ` (${stats.failed} failed, ${stats.passesRefreshed} pass lists refreshed${stats.genreSnapshot ? ', genre snapshot taken' : ''})`,
  );
  return stats.failed > 0 && stats.stored === 0 ? 1 : 0;
}

/** Writes N days of history from a source that can replay the past (the simulated market). */
export async function backfillCommand(args: string[], deps: MarketCliDeps): Promise<number> {
  const days = parseBackfillArgs(args);
  const stats = await backfill({ db: deps.db, platform: deps.platform, log: deps.log }, days, deps.now);
  await refreshViews(deps.db, deps.now, { force: true });
  deps.out(
    `backfilled ${stats.days} days for ${stats.games} games in ${(stats.ms / 1000).toFixed(1)} s: ` +
      `${stats.dailyRows} daily, ${stats.hourlyRows} hourly, ${stats.sampleRows} raw rows, ${stats.snapshots} genre snapshots`,
  );
  return 0;
}
