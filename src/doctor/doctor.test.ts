import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runSvc } from '../../test/helpers/cli.js';
import { freshPostgresDatabase } from '../../test/helpers/db.js';
import {
  FIXTURES,
  hang,
  needsFixtures,
  type ReplayServer,
  recorded,
  startReplayServer,
  status,
} from '../../test/helpers/roblox-replay.js';
import { freePort, hasNatsServer, NATS_SERVER, portOpen } from '../../test/helpers/services.js';
import { type FakeSmtp, startFakeSmtp } from '../../test/helpers/smtp-server.js';
import { loadConfig } from '../config.js';
import { loadMigrations, migrate, openPglite, openPostgres } from '../db/index.js';
import { JetStreamQueue } from '../ingest/jetstream.js';
import { createRobloxSource } from '../platform/index.js';
import { configCheck } from './check-config.js';
import { databaseCheck } from './check-database.js';
import { natsCheck } from './check-nats.js';
import { platformCheck } from './check-platform.js';
import { smtpCheck } from './check-smtp.js';
import { CHECKS, type Check, type DoctorDeps, maskUrl, redact, runDoctor } from './index.js';

const { DATABASE_URL, REDIS_URL, NATS_URL } = process.env;
const NOW = new Date('2026-03-02T12:00:00Z');
const ALL_MIGRATIONS = loadMigrations();
const TOTAL = ALL_MIGRATIONS.length;

const dataDir = () => mkdtempSync(join(tmpdir(), 'svc-doctor-'));
const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

async function doctor(
  env: Record<string, string>,
  options: { checks?: readonly Check[]; timeoutMs?: number; deps?: Partial<DoctorDeps> } = {},
) {
  const lines: string[] = [];
  const deps: DoctorDeps = {
    config: loadConfig({ DATA_DIR: dataDir(), LOG_LEVEL: 'silent', ...env }),
    timeoutMs: options.timeoutMs ?? 3_000,
    now: () => NOW,
    ...options.deps,
  };
  const failed = await runDoctor(options.checks ?? CHECKS, deps, (l) => lines.push(l));
  /** The lines of one check (`name` as printed in the second column). */
  const of = (name: string) => lines.filter((l) => l.slice(5).startsWith(`${name} `));
  return { failed, lines, of, text: lines.join('\n') };
}

describe('svc doctor: printing', () => {
  it('masks the user and password of URLs and secret query parameters, and leaves plain URLs alone', () => {
    expect(maskUrl('postgres://svc:pa55word@db.internal:5432/svc?sslmode=require')).toBe(
      'postgres://***@db.internal:5432/svc?sslmode=require',
    );
    expect(maskUrl('redis://:s3cret@127.0.0.1:6379/0')).toBe('redis://***@127.0.0.1:6379/0');
    expect(maskUrl('postgres://db/svc?user=svc&password=hunter22')).toBe(
      'postgres://db/svc?user=svc&password=***',
    );
    expect(maskUrl('nats://a:b@n1:4222, nats://n2:4222')).toBe('nats://***@n1:4222,nats://n2:4222');
    expect(maskUrl('http://localhost:8080')).toBe('http://localhost:8080');
    expect(redact('auth failed for hunter22 (hunter22)', ['hunter22'])).toBe('auth failed for *** (***)');
  });

  it('prints in order; a check past its limit is a FAIL naming its step, and what it opened is released', async () => {
    const released: string[] = [];
    const checks: Check[] = [
      {
        name: 'hangs',
        async run(ctx) {
          ctx.about('tcp://127.0.0.1:9');
          ctx.step('waiting for a greeting');
          ctx.defer(() => released.push('socket'));
          return new Promise(() => {});
        },
      },
      {
        name: 'late',
        async run(ctx) {
          await new Promise((r) => setTimeout(r, 300));
          ctx.defer(() => released.push('late pool'));
          return { status: 'ok', detail: 'too late to count' };
        },
      },
      {
        name: 'refused',
        async run(ctx) {
          ctx.about('tcp://localhost:1');
          // What Node gives for a name with two addresses, both refused: an empty message.
          throw Object.assign(
            new AggregateError(
              [new Error('connect ECONNREFUSED ::1:1'), new Error('connect ECONNREFUSED 127.0.0.1:1')],
              '',
            ),
            { code: 'ECONNREFUSED' },
          );
        },
      },
      { name: 'fine', run: async () => ({ status: 'ok', detail: 'all good' }) },
      { name: 'optional', run: async () => ({ status: 'skip', detail: 'not configured' }) },
    ];
    const r = await doctor({}, { checks, timeoutMs: 100 });
    expect(r.lines).toEqual([
      'FAIL hangs     tcp://127.0.0.1:9: no answer within 100 ms (waiting for a greeting)',
      'FAIL late      no answer within 100 ms',
      'FAIL refused   tcp://localhost:1: connect ECONNREFUSED ::1:1; connect ECONNREFUSED 127.0.0.1:1',
      'ok   fine      all good',
      'skip optional  not configured',
    ]);
    expect(r.failed).toBe(3);
    expect(released).toEqual(['socket']);
    // Opened after its check gave up: released at once.
    await vi.waitFor(() => expect(released).toEqual(['socket', 'late pool']));
  });
});

