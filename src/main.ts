/**
 * Composition root: loadConfig → open db → migrate → createServices (services.ts) → roles; graceful
 * close. `serve` runs HTTP (buildApp over the services) and, embedded, the background jobs;
 * `worker` runs background work only. What runs in the background, and where, is jobs/catalog.ts.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pino, { type DestinationStream } from 'pino';
import { type DemoAccounts, ensureDemoAccounts } from './accounts/index.js';
import { buildApp } from './app.js';
import { type Clock, systemClock } from './clock.js';
import { type Config, resolveJwtSecret, resolveSecretsKeys } from './config.js';
import { connectDb, type Db, migrate } from './db/index.js';
import { loggerOptions } from './http/index.js';
import { backgroundWork, type Job, type Role, Scheduler, type Worker } from './jobs/index.js';
import { connectKv, type Kv } from './kv/index.js';
import {
  type CatalogSource,
  createCatalogSource,
  createPlatformSource,
  type PlatformSource,
} from './platform/index.js';
import { createServices, type Services } from './services.js';
import { SecretBox, sealPlainSecrets } from './tracking/index.js';

export interface StartOptions {
  clock?: Clock;
  logStream?: DestinationStream;
  /** Extra routes or hooks before listening (tests add slow routes to test shutdown). */
  configure?: (app: FastifyInstance) => void | Promise<void>;
  /** The market data source (default: from PLATFORM_SOURCE). */
  platform?: PlatformSource;
  /** The UGC catalog source (default: from PLATFORM_SOURCE; none when `platform` is given without it). */
  catalog?: CatalogSource;
  /** Background jobs to schedule (default: the role's jobs in jobs/catalog.ts; `serve` runs them
   * only in embedded mode, since with DATABASE_URL `svc worker` processes do). The role's workers
   * (the ingest writer) run either way. */
  jobs?: Job[];
}

export interface Running {
  db: Db;
  kv: Kv;
  /** Every domain service of this process, built once. */
  services: Services;
  scheduler: Scheduler;
  log: FastifyBaseLogger;
  close(reason?: string): Promise<void>;
}

export interface RunningServer extends Running {
  app: FastifyInstance;
  /** Where the server listens, e.g. http://127.0.0.1:8080 */
  url: string;
  /** Embedded mode only: the demo accounts, one per plan. */
  demo: DemoAccounts | undefined;
}

export function createLogger(
  config: Pick<Config, 'logLevel'>,
  stream?: DestinationStream,
): FastifyBaseLogger {
  const { stream: dest, ...options } = loggerOptions({
    level: config.logLevel,
    ...(stream ? { stream } : {}),
  });
  return (dest ? pino(options, dest) : pino(options)) as unknown as FastifyBaseLogger;
}

