import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { type Accounts, createAccounts } from '../../src/accounts/index.js';
import { buildApp } from '../../src/app.js';
import { type Clock, systemClock } from '../../src/clock.js';
import { type Config, loadConfig } from '../../src/config.js';
import type { Engine } from '../../src/db/index.js';
import { type Kv, memoryKv } from '../../src/kv/index.js';
import type { PlatformSource } from '../../src/platform/index.js';
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
  /** The accounts services on the same database and store (to create users with any plan). */
  accounts: Accounts;
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
  /** An existing (migrated) database instead of a fresh one, e.g. on a private cluster; the app
   * disposes it on close. */
  testDb?: TestDb;
  /** Register extra routes before the app is ready. */
  configure?: (app: FastifyInstance) => void | Promise<void>;
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
    ...options.env,
  });
  const logs = new LogCapture();
  const kv = options.kv ?? memoryKv();
  const app = await buildApp({
    config,
    db: testDb.db,
    clock: options.clock ?? systemClock,
    kv,
    jwtSecret: TEST_JWT_SECRET,
    logStream: logs,
    ...(options.platform ? { platform: options.platform } : {}),
  });
  await options.configure?.(app);
  await app.ready();
  const accounts = createAccounts({
    db: testDb.db,
    kv,
    clock: options.clock ?? systemClock,
    jwtSecret: TEST_JWT_SECRET,
  });
  return {
    app,
    accounts,
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