describe('svc doctor: configuration', () => {
  it('names where each secret comes from without creating one', async () => {
    const DATA_DIR = dataDir();
    const r = await doctor({ DATA_DIR, PORT: '9090' }, { checks: [configCheck] });
    expect(r.lines).toEqual([
      `ok   config    PUBLIC_URL http://localhost:9090, listening on localhost:9090; JWT secret to be generated ` +
        `into ${DATA_DIR}/jwt-secret on first start; secrets key to be generated into ${DATA_DIR}/secrets-key on first start`,
    ]);
    expect(existsSync(join(DATA_DIR, 'jwt-secret'))).toBe(false);
    expect(existsSync(join(DATA_DIR, 'secrets-key'))).toBe(false);

    writeFileSync(join(DATA_DIR, 'jwt-secret'), `${'j'.repeat(64)}\n`);
    writeFileSync(join(DATA_DIR, 'secrets-key'), `${'ab'.repeat(32)}\n`);
    const previous = Buffer.alloc(32, 7).toString('base64');
    const stored = await doctor({ DATA_DIR, SECRETS_KEY_PREVIOUS: previous }, { checks: [configCheck] });
    expect(stored.lines).toEqual([
      `ok   config    PUBLIC_URL http://localhost:8080, listening on localhost:8080; JWT secret from ` +
        `${DATA_DIR}/jwt-secret; secrets key from ${DATA_DIR}/secrets-key (+1 in SECRETS_KEY_PREVIOUS)`,
    ]);
  });

  it('warns about per-host secrets and an http public address once processes share a database', async () => {
    const r = await doctor(
      { DATABASE_URL: 'postgres://svc@db.internal/svc', PUBLIC_URL: 'http://svc.example.com' },
      { checks: [configCheck] },
    );
    expect(r.failed).toBe(0);
    expect(r.lines.slice(1)).toEqual([
      'warn config    JWT_SECRET is not set: each host signs sessions with its own DATA_DIR/jwt-secret; set one JWT_SECRET on every host',
      'warn config    SECRETS_KEY is not set: webhook secrets are encrypted with this host’s DATA_DIR/secrets-key; set one SECRETS_KEY on every host',
      'warn config    PUBLIC_URL is http://svc.example.com: cookies go without Secure; serve https (behind a proxy, TRUST_PROXY=true)',
    ]);
    const set = await doctor(
      {
        DATABASE_URL: 'postgres://svc@db.internal/svc',
        PUBLIC_URL: 'https://svc.example.com',
        JWT_SECRET: 'a-very-long-signing-secret-of-40-characters',
        SECRETS_KEY: 'cd'.repeat(32),
      },
      { checks: [configCheck] },
    );
    expect(set.lines).toEqual([
      'ok   config    PUBLIC_URL https://svc.example.com, listening on localhost:8080; JWT secret from JWT_SECRET; secrets key from SECRETS_KEY',
    ]);
    expect(set.text).not.toContain('a-very-long-signing-secret');
  });

  it('fails on a stored secrets key that is not a key and on a short stored JWT secret', async () => {
    const DATA_DIR = dataDir();
    writeFileSync(join(DATA_DIR, 'jwt-secret'), 'short\n');
    writeFileSync(join(DATA_DIR, 'secrets-key'), 'not-a-key\n');
    const r = await doctor({ DATA_DIR }, { checks: [configCheck] });
    expect(r.failed).toBe(1);
    expect(r.lines).toEqual([
      `FAIL config    ${DATA_DIR}/jwt-secret holds 5 characters (32 needed): delete it or set JWT_SECRET; ` +
        `${DATA_DIR}/secrets-key is not a 32-byte key (hex or base64): restore it or set SECRETS_KEY`,
    ]);
  });
});

