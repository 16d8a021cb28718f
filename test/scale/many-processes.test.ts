/**
 * Many processes (issue 19): 2 `svc serve` + 2 `svc worker` processes, the real CLI, on one fresh
 * PostgreSQL database, a private Redis and a private NATS (a fresh stream), as a deployment that
 * outgrew one process runs them. The four share the processes across the tests; in order:
 * rate limits and the quota across serve processes, a logout and a plan change seen by the other
 * serve process at once, every scheduled job once per interval (leases), ingest consumers sharing
 * the stream with one worker killed -9 mid-stream, and each alert delivered once (the delivery job
 * runs every minute, so that test waits for it last).
 *
 * The first scheduled collection would backfill 35 days of history (BACKFILL_DAYS, no setting;
 * about 30 s of writes even for `svc backfill --days 1`): as the app's own tests do, a completed
 * backfill is recorded instead, so every run collects the present.
 *
 * Which process stored which events is seen through a statement trigger this test adds to its own
 * database (each process connects with its own application_name): no product code counts it.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JetStreamQueue } from '../../src/ingest/jetstream.js';
import { allJobs } from '../../src/jobs/index.js';
import { createCatalogSource, createPlatformSource } from '../../src/platform/index.js';
import { verifySignature } from '../../src/tracking/delivery/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createUser } from '../helpers/auth.js';
import { migratedDb } from '../helpers/db.js';
import { type IngestKey, ingestKey, sdkEvents } from '../helpers/ingest.js';
import {
  hasNatsServer,
  hasRedisServer,
  NATS_SERVER,
  type PrivateNats,
  type PrivateRedis,
  privateNats,
  privateRedis,
  REDIS_SERVER,
  SERVE_READY,
  type SvcProcess,
  startSvc,
  streamStats,
  WORKER_READY,
} from '../helpers/services.js';
import { sleep, until } from '../helpers/until.js';

const DATABASE_URL = process.env.DATABASE_URL;
const SKIP = [
  DATABASE_URL ? '' : 'DATABASE_URL is unset',
  hasNatsServer() ? '' : `${NATS_SERVER} is missing`,
  hasRedisServer() ? '' : `${REDIS_SERVER} is missing`,
]
  .filter(Boolean)
  .join('; ');

const INTERVAL_SEC = 10;
const STREAM = 'SVC_INGEST';
/** Messages a killed worker held come back this soon (the consumer is created with it first). */
const ACK_WAIT_MS = 2_000;
/** Builder: the plan of the rate-limit and quota users. */
const READ_LIMIT = 5;
const QUOTA = 1_000;
const ENTITLEMENTS = JSON.stringify({
  // Every request of the test comes from 127.0.0.1: the per-IP buckets are not what is tested.
  anonymousRatePerMin: 100_000,
  authRatePerMin: 100_000,
  ingestBurst: 1_000_000,
  ingestPerSecond: 1_000_000,
  plans: { Builder: { readRatePerMin: READ_LIMIT, monthlySdkEvents: QUOTA } },
});
/** Webhook secrets are sealed by the serve process and opened by a worker: one key for all. */
const SECRETS_KEY = 'a'.repeat(64);
const WEBHOOK_SECRET = 'many-processes-webhook-secret';

interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies of many shapes, read field by field
  body: any;
}

async function call(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: res.status, headers: res.headers, body };
}

async function signIn(base: string, email: string, password: string): Promise<string> {
  const res = await call(base, 'POST', '/api/auth/login', { body: { email, password } });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.access_token as string;
}

/** One row of job_state as a poll saw it. */
interface JobSeen {
  runs: number;
  startedAt: number;
  owner: string | null;
}

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