/** Opens the database and applies pending migrations (throws MigrationError on failure). */
export async function openDatabase(config: Config, log: Pick<FastifyBaseLogger, 'info'>): Promise<Db> {
  const db = await connectDb(config);
  try {
    await migrate(db, {
      onApplied: (m, ms) => log.info({ migration: m.file, ms: Math.round(ms) }, 'migration applied'),
    });
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}

/**
 * Encrypts the webhook secrets still stored in plain text (rows older than encryption at rest;
 * none after the first start). Counts only are logged.
 */
async function sealStoredSecrets(
  db: Db,
  secrets: SecretBox,
  log: Pick<FastifyBaseLogger, 'info'>,
): Promise<void> {
  const sealed = await sealPlainSecrets(db, secrets);
  if (sealed.resealed > 0) log.info({ webhooks: sealed.resealed }, 'webhook secrets encrypted at rest');
}

function once(fn: (reason?: string) => Promise<void>): (reason?: string) => Promise<void> {
  let pending: Promise<void> | undefined;
  return (reason) => {
    pending ??= fn(reason);
    return pending;
  };
}

/** What every role opens first: the database (migrated), the store, the platform, then the
 * services over them. `release()` closes them in reverse. */
async function openServices(
  config: Config,
  options: StartOptions,
  log: FastifyBaseLogger,
): Promise<{ services: Services; release(): Promise<void> }> {
  const secrets = new SecretBox(resolveSecretsKeys(config));
  const db = await openDatabase(config, log);
  await sealStoredSecrets(db, secrets, log);
  const kv = await connectKv(config, log);
  const platform = options.platform ?? createPlatformSource(config, log);
  const catalog = options.catalog ?? (options.platform ? undefined : createCatalogSource(config, log));
  const clock = options.clock ?? systemClock;
  const jwtSecret = resolveJwtSecret(config);
  const services = createServices({
    config,
    db,
    kv,
    clock,
    platform,
    ...(catalog ? { catalog } : {}),
    log,
    jwtSecret,
    secrets,
  });
  return {
    services,
    async release() {
      await services.close();
      await platform.close?.();
      await catalog?.close?.();
      await kv.close();
      await db.close();
    },
  };
}

/** The background work of `role` (jobs/catalog.ts), scheduled and started; stop() ends it. */
function startBackground(
  services: Services,
  role: Role,
  jobs: Job[] | undefined,
): { scheduler: Scheduler; workers: Worker[]; stop(): Promise<void> } {
  const work = backgroundWork(services, role);
  const scheduler = new Scheduler({ db: services.db, clock: services.clock, log: services.log });
  for (const job of jobs ?? work.jobs) scheduler.add(job);
  for (const worker of work.workers) worker.start();
  scheduler.start();
  return {
    scheduler,
    workers: work.workers,
    async stop() {
      for (const worker of work.workers) await worker.stop();
      await scheduler.stop();
    },
  };
}

export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const { services, release } = await openServices(config, options, createLogger(config, options.logStream));
  const app = await buildApp(services, options.logStream ? { logStream: options.logStream } : {});
  // Embedded mode (no DATABASE_URL) is a try-it-out install: one demo account per plan.
  const demo = config.databaseUrl
    ? undefined
    : await ensureDemoAccounts(services.accounts.accounts, config.dataDir);
  await options.configure?.(app);
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await app.close();
    await release();
    throw err;
  }
  const background = startBackground(services, 'serve', options.jobs);
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const close = once(async (reason) => {
    app.log.info({ reason }, 'shutting down: no new connections, finishing requests in flight');
    await app.close(); // stops accepting, waits for in-flight requests
    // After the requests: the ingest writer finishes its move, then the database closes.
    await background.stop();
    await release();
    app.log.info('shutdown complete');
  });
  return {
    app,
    db: services.db,
    kv: services.kv,
    services,
    demo,
    scheduler: background.scheduler,
    log: app.log,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close,
  };
}

export async function startWorker(config: Config, options: StartOptions = {}): Promise<Running> {
  const log = createLogger(config, options.logStream);
  const { services, release } = await openServices(config, options, log);
  const background = startBackground(services, 'worker', options.jobs);
  log.info(
    { jobs: background.scheduler.jobNames, workers: background.workers.map((w) => w.name) },
    'worker started',
  );
  const close = once(async (reason) => {
    log.info({ reason }, 'worker shutting down: finishing running jobs');
    await background.stop();
    await release();
    log.info('shutdown complete');
  });
  return { db: services.db, kv: services.kv, services, scheduler: background.scheduler, log, close };
}

/**
 * SIGTERM/SIGINT: close gracefully; a second signal or the timeout forces the exit.
 * Returns a function that removes the handlers (tests).
 */
export function closeOnSignals(
  running: Pick<Running, 'close' | 'log'>,
  timeoutMs: number,
  exit: (code: number) => void = (code) => process.exit(code),
): () => void {
  const handler = (signal: NodeJS.Signals) => {
    if (shuttingDown) {
      running.log.warn({ signal }, 'second signal: exiting now');
      exit(1);
      return;
    }
    shuttingDown = true;
    const timer = setTimeout(() => {
      running.log.error({ timeoutMs }, 'graceful shutdown timed out: exiting');
      exit(1);
    }, timeoutMs);
    timer.unref();
    running
      .close(signal)
      .then(() => {
        clearTimeout(timer);
        exit(0);
      })
      .catch((err: unknown) => {
        running.log.error({ err }, 'shutdown failed');
        exit(1);
      });
  };
  let shuttingDown = false;
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
  return () => {
    process.off('SIGTERM', handler);
    process.off('SIGINT', handler);
  };
}