describe('svc doctor: embedded database', () => {
  it('is a FAIL before the database exists, names pending migrations, and is ok once migrated', async () => {
    const DATA_DIR = dataDir();
    const dir = join(DATA_DIR, 'pg');
    const none = await doctor({ DATA_DIR }, { checks: [databaseCheck] });
    expect(none.lines).toEqual([
      `FAIL database  no embedded database in ${dir} yet: svc migrate (or the first svc serve) creates it`,
    ]);
    expect(existsSync(dir)).toBe(false);

    const db = await openPglite(dir);
    await migrate(db, { migrations: ALL_MIGRATIONS.slice(0, -2) });
    await db.close();
    const pending = await doctor({ DATA_DIR }, { checks: [databaseCheck] });
    const [a, b] = ALL_MIGRATIONS.slice(-2).map((m) => m.file);
    expect(pending.failed).toBe(1);
    expect(pending.lines[0]).toMatch(
      new RegExp(
        `^FAIL database  pglite \\(PostgreSQL [\\d.]+\\) at ${literal(dir)}, 2 of ${TOTAL} migrations pending ` +
          `\\(${a}, ${b}; ${TOTAL - 2} applied\\): run svc migrate$`,
      ),
    );

    const again = await openPglite(dir);
    await migrate(again);
    await again.close();
    const ok = await doctor({ DATA_DIR }, { checks: [databaseCheck] });
    expect(ok.lines[0]).toMatch(
      new RegExp(
        `^ok   database  pglite \\(PostgreSQL [\\d.]+\\) at ${literal(dir)}, migrated \\(${TOTAL} of ${TOTAL}\\)$`,
      ),
    );
    // Only the migrations this build knows count: a database migrated by a newer svc is a warning.
    const older = await doctor(
      { DATA_DIR },
      { checks: [databaseCheck], deps: { migrations: ALL_MIGRATIONS.slice(0, -1) } },
    );
    expect(older.failed).toBe(0);
    expect(older.lines[0]).toMatch(
      new RegExp(
        `^warn database  .*, migrated \\(${TOTAL - 1} of ${TOTAL - 1}\\); it also has migration ` +
          `${ALL_MIGRATIONS.at(-1)!.version}, which this svc does not know: a newer svc migrated it$`,
      ),
    );
  });
});

describe('svc doctor: platform source', () => {
  let server: ReplayServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const roblox = (url: string): Partial<DoctorDeps> => ({
    robloxSource: (options) => createRobloxSource({ ...options, gamesBaseUrl: url }),
  });

  it('reports the simulated market’s shape', async () => {
    const r = await doctor({ SIMULATION_SEED: '1' }, { checks: [platformCheck] });
    expect(r.lines).toEqual([
      'ok   platform  simulated market (SIMULATION_SEED 1): 5,000 games in 17 genres, 4,349 live now',
    ]);
  });

  it('builds the simulated market with SIMULATION_GAMES games', async () => {
    const r = await doctor({ SIMULATION_SEED: '1', SIMULATION_GAMES: '400' }, { checks: [platformCheck] });
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]).toMatch(
      /^ok {3}platform {2}simulated market \(SIMULATION_SEED 1\): 400 games in 17 genres, \d{3} live now$/,
    );
  });

  it(
    'asks the Roblox games API once: ok from the recorded reply',
    needsFixtures(FIXTURES.crossroads),
    async () => {
      server = await startReplayServer({ '/v1/games': recorded(FIXTURES.crossroads) });
      const r = await doctor(
        { PLATFORM_SOURCE: 'roblox' },
        { checks: [platformCheck], deps: roblox(server.url) },
      );
      expect(r.lines[0]).toMatch(
        /^ok {3}platform {2}Roblox web APIs: GET v1\/games answered in \d+ ms \(universe 13058 "Classic: Crossroads", 21 playing\)$/,
      );
      expect(server.requests.map((q) => `${q.path}?${q.query}`)).toEqual(['/v1/games?universeIds=13058']);
    },
  );

  it('says why the Roblox API failed: an HTTP status or no answer, one attempt each', async () => {
    server = await startReplayServer({ '/v1/games': status(403) });
    const refused = await doctor(
      { PLATFORM_SOURCE: 'roblox' },
      { checks: [platformCheck], deps: roblox(server.url) },
    );
    expect(refused.lines).toEqual([
      'FAIL platform  Roblox web APIs: GET v1/games failed: http_4xx (HTTP 403 {"errors":[{"code":0,"message":"scripted fault"}]})',
    ]);
    server.route('/v1/games', hang);
    const hung = await doctor(
      { PLATFORM_SOURCE: 'roblox' },
      { checks: [platformCheck], deps: roblox(server.url), timeoutMs: 600 },
    );
    expect(hung.lines).toEqual([
      'FAIL platform  Roblox web APIs: GET v1/games failed: timeout (no answer in 350 ms; gave up after 1 attempts)',
    ]);
    expect(server.requests).toHaveLength(2);
  });
});

