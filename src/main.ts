/**
 * Composition root: loadConfig → open db → migrate → start roles; graceful close.
 * `serve` runs HTTP (and, embedded, the background jobs); `worker` runs background jobs only.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pino, { type DestinationStream } from 'pino';
import { AccountsService, type DemoAccounts, ensureDemoAccounts, TokenSigner } from './accounts/index.js';
import { buildApp } from './app.js';
import { type Clock, systemClock } from './clock.js';
import { type Config, resolveJwtSecret, resolveSecretsKeys } from './config.js';
import { connectDb, type Db, migrate } from './db/index.js';
import { ForecastService } from './games/index.js';
import { loggerOptions } from './http/index.js';
import { createIngestWorker } from './ingest/index.js';
import { allJobs, type Job, Scheduler } from './jobs/index.js';
import { connectKv, type Kv } from './kv/index.js';
import { collectorDeps } from './market/index.js';
import { createPlatformSource, type PlatformSource } from './platform/index.js';
import { createDelivery, evaluateAlerts, SecretBox, sealPlainSecrets } from './tracking/index.js';

export interface StartOptions {
  clock?: Clock;
  logStream?: DestinationStream;
  /** Extra routes or hooks before listening (tests add slow routes to test shutdown). */
  configure?: (app: FastifyInstance) => void | Promise<void>;
  /** The market data source (default: from PLATFORM_SOURCE). */
  platform?: PlatformSource;
  /** Background jobs to schedule (default: every job in jobs/catalog.ts; `serve` runs them only in
   * embedded mode, since with DATABASE_URL `svc worker` processes do). */
  jobs?: Job[];
}

export interface Running {
  db: Db;
  kv: Kv;
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

export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const clock = options.clock ?? systemClock;
  const bootLog = createLogger(config, options.logStream);
  const secrets = new SecretBox(resolveSecretsKeys(config));
  const db = await openDatabase(config, bootLog);
  await sealStoredSecrets(db, secrets, bootLog);
  const kv = await connectKv(config);
  const jwtSecret = resolveJwtSecret(config);
  const platform = options.platform ?? createPlatformSource(config);
  const app = await buildApp({
    config,
    db,
    clock,
    kv,
    jwtSecret,
    webhookSecrets: secrets,
    platform,
    ...(options.logStream ? { logStream: options.logStream } : {}),
  });
  // Embedded mode (no DATABASE_URL) is a try-it-out install: one demo account per plan.
  const accounts = new AccountsService({ db, kv, clock, signer: new TokenSigner(jwtSecret) });
  const demo = config.databaseUrl ? undefined : await ensureDemoAccounts(accounts, config.dataDir);
  await options.configure?.(app);
  const scheduler = new Scheduler({ db, clock, log: app.log });
  const jobs =
    options.jobs ??
    (config.databaseUrl
      ? []
      : backgroundJobs(config, { db, clock, accounts, platform, secrets, log: app.log }));
  for (const job of jobs) scheduler.add(job);
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await app.close();
    await kv.close();
    await db.close();
    throw err;
  }
  scheduler.start();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const close = once(async (reason) => {
    app.log.info({ reason }, 'shutting down: no new connections, finishing requests in flight');
    await app.close(); // stops accepting, waits for in-flight requests
    await scheduler.stop();
    await platform.close?.();
    await kv.close();
    await db.close();
    app.log.info('shutdown complete');
  });
  return {
    app,
    db,
    kv,
    demo,
    scheduler,
    log: app.log,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close,
  };
}

/** Every background job (jobs/catalog.ts) with the dependencies this process built. */
function backgroundJobs(
  config: Config,
  deps: {
    db: Db;
    clock: Clock;
    accounts: AccountsService;
    platform: PlatformSource;
    secrets: SecretBox;
    log: FastifyBaseLogger;
  },
): Job[] {
  const { db, clock, log } = deps;
  const entitlements = config.entitlements;
  const delivery = createDelivery({
    db,
    clock,
    entitlements,
    webhookAllowPrivate: config.webhookAllowPrivate,
    secrets: deps.secrets,
    log,
    ...(config.smtpUrl ? { smtpUrl: config.smtpUrl } : {}),
  });
  const alerts = (now: Date) => evaluateAlerts({ db, clock, sink: delivery, entitlements, log }, now);
  return allJobs({
    accounts: deps.accounts,
    // Alerts are evaluated on the data each collection brings, as soon as its views are stored.
    market: collectorDeps(db, deps.platform, log, (now) => alerts(now).then(() => {})),
    collectIntervalSec: config.collectIntervalSec,
    forecasts: new ForecastService({ db, clock, entitlements }),
    evaluateAlerts: alerts,
    alertIntervalSec: config.alertIntervalSec,
    delivery,
  });
}

export async function startWorker(config: Config, options: StartOptions = {}): Promise<Running> {
  const clock = options.clock ?? systemClock;
  const log = createLogger(config, options.logStream);
  const secrets = new SecretBox(resolveSecretsKeys(config));
  const db = await openDatabase(config, log);
  await sealStoredSecrets(db, secrets, log);
  const kv = await connectKv(config);
  const scheduler = new Scheduler({ db, clock, log });
  const accounts = new AccountsService({ db, kv, clock, signer: new TokenSigner(resolveJwtSecret(config)) });
  const platform = options.platform ?? createPlatformSource(config);
  for (const job of options.jobs ?? backgroundJobs(config, { db, clock, accounts, platform, secrets, log })) {
    scheduler.add(job);
  }
  scheduler.start();
  // With NATS, workers write the events the API processes queued (embedded mode writes in-process).
  const ingest = config.natsUrl
    ? createIngestWorker({ db, clock, natsUrl: config.natsUrl, natsStream: config.natsIngestStream, log })
    : undefined;
  ingest?.start();
  log.info({ jobs: scheduler.jobNames, ingest: ingest !== undefined }, 'worker started');
  const close = once(async (reason) => {
    log.info({ reason }, 'worker shutting down: finishing running jobs');
    await ingest?.stop();
    await scheduler.stop();
    await platform.close?.();
    await kv.close();
    await db.close();
    log.info('shutdown complete');
  });
  return { db, kv, scheduler, log, close };
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
