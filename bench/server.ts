/**
 * A server to load, in its own process so the load generator does not share its CPU time:
 *   tsx bench/server.ts bare   → a bare Fastify route (the floor)
 *   tsx bench/server.ts app    → the real svc server on a fresh embedded database
 *   tsx bench/server.ts market → the same, with 8 days of simulated market history and its views
 * Prints "READY <url>" once listening; exits on SIGTERM.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { createAccounts } from '../src/accounts/index.js';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/main.js';
import { backfill, refreshViews } from '../src/market/index.js';
import { createPlatformSource } from '../src/platform/index.js';
import { BENCH_USER } from './lib.js';

const kind = process.argv[2];

if (kind === 'bare') {
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ status: 'ok' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`READY http://127.0.0.1:${port}\n`);
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
} else if (kind === 'app' || kind === 'market') {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  // Limits far above what the load generator can send: the benchmark measures work, not 429s.
  const unlimited = Object.fromEntries(
    ['Explorer', 'Builder', 'Studio', 'Enterprise'].map((p) => [p, { readRatePerMin: 1e9 }]),
  );
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    JWT_SECRET: 'bench-secret-0123456789abcdef0123456789',
    ENTITLEMENTS: JSON.stringify({ anonymousRatePerMin: 1e9, plans: unlimited }),
  });
  // No background jobs: the collector would compete with the load for the CPU.
  const server = await startServer(config, { jobs: [] });
  if (kind === 'market') {
    const platform = createPlatformSource(config);
    const now = systemClock.now();
    await backfill({ db: server.db, platform, log: server.app.log }, 8, now);
    await refreshViews(server.db, now, { force: true });
  }
  const { accounts } = createAccounts({
    db: server.db,
    kv: server.kv,
    clock: systemClock,
    jwtSecret: config.jwtSecret!,
  });
  await accounts.createUser({ email: BENCH_USER.email, password: BENCH_USER.password });
  process.stdout.write(`READY ${server.url}\n`);
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
} else {
  process.stderr.write('usage: tsx bench/server.ts bare|app|market\n');
  process.exit(2);
}