describe('svc doctor: SMTP', () => {
  let smtp: FakeSmtp | undefined;
  afterEach(async () => {
    await smtp?.close();
    smtp = undefined;
  });

  it('logs in and sends nothing; a refused login is a FAIL; the password is never printed', async () => {
    smtp = await startFakeSmtp({ user: 'alerts', password: 'smtp-pa55word' });
    const url = `smtp://alerts:smtp-pa55word@127.0.0.1:${smtp.port}`;
    const ok = await doctor({ SMTP_URL: url }, { checks: [smtpCheck] });
    expect(ok.lines).toEqual([
      `ok   smtp      smtp://***@127.0.0.1:${smtp.port}: the server accepted EHLO and the login (no mail sent)`,
    ]);
    // QUIT may reach the server just after verify() resolved.
    await vi.waitFor(() =>
      expect(smtp!.commands.map((c) => c.split(' ')[0])).toEqual(['EHLO', 'AUTH', 'QUIT']),
    );

    const wrong = await doctor(
      { SMTP_URL: `smtp://alerts:not-the-pa55word@127.0.0.1:${smtp.port}` },
      { checks: [smtpCheck] },
    );
    expect(wrong.failed).toBe(1);
    expect(wrong.lines[0]).toMatch(
      new RegExp(
        `^FAIL smtp {6}smtp://\\*\\*\\*@127\\.0\\.0\\.1:${smtp.port}: .*535 5\\.7\\.8 Authentication failed`,
      ),
    );
    expect(`${ok.text}\n${wrong.text}`).not.toMatch(/pa55word/);
  });
});

describe('svc doctor: engines that cannot be reached', () => {
  it('prints a FAIL for each refused port, exits 1, and masks every credential', async () => {
    const r = await runSvc(['doctor'], {
      DATA_DIR: dataDir(),
      DATABASE_URL: 'postgres://svc:db-pa55word@127.0.0.1:1/svc',
      REDIS_URL: 'redis://:redis-pa55word@127.0.0.1:1',
      NATS_URL: 'nats://svc:nats-pa55word@127.0.0.1:1',
      SMTP_URL: 'smtp://svc:smtp-pa55word@127.0.0.1:1',
      JWT_SECRET: 'jwt-secret-jwt-secret-jwt-secret-jwt-secret',
      SECRETS_KEY: 'ef'.repeat(32),
    });
    expect(r.code).toBe(1);
    expect(r.err).toBe('');
    expect(r.out.slice(1, 5)).toEqual([
      'FAIL database  postgres at postgres://***@127.0.0.1:1/svc: connect ECONNREFUSED 127.0.0.1:1',
      'FAIL redis     redis://***@127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1',
      'FAIL nats      nats://***@127.0.0.1:1: CONNECTION_REFUSED',
      'FAIL smtp      smtp://***@127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1 (ESOCKET)',
    ]);
    expect(r.out[0]).toMatch(/^ok {3}config {4}/);
    expect(r.out[5]).toMatch(/^ok {3}platform {2}simulated market/);
    expect(r.out.join('\n')).not.toMatch(/pa55word|jwt-secret-jwt/);
  });

  it('a server that accepts and never answers is a FAIL within the limit, not a hang', async () => {
    const silent = await startFakeSmtp({ silent: true });
    try {
      const at = `127.0.0.1:${silent.port}`;
      const r = await doctor(
        {
          DATABASE_URL: `postgres://svc@${at}/svc`,
          REDIS_URL: `redis://${at}`,
          NATS_URL: `nats://${at}`,
          SMTP_URL: `smtp://${at}`,
        },
        { timeoutMs: 500 },
      );
      expect(r.failed).toBe(4);
      expect(r.of('database')).toEqual([
        expect.stringMatching(`^FAIL database  postgres at postgres://\\*\\*\\*@${at}/svc: `),
      ]);
      expect(r.of('redis')).toEqual([expect.stringMatching(`^FAIL redis     redis://${at}: `)]);
      expect(r.of('nats')).toEqual([expect.stringMatching(`^FAIL nats      nats://${at}: `)]);
      expect(r.of('smtp')).toEqual([expect.stringMatching(`^FAIL smtp      smtp://${at}: `)]);
    } finally {
      await silent.close();
    }
  });
});