describe.skipIf(SKIP !== '')(
  SKIP ? `2 serve + 2 worker processes (skipped: ${SKIP})` : '2 serve + 2 worker processes',
  () => {
    let nats: PrivateNats | undefined;
    let redis: PrivateRedis | undefined;
    let t: TestApp | undefined;
    let nc: NatsConnection | undefined;
    let hook: Server | undefined;
    const serves: SvcProcess[] = [];
    const workers: SvcProcess[] = [];
    const received: Received[] = [];
    /** Per job: each distinct run start the poll saw, in order. */
    const seen = new Map<string, JobSeen[]>();
    let polling = true;
    let poller: Promise<void> | undefined;
    let alertUser: { id: number; token: string; alerts: number[] } | undefined;
    let workersStartedAt = 0;
    const url = (i: number) => serves[i]!.match[1]!;

    const query = async <T extends Record<string, unknown>>(sql: string, params: unknown[] = []) =>
      (await t!.testDb.db.query<T>(sql, params)).rows;

    const jsStats = async () => streamStats(await nc!.jetstreamManager(), STREAM);

    /** Waits until every message published so far is written and acked. */
    async function drained(timeoutMs: number): Promise<void> {
      let last: unknown;
      await until(
        'the workers to empty the stream',
        timeoutMs,
        async () => {
          const s = await jsStats();
          last = s;
          return s.pending === 0 && s.ackPending === 0 && s.messages === 0;
        },
        () => last,
        250,
      );
    }

    /** Events of `teamId` stored so far, per process (application_name) that stored them. */
    async function writers(teamId: number): Promise<Record<string, number>> {
      const rows = await query<{ app: string; n: number }>(
        'SELECT app, sum(events)::int AS n FROM test_event_writes WHERE team_id = $1 GROUP BY app',
        [teamId],
      );
      return Object.fromEntries(rows.map((r) => [r.app, r.n]));
    }

    beforeAll(async () => {
      const testDb = await migratedDb('postgres');
      [nats, redis] = await Promise.all([privateNats(), privateRedis()]);
      // The first process to create the durable consumer sets its ack wait; the others keep it.
      await (await JetStreamQueue.connect({ url: nats.url, ackWaitMs: ACK_WAIT_MS })).close();
      nc = await connect({ servers: nats.url });
      const platform = createPlatformSource({
        platformSource: 'simulated',
        simulationSeed: 1,
        simulationGames: 5000,
        collectIntervalSec: INTERVAL_SEC,
      });
      // The processes' sources, so that allJobs here names the jobs they run (collect-ugc-catalog too).
      const sources = { platformSource: 'simulated', simulationSeed: 1 } as const;
      t = await buildTestApp({
        testDb,
        platform,
        catalog: createCatalogSource(sources),
        env: {
          ENTITLEMENTS,
          COLLECT_INTERVAL_SEC: String(INTERVAL_SEC),
          ALERT_INTERVAL_SEC: String(INTERVAL_SEC),
        },
      });
      // This in-process app only creates users and keys: the processes do all the work.
      await t.app.ingest.writer.stop();
      await t.testDb.db.exec(`
        INSERT INTO market_backfills (days, until, started_at, completed_at) VALUES (35, now(), now(), now());
        CREATE TABLE test_event_writes (app text NOT NULL, team_id bigint NOT NULL, events int NOT NULL);
        CREATE FUNCTION test_count_event_writes() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO test_event_writes
            SELECT current_setting('application_name'), team_id, count(*) FROM new_rows GROUP BY team_id;
          RETURN NULL;
        END $$;
        CREATE TRIGGER test_count_event_writes AFTER INSERT ON events
          REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION test_count_event_writes();
      `);
      hook = createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => {
          body += c.toString();
        });
        req.on('end', () => {
          received.push({ headers: req.headers, body });
          res.writeHead(200).end('ok');
        });
      });
      await new Promise<void>((r) => hook!.listen(0, '127.0.0.1', r));
      const hookAddress = hook.address();
      const hookPort = typeof hookAddress === 'object' && hookAddress ? hookAddress.port : 0;

      const env = (name: string) => ({
        DATABASE_URL: `${testDb.url}?application_name=${name}`,
        NATS_URL: nats!.url,
        REDIS_URL: redis!.url,
        ENTITLEMENTS,
        SECRETS_KEY,
        WEBHOOK_ALLOW_PRIVATE: 'true',
        COLLECT_INTERVAL_SEC: String(INTERVAL_SEC),
        ALERT_INTERVAL_SEC: String(INTERVAL_SEC),
        PLATFORM_SOURCE: 'simulated',
        SIMULATION_SEED: '1',
        WEB_DIR: '/nonexistent/svc-web',
      });
      const [alertAccount] = await Promise.all([
        createUser(t, { plan: 'Studio' }),
        ...[0, 1].map(async (i) => {
          const serveEnv = { ...env(`svc-serve-${i + 1}`), PORT: '0', HOST: '127.0.0.1' };
          serves[i] = await startSvc('serve', serveEnv, SERVE_READY);
        }),
      ]);

      // The alert rules exist before any worker evaluates: the first evaluation fires them.
      const token = await signIn(url(0), alertAccount!.email, alertAccount!.password);
      const ids = await platform.discover(new Date());
      const [gameA, gameB] = [ids[0]!, ids[1]!];
      for (const game of [gameA, gameB]) {
        expect((await call(url(0), 'POST', `/api/track/${game}`, { token })).status).toBe(200);
      }
      const webhook = await call(url(1), 'POST', '/api/webhooks', {
        token,
        body: { url: `http://127.0.0.1:${hookPort}/hook`, secret: WEBHOOK_SECRET },
      });
      expect(webhook.status).toBe(201);
      const alerts: number[] = [];
      for (const body of [
        { game_id: gameA, type: 'ccu_spike', threshold: 0 },
        { game_id: gameB, type: 'ccu_drop', threshold: 1_000_000_000 },
      ]) {
        const created = await call(url(0), 'POST', '/api/alerts', { token, body });
        expect(created.status).toBe(201);
        alerts.push(created.body.id as number);
      }
      alertUser = { id: alertAccount!.id, token, alerts };

      // Every run start of every job, seen from before the first one.
      poller = (async () => {
        while (polling) {
          const rows = await query<{
            name: string;
            runs: string;
            last_started_at: Date | null;
            lease_owner: string | null;
          }>('SELECT name, runs, last_started_at, lease_owner FROM job_state').catch(() => []);
          for (const r of rows) {
            if (!r.last_started_at) continue;
            const list = seen.get(r.name) ?? [];
            const last = list.at(-1);
            const startedAt = r.last_started_at.getTime();
            if (!last || last.startedAt !== startedAt) {
              list.push({ runs: Number(r.runs), startedAt, owner: r.lease_owner });
            } else if (!last.owner && r.lease_owner) last.owner = r.lease_owner;
            seen.set(r.name, list);
          }
          await sleep(100);
        }
      })();
      workersStartedAt = Date.now();
      await Promise.all(
        [0, 1].map(async (i) => {
          workers[i] = await startSvc(
            'worker',
            { ...env(`svc-worker-${i + 1}`), LOG_LEVEL: 'info' },
            WORKER_READY,
          );
        }),
      );
    }, 90_000);

    afterAll(async () => {
      polling = false;
      await poller;
      await Promise.all([...serves, ...workers].map((p) => p?.stop().catch(() => {})));
      await nc?.close().catch(() => {});
      await new Promise((r) => (hook ? hook.close(r) : r(undefined)));
      await t?.close();
      await Promise.all([nats?.dispose(), redis?.dispose()]);
    }, 60_000);

    it('holds a per-user rate limit and the monthly SDK quota across both serve processes', async () => {
      const user = await createUser(t!, { plan: 'Builder' });
      const token = await signIn(url(0), user.email, user.password);
      const started = Date.now();
      const answers = await Promise.all(
        Array.from({ length: 4 * READ_LIMIT }, (_, i) => call(url(i % 2), 'GET', '/api/auth/me', { token })),
      );
      const elapsed = Date.now() - started;
      const ok = answers.filter((a) => a.status === 200);
      // A bucket of READ_LIMIT refilled one request every 60/READ_LIMIT s: READ_LIMIT exactly, unless
      // the requests took longer than a refill.
      expect(ok.length).toBeGreaterThanOrEqual(READ_LIMIT);
      expect(ok.length).toBeLessThanOrEqual(READ_LIMIT + Math.floor(elapsed / (60_000 / READ_LIMIT)));
      const refused = answers.filter((a) => a.status !== 200);
      expect(refused.map((a) => [a.status, a.body.code])).toEqual(refused.map(() => [429, 'rate_limited']));
      expect(new Set(answers.map((a) => a.headers.get('ratelimit-policy')))).toEqual(
        new Set([`"user";q=${READ_LIMIT};w=60`]),
      );
      // Both processes answered 200s and 429s alike: the bucket is one.
      const where = (status: number) =>
        new Set(answers.flatMap((a, i) => (a.status === status ? [i % 2] : [])));
      expect(where(429)).toEqual(new Set([0, 1]));

      // The quota: 16 batches of 100 events at once, alternately to both processes, for 1,000 slots.
      const k: IngestKey = await ingestKey(t!, { plan: 'Builder' });
      const batches = await Promise.all(
        Array.from({ length: 16 }, (_, b) =>
          call(url(b % 2), 'POST', '/api/sdk/events', {
            body: { api_key: k.key, events: sdkEvents(b * 100 + 1, 100) },
          }),
        ),
      );
      const taken = batches.filter((a) => a.status === 200 || a.status === 202);
      const full = batches.filter((a) => a.status === 503);
      expect(taken.length + full.length).toBe(16);
      expect(full.map((a) => a.body.code)).toEqual(full.map(() => 'quota_exceeded'));
      expect(taken.reduce((n, a) => n + a.body.accepted, 0)).toBe(QUOTA);
      const rejected = taken.flatMap((a) => a.body.errors as { code: string }[]);
      expect(rejected.length + full.length * 100).toBe(1_600 - QUOTA);
      expect(new Set(rejected.map((e) => e.code))).toEqual(
        new Set(rejected.length ? ['quota_exceeded'] : []),
      );
      const usage = await query<{ used: number }>('SELECT used::int FROM ingest_usage WHERE team_id = $1', [
        k.teamId,
      ]);
      expect(usage).toEqual([{ used: QUOTA }]);
      await drained(30_000);
      const stored = await query<{ n: number; d: number }>(
        'SELECT count(*)::int AS n, count(DISTINCT event_id)::int AS d FROM events WHERE team_id = $1',
        [k.teamId],
      );
      expect(stored).toEqual([{ n: QUOTA, d: QUOTA }]);
    }, 60_000);

    it('ends a session, and applies a plan change, on the other serve process at once', async () => {
      const user = await createUser(t!);
      const login = await call(url(0), 'POST', '/api/auth/login', {
        body: { email: user.email, password: user.password },
      });
      expect(login.status).toBe(200);
      const { access_token: token, refresh_token: refresh } = login.body as Record<string, string>;
      expect((await call(url(1), 'GET', '/api/auth/me', { token })).status).toBe(200);
      expect((await call(url(0), 'POST', '/api/auth/logout', { token })).body).toEqual({
        status: 'logged_out',
      });
      const after = await call(url(1), 'GET', '/api/auth/me', { token });
      expect([after.status, after.body.code]).toEqual([401, 'token_invalid']);
      const refreshed = await call(url(1), 'POST', '/api/auth/refresh', { body: { refresh_token: refresh } });
      expect(refreshed.status).toBe(401);

      // A plan change by an administrator on serve 1: serve 2's very next answer has the new plan
      // and its entitlements (the rate limit of the plan the guard sees).
      const admin = await createUser(t!, { isAdmin: true });
      const adminToken = await signIn(url(0), admin.email, admin.password);
      const member = await createUser(t!);
      const memberToken = await signIn(url(1), member.email, member.password);
      const before = await call(url(1), 'GET', '/api/auth/me', { token: memberToken });
      expect([before.body.plan, before.headers.get('ratelimit-policy')]).toEqual([
        'Explorer',
        '"user";q=60;w=60',
      ]);
      const changed = await call(url(0), 'PATCH', `/api/admin/users/${member.id}`, {
        token: adminToken,
        body: { plan: 'Studio' },
      });
      expect([changed.status, changed.body.plan]).toEqual([200, 'Studio']);
      const now = await call(url(1), 'GET', '/api/auth/me', { token: memberToken });
      expect([now.body.plan, now.body.subscription_status, now.headers.get('ratelimit-policy')]).toEqual([
        'Studio',
        'active',
        '"user";q=1200;w=60',
      ]);
    }, 30_000);

    it('runs the collector and every scheduled job once per interval across the workers (leases)', async () => {
      const jobs = allJobs(t!.services);
      expect(jobs.map((j) => j.name)).toContain('collect-market');
      // Three collections, the last one finished.
      await until(
        'three collections',
        60_000,
        () => {
          const runs = seen.get('collect-market') ?? [];
          return runs.length >= 3;
        },
        () => Object.fromEntries(seen),
      );
      await until('the collector to be idle', 30_000, async () => {
        const [row] = await query<{ lease_owner: string | null }>(
          "SELECT lease_owner FROM job_state WHERE name = 'collect-market'",
        );
        return row?.lease_owner === null;
      });
      const workerPids = new Set(workers.map((w) => String(w.pid)));
      const states = await query<{ name: string; runs: string; last_started_at: Date }>(
        'SELECT name, runs, last_started_at FROM job_state',
      );
      expect(states.map((s) => s.name).sort()).toEqual(jobs.map((j) => j.name).sort());
      for (const job of jobs) {
        const runs = seen.get(job.name) ?? [];
        // Every run was seen (the poll is far faster than any interval): run n is the n-th claim,
        // never two claims for one start, and each start at least an interval after the last.
        expect(
          runs.map((r) => r.runs),
          job.name,
        ).toEqual(runs.map((_, i) => i + 1));
        const gaps = runs.slice(1).map((r, i) => r.startedAt - runs[i]!.startedAt);
        expect(
          gaps.filter((g) => g < job.intervalMs),
          job.name,
        ).toEqual([]);
        // Leases are held by worker processes only (owner `<pid>-<id>`), never by a serve process.
        for (const r of runs.filter((r) => r.owner)) {
          expect(workerPids, `${job.name} run ${r.runs} owner ${r.owner}`).toContain(r.owner!.split('-')[0]);
        }
      }
      // The daily jobs ran once though two workers started.
      for (const daily of ['purge-expired-refresh-tokens', 'sdk-retention']) {
        expect(seen.get(daily)?.length, daily).toBe(1);
      }
      // What the collector wrote: one set of samples per run, at the very time the run was claimed,
      // and one sample per game per collection.
      const collections = Number(states.find((s) => s.name === 'collect-market')!.runs);
      const times = await query<{ ts: Date; games: number }>(
        'SELECT ts, count(*)::int AS games FROM ccu_samples GROUP BY ts ORDER BY ts',
      );
      expect(times.map((r) => r.ts.getTime())).toEqual(
        seen
          .get('collect-market')!
          .slice(0, collections)
          .map((r) => r.startedAt),
      );
      const [perGame] = await query<{ max: number; catalogue: number }>(
        `SELECT max(n)::int AS max, (SELECT count(*)::int FROM games) AS catalogue
           FROM (SELECT universe_id, count(*) AS n FROM ccu_samples GROUP BY universe_id) s`,
      );
      expect(perGame!.max).toBe(collections);
      for (const r of times) expect(r.games).toBeLessThanOrEqual(perGame!.catalogue);
      expect(
        await query('SELECT days FROM market_backfills WHERE completed_at IS NOT NULL'),
        'no backfill ran (the recorded one stands)',
      ).toEqual([{ days: 35 }]);
    }, 90_000);

    it('shares the stream between the workers and stores each event once when one is killed -9 mid-stream', async () => {
      const k = await ingestKey(t!, { plan: 'Studio' });
      const BATCHES = 240;
      const SIZE = 200;
      const answers: Answer[] = [];
      let next = 0;
      let stop = false;
      // 4 posters, alternating between the serve processes, until every batch is answered.
      const posting = Promise.all(
        Array.from({ length: 4 }, async () => {
          while (next < BATCHES && !stop) {
            const b = next++;
            answers.push(
              await call(url(b % 2), 'POST', '/api/sdk/events', {
                body: { api_key: k.key, events: sdkEvents(b * SIZE + 1, SIZE) },
              }),
            );
          }
        }),
      );
      posting.catch(() => {});
      const names = workers.map((_, i) => `svc-worker-${i + 1}`);
      let byWriter: Record<string, number> = {};
      try {
        await until(
          'both workers to store events while batches are still coming',
          60_000,
          async () => {
            byWriter = await writers(k.teamId);
            if (answers.length >= BATCHES)
              throw new Error(`every batch was answered first: ${JSON.stringify(byWriter)}`);
            return names.every((n) => (byWriter[n] ?? 0) > 0);
          },
          () => byWriter,
          20,
        );
      } catch (err) {
        stop = true;
        await posting;
        throw err;
      }
      // The victim holds no job lease (a killed lease holder stops that job until its lease ends).
      let victim = -1;
      await until('a worker that holds no lease', 10_000, async () => {
        const owners = await query<{ lease_owner: string }>(
          'SELECT lease_owner FROM job_state WHERE lease_owner IS NOT NULL',
        );
        const holders = new Set(owners.map((o) => o.lease_owner.split('-')[0]));
        victim = workers.findIndex((w) => !holders.has(String(w.pid)));
        return victim >= 0;
      });
      await workers[victim]!.kill9();
      expect(await workers[victim]!.exited).toBe('SIGKILL');
      const atKill = { answered: answers.length, ...(await jsStats()) };
      await posting;
      await drained(60_000);

      const accepted = answers.reduce(
        (n, a) => n + (a.status === 202 || a.status === 200 ? a.body.accepted : 0),
        0,
      );
      expect(answers.filter((a) => a.status !== 202 && a.status !== 200)).toEqual([]);
      expect(answers).toHaveLength(BATCHES);
      expect(accepted).toBe(BATCHES * SIZE);
      // Killed mid-stream: batches were still to be answered, and to be written.
      expect(atKill.answered).toBeLessThan(BATCHES);
      const stored = await query<{ n: number; d: number }>(
        'SELECT count(*)::int AS n, count(DISTINCT event_id)::int AS d FROM events WHERE team_id = $1',
        [k.teamId],
      );
      expect(stored).toEqual([{ n: accepted, d: accepted }]);
      // Both workers took messages before the kill; every stored event is counted once per writer.
      for (const n of names) expect(byWriter[n], n).toBeGreaterThan(0);
      const final = await writers(k.teamId);
      expect(Object.values(final).reduce((s, n) => s + n, 0)).toBe(accepted);
      const survivor = workers[1 - victim]!;
      expect(survivor.output()).not.toMatch(/"level":(50|60)/);
      console.log(
        'many processes, ingest:',
        JSON.stringify({ victim: names[victim], atKill, byWriterAtKill: byWriter, final }),
      );
    }, 120_000);

    it('fires each alert once and delivers it once to the webhook', async () => {
      const { alerts, id: userId } = alertUser!;
      // The delivery job runs every minute: the firings of the first evaluation go out with its
      // first or second run.
      await until(
        'two webhook deliveries',
        Math.max(10_000, workersStartedAt + 80_000 - Date.now()),
        () => received.length >= 2,
        () => ({ received: received.length, seen: Object.fromEntries(seen) }),
        250,
      );
      const firings = await query<{ alert_id: number; id: number; fired_at: Date }>(
        'SELECT alert_id::int, id::int, fired_at FROM alert_firings ORDER BY alert_id',
      );
      expect(firings.map((f) => f.alert_id)).toEqual(alerts);
      // At least two more evaluations (and collections, which evaluate too) after the firings.
      const firedAt = Math.max(...firings.map((f) => f.fired_at.getTime()));
      await until(
        'two evaluations after the firings',
        30_000,
        () => (seen.get('evaluate-alerts') ?? []).filter((r) => r.startedAt > firedAt).length >= 2,
      );
      await until(
        'two collections after the firings',
        30_000,
        () => (seen.get('collect-market') ?? []).filter((r) => r.startedAt > firedAt).length >= 2,
      );
      expect(
        await query('SELECT alert_id::int FROM alert_firings ORDER BY alert_id'),
        'one firing per rule',
      ).toEqual(alerts.map((alert_id) => ({ alert_id })));
      expect(received).toHaveLength(2);
      const payloads = received.map((r) => JSON.parse(r.body) as Record<string, unknown>);
      expect(payloads.map((p) => [p.event, p.alert_id, p.firing_id]).sort()).toEqual(
        firings.map((f) => ['alert.fired', f.alert_id, f.id]).sort(),
      );
      const nowSec = Math.floor(Date.now() / 1000);
      for (const r of received) {
        const headers = {
          timestamp: r.headers['x-svc-timestamp'] as string | undefined,
          signature: r.headers['x-svc-signature'] as string | undefined,
        };
        expect(verifySignature(WEBHOOK_SECRET, headers, r.body, nowSec)).toBe(true);
      }
      // The worker records the outcome after the webhook has answered: wait for that write.
      const deliveriesSql =
        "SELECT alert_id::int, status, attempts FROM deliveries WHERE channel = 'webhook' AND user_id = $1 ORDER BY alert_id";
      let deliveries: Record<string, unknown>[] = [];
      await until(
        'both deliveries recorded',
        15_000,
        async () => {
          deliveries = await query(deliveriesSql, [userId]);
          return deliveries.every((d) => d.status !== 'pending');
        },
        () => deliveries,
        250,
      );
      expect(received, 'no retry went out').toHaveLength(2);
      expect(deliveries).toEqual(alerts.map((alert_id) => ({ alert_id, status: 'delivered', attempts: 1 })));
    }, 120_000);
  },
);
