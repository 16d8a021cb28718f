/**
 * A server to load, in its own process so the load generator does not share its CPU time:
 *   tsx bench/server.ts bare   → a bare Fastify route (the floor)
 *   tsx bench/server.ts app    → the real svc server on a fresh embedded database
 *   tsx bench/server.ts ingest-floor → a bare Fastify POST route that only parses the ingest body
 *                                      (same body limit) and answers its event count
 *   tsx bench/server.ts ingest-sync|ingest-async → the real svc server, ingest forced to that mode,
 *       on DATABASE_URL when set (else embedded PGlite in DATA_DIR), with a Studio team whose quota
 *       and ingest rate limit never trip; prints "READY <url> <api key>"
 * Prints "READY <url>" once listening; exits on SIGTERM.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { rollupJob } from '../src/analytics/index.js';
import { BODY_LIMIT } from '../src/app.js';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { Scheduler } from '../src/jobs/index.js';
import { startServer } from '../src/main.js';
import { BENCH_USER, TEAM_AUDIT_ROWS } from './lib.js';

const kind = process.argv[2];

if (kind === 'bare') {
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ status: 'ok' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`READY http://127.0.0.1:${port}\n`);
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
} else if (kind === 'app' || kind === 'teams') {
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
    ENTITLEMENTS: JSON.stringify({ anonymousRatePerMin: 1e9, authRatePerMin: 1e9, plans: unlimited }),
  });
  // No background jobs: the collector would compete with the load for the CPU.
  const server = await startServer(config, { jobs: [] });
  const { accounts } = server.services.accounts;
  const user = await accounts.createUser({
    email: BENCH_USER.email,
    password: BENCH_USER.password,
    ...(kind === 'teams' ? { plan: 'Enterprise' as const } : {}),
  });
  if (kind === 'teams') await seedTeam(server, user.id);
  process.stdout.write(`READY ${server.url}\n`);
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
} else if (kind === 'ingest-floor') {
  // The parse-only floor of POST /api/sdk/events: the same JSON parser and body limit, no work.
  const app = Fastify({ logger: false, bodyLimit: BODY_LIMIT });
  app.post('/api/sdk/events', async (request) => {
    const events = (request.body as { events?: unknown } | null)?.events;
    return { accepted: Array.isArray(events) ? events.length : 0, rejected: 0, deduped: 0, errors: [] };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`READY http://127.0.0.1:${port}\n`);
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
} else if (kind === 'ingest-sync' || kind === 'ingest-async') {
  // DATA_DIR and DATABASE_URL come from the bench (it counts the stored events after shutdown).
  const huge = 1_000_000_000_000;
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: process.env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'svc-bench-')),
    DATABASE_URL: process.env.DATABASE_URL,
    // async with NATS_URL: the JetStream queue (its own stream, from the bench), else in-process.
    NATS_URL: kind === 'ingest-async' ? process.env.NATS_URL : undefined,
    NATS_INGEST_STREAM: process.env.NATS_INGEST_STREAM,
    LOG_LEVEL: 'warn',
    JWT_SECRET: 'bench-secret-0123456789abcdef0123456789',
    // Quota and ingest rate limit far above what the load generator can send.
    ENTITLEMENTS: JSON.stringify({
      ingestBurst: huge,
      ingestPerSecond: huge,
      plans: { Studio: { monthlySdkEvents: huge }, Enterprise: { monthlySdkEvents: huge } },
    }),
  });
  const server = await startServer(config, { jobs: [] });
  // The runtime's mode switch (the one the tests use): async queues for the in-process writer.
  server.app.ingest.service.mode = kind === 'ingest-sync' ? 'sync' : 'async';
  const { accounts, apiKeys } = server.services.accounts;
  const user = await accounts.createUser({ ...BENCH_USER, plan: 'Studio' });
  const team = await server.db.query<{ team_id: number }>('SELECT team_id FROM users WHERE id = $1', [
    user.id,
  ]);
  const key = await apiKeys.create({ userId: user.id, teamId: team.rows[0]!.team_id }, 'bench', [
    'sdk:ingest',
  ]);
  const ingest = server.app.ingest;
  // JetStream connects in the background: until it has, ingest is synchronous.
  for (let i = 0; i < 100 && ingest.queue.kind === 'jetstream' && !ingest.queue.healthy(); i += 1) {
    await new Promise((r) => setTimeout(r, 100));
  }
  // "DRAIN" on stdin: write everything queued, then answer "DRAINED" (the bench times it).
  const drain = async () => {
    while ((await ingest.writer.flush()) > 0);
  };
  let commands = '';
  process.stdin.on('data', (chunk: Buffer) => {
    commands += chunk.toString();
    for (let nl = commands.indexOf('\n'); nl >= 0; nl = commands.indexOf('\n')) {
      const command = commands.slice(0, nl).trim();
      commands = commands.slice(nl + 1);
      if (command === 'DRAIN') void drain().then(() => process.stdout.write('DRAINED\n'));
    }
  });
  // BENCH_ROLLUPS=1: the rollup job while the load runs, scheduled (and so paced) as in production.
  const scheduler = new Scheduler({ db: server.db, clock: systemClock, log: server.log });
  if (process.env.BENCH_ROLLUPS === '1') scheduler.add(rollupJob(server.services.analytics)).start();
  process.stdout.write(`READY ${server.url} ${key.key}\n`);
  // Batches left in the outbox wait for the next writer: the bench counts `events` after the
  // shutdown, so its server drains the queue first.
  process.on(
    'SIGTERM',
    () =>
      void (async () => {
        await scheduler.stop();
        await drain();
        await server.close();
        process.exit(0);
      })(),
  );
} else {
  process.stderr.write('usage: tsx bench/server.ts bare|app|market|ingest-floor|ingest-sync|ingest-async\n');
  process.exit(2);
}

/**
 * The teams bench's data: a shared team owned by the bench user with 24 more members, and
 * TEAM_AUDIT_ROWS audit entries in it (every 100th a role change), written in one statement.
 */
async function seedTeam(server: Awaited<ReturnType<typeof startServer>>, ownerId: number): Promise<void> {
  const { teams } = server.services;
  const team = await teams.create({ userId: ownerId, ip: '127.0.0.1' }, 'Bench Studio');
  const { accounts } = server.services.accounts;
  for (let i = 0; i < 24; i++) {
    const u = await accounts.createUser({
      email: `member${i}@example.com`,
      password: 'bench member password',
    });
    await server.db.query(
      `INSERT INTO team_members (team_id, user_id, role, joined_at) VALUES ($1, $2, 'viewer', now())`,
      [team.id, u.id],
    );
  }
  await server.db.query(
    `INSERT INTO audit_log (at, team_id, actor_id, actor_email, action, target_type, target_id, ip, user_agent, after)
     SELECT now() - make_interval(secs => $2 - g), $1, $3, 'bench@example.com',
            CASE WHEN g % 100 = 0 THEN 'member.role_changed' ELSE 'member.signed_in' END,
            'user', $4, '127.0.0.1', 'bench', '{"method":"password"}'::jsonb
       FROM generate_series(1, $2) g`,
    [team.id, TEAM_AUDIT_ROWS, ownerId, String(ownerId)],
  );
}