describe.runIf(hasNatsServer())('svc doctor: a NATS server without JetStream', () => {
  it('is a FAIL that says how to turn JetStream on', async () => {
    const port = await freePort();
    const server = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
    try {
      await vi.waitFor(async () => expect(await portOpen(port)).toBe(true), { timeout: 10_000 });
      const r = await doctor({ NATS_URL: `nats://127.0.0.1:${port}` }, { checks: [natsCheck] });
      expect(r.lines).toEqual([
        expect.stringMatching(
          new RegExp(
            `^FAIL nats      nats://127\\.0\\.0\\.1:${port}, NATS [\\d.]+: JetStream is not enabled \\(start nats-server with -js\\)$`,
          ),
        ),
      ]);
    } finally {
      server.kill('SIGTERM');
    }
  });
});

describe.runIf(DATABASE_URL)('svc doctor: PostgreSQL', () => {
  const dbs: { drop(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const d of dbs) await d.drop();
  });

  async function database(migrations = ALL_MIGRATIONS): Promise<string> {
    const fresh = await freshPostgresDatabase();
    dbs.push(fresh);
    const db = await openPostgres(fresh.url, { max: 1 });
    await migrate(db, { migrations });
    await db.close();
    return fresh.url;
  }

  it('reports the server version and the migrations, never the password', async () => {
    const url = new URL(await database());
    url.password = 'pg-pa55word'; // the test server trusts local connections: it is not checked
    const r = await doctor({ DATABASE_URL: url.toString() }, { checks: [databaseCheck] });
    const masked = literal(`postgres://***@${url.host}${url.pathname}`);
    expect(r.lines).toEqual([
      expect.stringMatching(
        new RegExp(`^ok   database  postgres \\d+\\.\\d+ at ${masked}, migrated \\(${TOTAL} of ${TOTAL}\\)$`),
      ),
    ]);
    expect(r.text).not.toContain('pa55word');
  });

  it('is a FAIL naming the pending migrations', async () => {
    const url = await database(ALL_MIGRATIONS.slice(0, -1));
    const r = await doctor({ DATABASE_URL: url }, { checks: [databaseCheck] });
    expect(r.failed).toBe(1);
    expect(r.lines[0]).toMatch(
      new RegExp(
        `, 1 of ${TOTAL} migrations pending \\(${ALL_MIGRATIONS.at(-1)!.file}; ${TOTAL - 1} applied\\): run svc migrate$`,
      ),
    );
  });
});

