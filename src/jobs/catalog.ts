/**
 * The catalogue of ALL background work, with its schedule. Two kinds:
 *
 * - jobs (`Job`, run by the Scheduler): run(now, signal) every interval, at most one run at a time
 *   across every process (leases in job_state);
 *     collect-market                every COLLECT_INTERVAL_SEC (5 min); the first runs backfill
 *                                   35 days of history; raw-sample retention and the market views
 *                                   follow each collection, then the alert engine
 *     forecast-games                checked every 5 min, works at 04:00 UTC and after a backfill
 *     evaluate-alerts               every ALERT_INTERVAL_SEC (15 min)
 *     measure-update-impact         every 15 min: measures the game updates whose 7-day window
 *                                   has passed (src/updates)
 *     detect-clones                 every 15 min: clone pairs of games new or changed since the
 *                                   last run (src/intelligence; also after each collection)
 *     collect-ugc-catalog           every 15 min: the UGC catalog (src/ugc); the first run on a
 *                                   simulated catalog backfills 35 days of history
 *     deliver-alerts                every minute (e-mail, webhooks, retries)
 *     purge-expired-refresh-tokens  daily
 *     refresh-sdk-rollups           every 10 s: folds the batches ingest queued into the SDK
 *                                   analytics rollups (and rebuilds days marked for repair), then
 *                                   pauses 8 × as long as it worked (within a minute of the raw
 *                                   events while a run takes ≤ 4.5 s)
 *     sdk-retention                 daily: drops `events` months wholly older than
 *                                   SDK_EVENT_RETENTION_DAYS, forgets event ids older than
 *                                   SDK_DEDUPE_HORIZON_DAYS (rollups are kept)
 * - workers (`Worker`): long-running consumers, started with the process and stopped on shutdown;
 *     ingest-writer                 stores accepted batches in `events` every 200 ms (the outbox
 *                                   queue: the oldest rows, FOR UPDATE SKIP LOCKED; JetStream: the
 *                                   messages of the stream's shared consumer), refreshes the queue
 *                                   depth every second and, with JetStream, sweeps outbox rows left
 *                                   from the embedded queue every minute
 *     ingest-publisher              only connects the queue (JetStream), for serve processes that
 *                                   leave the writing to workers
 *
 * Which process runs what (backgroundWork): `svc worker` runs every job; `svc serve` runs them only
 * in embedded mode (with DATABASE_URL, worker processes do). Every worker process runs an ingest
 * writer, and so does every serve process except with NATS_URL and DATABASE_URL, where serve only
 * publishes (the async path exists to absorb bursts: the workers drain them); writers share the
 * outbox table (or the JetStream consumer) without ever storing a batch twice. Each entry only calls domain services (built once by src/services.ts): no business
 * rules live here.
 */
import type { AccountsService } from '../accounts/index.js';
import { rollupJob } from '../analytics/index.js';
import { detectClonesJob } from '../intelligence/index.js';
import { refreshKeywordsJob } from '../keywords/index.js';
import { scheduledCollection } from '../market/index.js';
import type { Services } from '../services.js';
import type { TeamsService } from '../teams/index.js';
import { collectCatalogJob } from '../ugc/index.js';
import { measureUpdatesJob } from '../updates/index.js';
import type { Job } from './scheduler.js';

const DAY_MS = 24 * 60 * 60_000;

/** A long-running consumer: start() begins consuming in the background, stop() ends it and
 * waits (work in hand is finished or handed back, nothing is lost). */
export interface Worker {
  name: string;
  /** The process roles that run it. */
  roles: readonly Role[];
  start(): void;
  stop(): Promise<void>;
}

export type Role = 'serve' | 'worker';

/** Every scheduled job the service runs; later capabilities add theirs here. */
export function allJobs(s: Services): Job[] {
  const { config } = s;
  const collector = s.market.collector;
  return [
    ...(collector
      ? [
          {
            // The first run on an empty database backfills history (it may take a minute): a long lease.
            name: 'collect-market',
            intervalMs: config.collectIntervalSec * 1000,
            leaseMs: Math.max(10 * 60_000, config.collectIntervalSec * 4000),
            run: (now: Date, signal: AbortSignal) => scheduledCollection(collector, now, signal),
          },
        ]
      : []),
    {
      // Checks often, works rarely: forecasts are due at 04:00 UTC and after a backfill.
      name: 'forecast-games',
      intervalMs: 5 * 60_000,
      leaseMs: 30 * 60_000,
      async run(now, signal) {
        if (await s.games.forecast.due(now)) await s.games.forecast.refreshAll(now, signal);
      },
    },
    {
      // Also runs right after each collection; this keeps a worker-only deployment (and a slow
      // collector) evaluating on time.
      name: 'evaluate-alerts',
      intervalMs: config.alertIntervalSec * 1000,
      run: (now) => s.tracking.evaluateAlerts(now).then(() => {}),
    },
    {
      name: 'deliver-alerts',
      intervalMs: 60_000,
      run: (now, signal) => s.tracking.delivery.runPending(now, signal).then(() => {}),
    },
    measureUpdatesJob(s.updates),
    ...(s.ugc.collector ? [collectCatalogJob(s.ugc.collector)] : []),
    refreshKeywordsJob(s.keywords),
    detectClonesJob(s.intelligence.clones),
    purgeRefreshTokensJob(s.accounts.accounts, s.teams),
    rollupJob(s.analytics),
    {
      // Pruning a large event_ids table takes a while in bounded batches: a long lease.
      name: 'sdk-retention',
      intervalMs: DAY_MS,
      leaseMs: 2 * 60 * 60_000,
      run: (now, signal) => s.ingest.retention.run(now, signal).then(() => {}),
    },
  ];
}

/** Every long-running consumer the service runs. */
export function allWorkers(s: Services): Worker[] {
  return [
    {
      name: 'ingest-writer',
      roles: ['serve', 'worker'],
      start: () => s.ingest.start(),
      stop: () => s.ingest.stop(),
    },
    {
      name: 'ingest-publisher',
      roles: ['serve'],
      start: () => s.ingest.start({ writer: false }),
      stop: () => s.ingest.stop(),
    },
  ];
}

/** Whether serve processes leave the ingest writer to workers: with JetStream on a shared
 * database, where worker processes run anyway (they run the jobs), so a burst is absorbed by the
 * serve processes and drained by the workers. */
function writerInWorkersOnly(s: Services): boolean {
  return Boolean(s.config.natsUrl && s.config.databaseUrl);
}

/** The background work a process of `role` runs (see the header for why). */
export function backgroundWork(s: Services, role: Role): { jobs: Job[]; workers: Worker[] } {
  const runsJobs = role === 'worker' || !s.config.databaseUrl;
  const ingest = role === 'serve' && writerInWorkersOnly(s) ? 'ingest-publisher' : 'ingest-writer';
  return {
    jobs: runsJobs ? allJobs(s) : [],
    workers: allWorkers(s).filter(
      (w) => w.roles.includes(role) && (!w.name.startsWith('ingest-') || w.name === ingest),
    ),
  };
}

/**
 * Deletes refresh tokens, and verification and reset tokens, past their expiry, once a day, and
 * team invitations that ended (accepted, cancelled or expired) more than 30 days ago.
 */
export function purgeRefreshTokensJob(accounts: AccountsService, teams?: TeamsService): Job {
  return {
    name: 'purge-expired-refresh-tokens',
    intervalMs: DAY_MS,
    async run(now) {
      await accounts.purgeExpiredRefreshTokens(now);
      await accounts.purgeExpiredAccountTokens(now);
      await teams?.purgeOldInvites(now);
    },
  };
}
