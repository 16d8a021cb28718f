import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Accounts } from '../../src/accounts/index.js';
import { buildApp } from '../../src/app.js';
import { type Clock, systemClock } from '../../src/clock.js';
import { type Config, loadConfig } from '../../src/config.js';
import type { Engine } from '../../src/db/index.js';
import { backgroundWork } from '../../src/jobs/index.js';
import { type Kv, memoryKv } from '../../src/kv/index.js';
import { createLogger } from '../../src/main.js';
import type { CatalogSource, PlatformSource } from '../../src/platform/index.js';
import { createServices, type ServiceDeps, type Services } from '../../src/services.js';
import { migratedDb, type TestDb } from './db.js';

export const TEST_JWT_SECRET = 'test-secret-0123456789abcdef0123456789';

/** Collects the app's JSON log lines so tests can assert what was (and was not) logged. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  get text(): string {
    return this.lines.join('\n');
  }
  records(): Record<string, unknown>[] {
    return this.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  }
}

export interface TestApp {
  app: FastifyInstance;
  /** The accounts services the app uses (to create users with any plan). */
  accounts: Accounts;
  /** Every service the app was built over (createServices, as main.ts builds them). */
  services: Services;
  testDb: TestDb;
  config: Config;
  logs: LogCapture;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  engine?: Engine;
  clock?: Clock;
  /** The shared store (memory unless given; tests of multi-process behaviour pass a Redis one). */
  kv?: Kv;
  /** The market data source tracking reads games from (none unless given). */
  platform?: PlatformSource;
  /** The UGC catalog source (none unless given: no collect-ugc-catalog job). */
  catalog?: CatalogSource;
  /** An existing (migrated) database instead of a fresh one, e.g. on a private cluster; the app
   * disposes it on close. */
  testDb?: TestDb;
  /** Register extra routes before the app is ready. */
  configure?: (app: FastifyInstance) => void | Promise<void>;
  /** Ingest overrides: the queue, the starting mode, the writer's interval. */
  ingest?: ServiceDeps['ingest'];
  /** Dev Lens threads and caps, narrative writer. */
  devLens?: ServiceDeps['devLens'];
}

/** The real app on a fresh, migrated database (PGlite in memory unless `engine` says otherwise). */
export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const testDb = options.testDb ?? (await migratedDb(options.engine ?? 'pglite'));
  // Every injected request comes from 127.0.0.1: lift the per-IP limits (anonymous reads, auth,
  // failed key lookups) so a file's many requests do not trip them. Rate-limit tests pass their own
  // ENTITLEMENTS.
  const config = loadConfig({
    LOG_LEVEL: 'info',
    ENTITLEMENTS: JSON.stringify({
      anonymousRatePerMin: 100_000,
      authRatePerMin: 100_000,
      apiKeyFailuresPerMin: 100_000,
    }),
    // API only unless a test serves a web app (whether dist/web is built must not change a test).
    WEB_DIR: '/nonexistent/svc-web',
    ...options.env,
  });
  const logs = new LogCapture();
  const kv = options.kv ?? memoryKv();
  const services = createServices({
    config,
    db: testDb.db,
    kv,
    clock: options.clock ?? systemClock,
    ...(options.platform ? { platform: options.platform } : {}),
    ...(options.catalog ? { catalog: options.catalog } : {}),
    log: createLogger(config, logs),
    jwtSecret: TEST_JWT_SECRET,
    ...(options.ingest ? { ingest: options.ingest } : {}),
    ...(options.devLens ? { devLens: options.devLens } : {}),
  });
  const app = await buildApp(services, { logStream: logs });
  // As `svc serve` runs them (the ingest writer); closing the app stops them and the services.
  const { workers } = backgroundWork(services, 'serve');
  app.addHook('onClose', async () => {
    for (const worker of workers) await worker.stop();
    await services.close();
  });
  await options.configure?.(app);
  await app.ready();
  for (const worker of workers) worker.start();
  return {
    app,
    accounts: services.accounts,
    services,
    testDb,
    config,
    logs,
    async close() {
      await app.close();
      await testDb.dispose();
      if (!options.kv) await kv.close();
    },
  };
}