describe.runIf(NATS_URL)('svc doctor: NATS', () => {
  const streams: string[] = [];
  const name = () => {
    const s = `DOCTOR_${Date.now().toString(36)}_${streams.length}`;
    streams.push(s);
    return s;
  };
  afterAll(async () => {
    const nc = await connect({ servers: NATS_URL! });
    const jsm = await nc.jetstreamManager();
    for (const s of streams) await jsm.streams.delete(s).catch(() => {});
    await nc.close();
  });

  it('reports the ingest stream, its consumer and the messages waiting', async () => {
    const stream = name();
    // The first svc serve or worker creates the stream and its consumer; two batches then wait.
    await (await JetStreamQueue.connect({ url: NATS_URL!, stream })).close();
    const nc = await connect({ servers: NATS_URL! });
    const js = nc.jetstream();
    await js.publish(`${stream}.events`, new TextEncoder().encode('{}'));
    await js.publish(`${stream}.events`, new TextEncoder().encode('{}'));
    await nc.close();
    const r = await doctor({ NATS_URL: NATS_URL!, NATS_INGEST_STREAM: stream }, { checks: [natsCheck] });
    expect(r.lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^ok   nats      ${literal(NATS_URL!)}, NATS [\\d.]+, JetStream on; stream ${stream} \\(file storage, ` +
            `workqueue retention\\), consumer ${stream}_writer: 2 messages waiting$`,
        ),
      ),
    ]);
  });

  it('is a FAIL when the stream or its consumer is missing, and creates neither', async () => {
    const stream = name();
    const missing = await doctor(
      { NATS_URL: NATS_URL!, NATS_INGEST_STREAM: stream },
      { checks: [natsCheck] },
    );
    expect(missing.failed).toBe(1);
    expect(missing.lines[0]).toMatch(
      new RegExp(
        `^FAIL nats      ${literal(NATS_URL!)}, NATS [\\d.]+: stream ${stream} does not exist ` +
          '\\(the first svc serve or svc worker with this NATS_URL creates it\\)$',
      ),
    );
    const nc = await connect({ servers: NATS_URL! });
    try {
      const jsm = await nc.jetstreamManager();
      await expect(jsm.streams.info(stream)).rejects.toThrow('stream not found');
      await jsm.streams.add({ name: stream, subjects: [`${stream}.events`] });
      const noConsumer = await doctor(
        { NATS_URL: NATS_URL!, NATS_INGEST_STREAM: stream },
        { checks: [natsCheck] },
      );
      expect(noConsumer.lines[0]).toMatch(
        new RegExp(`: stream ${stream} has no consumer ${stream}_writer \\(the first svc serve`),
      );
      await expect(jsm.consumers.info(stream, `${stream}_writer`)).rejects.toThrow('consumer not found');
    } finally {
      await nc.close();
    }
  });
});

describe.runIf(DATABASE_URL && REDIS_URL && NATS_URL)('svc doctor against every engine', () => {
  let drop: (() => Promise<void>) | undefined;
  let databaseUrl: string;
  let stream: string;
  beforeAll(async () => {
    const fresh = await freshPostgresDatabase();
    drop = fresh.drop;
    const db = await openPostgres(fresh.url, { max: 1 });
    await migrate(db);
    await db.close();
    databaseUrl = fresh.url;
    stream = `DOCTOR_ALL_${Date.now().toString(36)}`;
    await (await JetStreamQueue.connect({ url: NATS_URL!, stream })).close();
  });
  afterAll(async () => {
    await drop?.();
    const nc = await connect({ servers: NATS_URL! });
    await (await nc.jetstreamManager()).streams.delete(stream).catch(() => {});
    await nc.close();
  });

  it('prints ok for each and exits 0', async () => {
    const r = await runSvc(['doctor'], {
      DATA_DIR: dataDir(),
      DATABASE_URL: databaseUrl,
      REDIS_URL: REDIS_URL!,
      NATS_URL: NATS_URL!,
      NATS_INGEST_STREAM: stream,
      JWT_SECRET: 'jwt-secret-jwt-secret-jwt-secret-jwt-secret',
      SECRETS_KEY: 'ef'.repeat(32),
    });
    expect(r.err).toBe('');
    expect(r.out.map((l) => l.slice(0, 15))).toEqual([
      'ok   config    ',
      'ok   database  ',
      'ok   redis     ',
      'ok   nats      ',
      'skip smtp      ',
      'ok   platform  ',
    ]);
    expect(r.out[2]).toMatch(
      new RegExp(`^ok {3}redis {5}${literal(REDIS_URL!)}, Redis [\\d.]+, PING round trip [\\d.]+ ms$`),
    );
    expect(r.code).toBe(0);
  });
});
