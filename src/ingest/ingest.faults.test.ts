/**
 * Fault tests of the SDK ingest pipeline on PostgreSQL + NATS, on PRIVATE servers (the shared
 * ones CI runs are never stopped): kill -9 the NATS ingest worker while 100,000 events flow (0 lost,
 * 0 stored twice); kill -9 a serve process between its publishes and its commits (each event
 * stored once, whether the database rolls the transactions back or commits them); stop NATS (requests keep succeeding, synchronously); restart PostgreSQL
 * mid-stream (no event acknowledged and then lost, none stored twice).
 * FAULT_SEED=<n> replays the kill test's random kill moment.
 */
import { connect, type JetStreamManager, type NatsConnection } from 'nats';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { type IngestKey, ingestKey, postEvents, sdkEvents } from '../../test/helpers/ingest.js';
import { rng } from '../../test/helpers/random.js';
import {
  buildTestAppOn,
  hasNatsServer,
  hasPostgresServer,
  type PrivateNats,
  type PrivatePostgres,
  privateNats,
  privatePostgres,
  type StreamStats,
  startIngestServe,
  startIngestWorker,
  streamStats,
  type WorkerProcess,
} from '../../test/helpers/services.js';
import { sleep, until } from '../../test/helpers/until.js';
import type { Db } from '../db/index.js';
import { JetStreamQueue } from './jetstream.js';
import { SWEEP_AFTER_MS } from './writer.js';

const DATABASE_URL = process.env.DATABASE_URL;
const STREAM = 'SVC_INGEST';
/** No rate limit in the way of a load test. */
const ENTITLEMENTS = JSON.stringify({
  anonymousRatePerMin: 1_000_000,
  ingestBurst: 1_000_000,
  ingestPerSecond: 1_000_000,
});

/**
 * Polls `read` until `done`, or until the system is idle (`idle`) with `value` unchanged for
 * `quietMs`: then nothing more will happen, and the caller's assertions say what is wrong.
 * `onQuiet` may act once on the first quiet spell (return true to keep waiting).
 */
async function settle<T>(
  what: string,
  timeoutMs: number,
  read: () => Promise<{ done: boolean; idle: boolean; value: T }>,
  options: { quietMs?: number; onQuiet?: () => Promise<boolean> } = {},
): Promise<T> {
  const quietMs = options.quietMs ?? 3_000;
  const deadline = Date.now() + timeoutMs;
  let onQuiet = options.onQuiet;
  let previous = '';
  let since = Date.now();
  for (;;) {
    const r = await read();
    if (r.done) return r.value;
    const key = JSON.stringify(r.value);
    if (key !== previous || !r.idle) {
      previous = key;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) {
      const act = onQuiet;
      onQuiet = undefined;
      if (!act || !(await act())) return r.value;
      since = Date.now();
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}: ${key}`);
    await sleep(200);
  }
}

interface Counts {
  accepted: number;
  rejected: number;
  deduped: number;
  code?: string;
}

let requestCounter = 0;

interface Answer {
  batch: number;
  /** Sent as X-Request-Id, so the app's log of the request can be found. */
  requestId: string;
  status: number;
  mode: string | undefined;
  body: Counts;
  ms: number;
  /** Test phases when the request started and when it was answered. */
  sent: string;
  answered: string;
}

/** Batch `batch` (0-based) is events evt-(batch*size+1) … evt-((batch+1)*size). */
function batchIds(batch: number, size: number): string[] {
  return sdkEvents(batch * size + 1, size).map((e) => e.event_id as string);
}

async function postBatch(
  t: TestApp,
  k: IngestKey,
  batch: number,
  size: number,
  phase: () => string = () => '',
): Promise<Answer> {
  const sent = phase();
  const started = Date.now();
  requestCounter += 1;
  const requestId = `b${batch}-r${requestCounter}`;
  const res = await postEvents(
    t.app,
    { api_key: k.key, events: sdkEvents(batch * size + 1, size) },
    { 'x-request-id': requestId },
  );
  let body: Counts;
  try {
    body = res.json() as Counts;
  } catch {
    body = { accepted: -1, rejected: -1, deduped: -1, code: res.body.slice(0, 200) };
  }
  const mode = res.headers['x-svc-ingest-mode'];
  return {
    batch,
    requestId,
    status: res.statusCode,
    mode: typeof mode === 'string' ? mode : undefined,
    body,
    ms: Date.now() - started,
    sent,
    answered: phase(),
  };
}

/** Runs `work` over every item with `concurrency` workers. */
async function pool<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const item = items[next++]!;
        await work(item);
      }
    }),
  );
}

/** The error the app logged for a request ("request failed"): type, code, message, where. */
function loggedError(t: TestApp, requestId: string): string {
  const record = t.logs.records().find((r) => r.reqId === requestId && r.msg === 'request failed');
  const err = record?.err as { type?: string; code?: string; message?: string; stack?: string } | undefined;
  if (!err) return '(nothing logged)';
  const at = (err.stack ?? '')
    .split('\n')
    .filter((l) => l.includes('/src/'))
    .slice(0, 3)
    .map((l) => l.trim());
  return [`${err.type ?? 'Error'} code=${err.code ?? '-'}: ${err.message ?? ''}`, ...at].join(' | ');
}

const is2xx = (a: Answer) => a.status === 200 || a.status === 202;
const summary = (answers: readonly Answer[]) => {
  const by: Record<string, number> = {};
  for (const a of answers) {
    const key = `${a.status}${a.mode ? ` ${a.mode}` : ''}${a.body.code ? ` ${a.body.code}` : ''}`;
    by[key] = (by[key] ?? 0) + 1;
  }
  return by;
};

async function count(db: Db, sql: string): Promise<number> {
  const r = await db.query<{ n: number }>(sql);
  return Number(r.rows[0]!.n);
}

interface StoredCheck {
  rows: number;
  distinct: number;
  /** event_id → how many rows carry it. */
  perId: Map<string, number>;
  outbox: number;
  usage: number;
}

async function storedCheck(db: Db, teamId: number): Promise<StoredCheck> {
  const ids = await db.query<{ event_id: string; n: number }>(
    'SELECT event_id, count(*)::int AS n FROM events WHERE team_id = $1 GROUP BY event_id',
    [teamId],
  );
  return {
    rows: await count(db, 'SELECT count(*)::int AS n FROM events'),
    distinct: await count(db, 'SELECT count(DISTINCT (team_id, event_id))::int AS n FROM events'),
    perId: new Map(ids.rows.map((r) => [r.event_id, Number(r.n)])),
    outbox: await count(db, 'SELECT count(*)::int AS n FROM ingest_outbox'),
    usage: await count(db, 'SELECT COALESCE(sum(used), 0)::int AS n FROM ingest_usage'),
  };
}

/** The default ingest stream's figures (see streamStats). */
const jsStats = (jsm: JetStreamManager) => streamStats(jsm, STREAM);

describe.skipIf(!DATABASE_URL || !hasNatsServer())('ingest faults: kill -9 of the NATS ingest worker', () => {
  const TOTAL_BATCHES = 200;
  const BATCH = 500;
  const POSTERS = 4;
  const ACK_WAIT_MS = 2_000;
  let nats: PrivateNats | undefined;
  let t: TestApp | undefined;
  let nc: NatsConnection | undefined;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    nats = await privateNats();
    // The first process to create the durable consumer sets its ack wait; later ones keep it.
    await (await JetStreamQueue.connect({ url: nats.url, ackWaitMs: ACK_WAIT_MS })).close();
    t = await buildTestApp({
      engine: 'postgres',
      env: { NATS_URL: nats.url, LOG_LEVEL: 'warn', ENTITLEMENTS },
    });
    // The worker processes are the only writers.
    await t.app.ingest.writer.stop();
    const queue = t.app.ingest.queue;
    await until('the app to connect to NATS', 15_000, () => queue.healthy());
    nc = await connect({ servers: nats.url });
  }, 60_000);

  afterAll(async () => {
    for (const w of workers) await w.kill9().catch(() => {});
    await nc?.close().catch(() => {});
    await t?.close();
    await nats?.dispose();
  });

  it('stores each of 100,000 events exactly once when the worker is killed -9 mid-stream and restarted', async () => {
    const seed = Number(process.env.FAULT_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const random = rng(seed);
    const killAfterBatches = 30 + Math.floor(random() * 120);
    const killDelayMs = Math.floor(random() * 500);
    console.log(
      `kill -9 test: FAULT_SEED=${seed}: kill after ${killAfterBatches} of ${TOTAL_BATCHES} batches + ${killDelayMs} ms`,
    );
    const app = t!;
    const jsm = await nc!.jetstreamManager();
    const k = await ingestKey(app, { plan: 'Studio' });
    const env = { DATABASE_URL: app.testDb.url!, NATS_URL: nats!.url };
    const stored = () => count(app.testDb.db, 'SELECT count(*)::int AS n FROM events');
    const started = Date.now();
    {
      const first = await startIngestWorker(env);
      workers.push(first);

      const answers: Answer[] = [];
      const batches = Array.from({ length: TOTAL_BATCHES }, (_, i) => i);
      const posting = pool(batches, POSTERS, async (b) => {
        answers.push(await postBatch(app, k, b, BATCH));
      });
      posting.catch(() => {});

      // A random moment while events flow, once the worker holds pulled, unacked messages.
      await until('the kill moment', 60_000, () => answers.length >= killAfterBatches);
      await sleep(killDelayMs);
      let before: StreamStats | undefined;
      let storedBefore = 0;
      await until(
        'the worker to hold unacked messages',
        20_000,
        async () => {
          before = await jsStats(jsm);
          storedBefore = before.ackPending > 0 ? await stored() : 0;
          return before.ackPending > 0 && storedBefore > 0;
        },
        () => before,
        5,
      );
      await first.kill9();
      expect(await first.exited).toBe('SIGKILL');
      const atKill = {
        ms: Date.now() - started,
        batchesAnswered: answers.length,
        stored: await stored(),
        ...(await jsStats(jsm)),
      };
      console.log('at the kill:', JSON.stringify(atKill));

      const second = await startIngestWorker(env);
      workers.push(second);
      await posting;
      const postedMs = Date.now() - started;
      const accepted = answers.reduce((n, a) => n + (is2xx(a) ? a.body.accepted : 0), 0);
      // The writer acks a message after its write committed: an empty stream means all is written.
      let last: unknown;
      await until(
        'the new worker to empty the stream',
        60_000,
        async () => {
          const s = await jsStats(jsm);
          last = s;
          return s.pending === 0 && s.ackPending === 0 && s.messages === 0;
        },
        () => last,
        250,
      );
      const end = await jsStats(jsm);
      console.log(
        'kill -9 test:',
        JSON.stringify({
          answers: summary(answers),
          postedMs,
          doneMs: Date.now() - started,
          redeliveries: end.delivered - end.published,
        }),
      );

      // Every request was answered 2xx, and the counts add up to the 100,000 events posted.
      expect(answers.filter((a) => !is2xx(a))).toEqual([]);
      expect(answers).toHaveLength(TOTAL_BATCHES);
      expect(accepted).toBe(TOTAL_BATCHES * BATCH);
      expect(answers.filter((a) => a.mode === 'async').length).toBeGreaterThan(TOTAL_BATCHES / 2);
      // The kill happened mid-stream: events were still to be written, some held by the worker.
      expect(storedBefore).toBeGreaterThan(0);
      expect(atKill.stored).toBeLessThan(TOTAL_BATCHES * BATCH);
      expect(atKill.pending + atKill.ackPending).toBeGreaterThan(0);

      const check = await storedCheck(app.testDb.db, k.teamId);
      expect(check.rows).toBe(accepted);
      expect(check.distinct).toBe(check.rows);
      const missing = batches.flatMap((b) => batchIds(b, BATCH)).filter((id) => check.perId.get(id) !== 1);
      expect(missing.slice(0, 20)).toEqual([]);
      expect(check.outbox).toBe(0);
      expect(check.usage).toBe(accepted);
      // The messages the killed worker held were delivered again (after the ack wait).
      expect(end.delivered - end.published).toBeGreaterThanOrEqual(atKill.ackPending);
      // Neither worker logged an error.
      expect(first.output()).not.toMatch(/"level":(50|60)/);
      expect(second.output()).not.toMatch(/"level":(50|60)/);
      // The app's and the workers' connects left the consumer as it was created.
      expect(end.ackWaitMs).toBe(ACK_WAIT_MS);
    }
  }, 120_000);

  /**
   * A serve process killed -9 after its requests published their batches and before their commits.
   * A test connection holds the team's usage row, which every request charges with its COMMIT
   * (settle.ts), so all of them wait there with their messages in the stream. Two ways the database
   * then ends each transaction, both exactly once:
   * - `rollback`: the server checks the dead client while it waits (client_connection_check_interval)
   *   and rolls back: the writers drop the messages (no claim), the client's retries are accepted;
   * - `commit`: the COMMIT was already sent (pipelined with the charge), so it commits once the row
   *   is free: the writers store the messages, the retries are deduped.
   */
  it.each(['rollback', 'commit'] as const)(
    'stores each event once when a serve process is killed -9 between its publish and its commit (%s)',
    async (outcome) => {
      const app = t!;
      const jsm = await nc!.jetstreamManager();
      const k = await ingestKey(app, { plan: 'Studio' });
      const dbName = new URL(app.testDb.url!).pathname.slice(1);
      await app.testDb.db.exec(
        `ALTER DATABASE "${dbName}" SET client_connection_check_interval = '${outcome === 'rollback' ? '100ms' : '0'}'`,
      );
      const serve = await startIngestServe({
        DATABASE_URL: app.testDb.url!,
        NATS_URL: nats!.url,
        ENTITLEMENTS,
      });
      workers.push(serve);
      const SIZE = 100;
      const body = (b: number) =>
        JSON.stringify({ api_key: k.key, events: sdkEvents(10_000_000 + b * SIZE + 1, SIZE) });
      const post = (b: number) =>
        fetch(`${serve.url}/api/sdk/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: body(b),
        });
      // Answered as usual first (the usage row exists from here on).
      for (let b = 0; b < 5; b += 1) {
        const res = await post(b);
        expect([res.status, ((await res.json()) as Counts).accepted]).toEqual([202, SIZE]);
      }
      const published = (await jsStats(jsm)).published;
      const holder = new pg.Client({ connectionString: app.testDb.url! });
      await holder.connect();
      await holder.query('BEGIN');
      await holder.query('SELECT used FROM ingest_usage WHERE team_id = $1 FOR UPDATE', [k.teamId]);
      const stuck = [5, 6, 7, 8, 9, 10, 11, 12, 13, 14];
      const inFlight = stuck.map((b) =>
        post(b).then(
          (r) => r.status,
          () => 'no answer',
        ),
      );
      await until('the held batches to reach the stream', 30_000, async () => {
        return (await jsStats(jsm)).published >= published + stuck.length;
      });
      const waiting = async () =>
        Number(
          (
            await holder.query<{ n: number }>(
              // The held requests' charges only: a writer waiting on their claims waits on a Lock too.
              `SELECT count(*)::int AS n FROM pg_stat_activity
                WHERE datname = $1 AND wait_event_type = 'Lock' AND query LIKE '%svc_charge_ingest_quota%'`,
              [dbName],
            )
          ).rows[0]!.n,
        );
      // A request's stream ack comes before its COMMIT reaches the row: wait until all of them wait.
      // 30 s, as for the stream: in a loaded suite the ten charges reached the lock after more than 10 s.
      let seen = 0;
      await until(
        'every held request to wait on the usage row',
        30_000,
        async () => {
          seen = await waiting();
          return seen === stuck.length;
        },
        async () => ({
          waiting: seen,
          held: stuck.length,
          // What the database's sessions were doing at the deadline (no query text: only its kind).
          sessions: (
            await holder.query<{ state: string; wait: string | null; charge: boolean; n: number }>(
              `SELECT state, wait_event_type AS wait, query LIKE '%svc_charge_ingest_quota%' AS charge,
                      count(*)::int AS n
                 FROM pg_stat_activity WHERE datname = $1 GROUP BY 1, 2, 3 ORDER BY 4 DESC`,
              [dbName],
            )
          ).rows,
        }),
      );
      await serve.kill9();
      expect(await Promise.all(inFlight)).toEqual(stuck.map(() => 'no answer'));
      // rollback: the server notices the dead client within the check interval and ends each wait.
      if (outcome === 'rollback')
        await until('the dead requests to roll back', 10_000, async () => (await waiting()) === 0);
      else expect(await waiting()).toBe(stuck.length);
      await holder.query('ROLLBACK');
      await holder.end();
      // The SDK sends every unanswered batch again (here to the in-process app).
      for (const b of stuck) {
        const res = await app.app.inject({
          method: 'POST',
          url: '/api/sdk/events',
          headers: { 'content-type': 'application/json' },
          payload: body(b),
        });
        expect(res.statusCode).toBe(202);
        expect(res.json()).toEqual(
          outcome === 'rollback'
            ? { accepted: SIZE, rejected: 0, deduped: 0, errors: [] }
            : { accepted: 0, rejected: 0, deduped: SIZE, errors: [] },
        );
      }
      await until('the writers to empty the stream', 60_000, async () => {
        await app.app.ingest.writer.flush();
        const s = await jsStats(jsm);
        return s.messages === 0 && s.ackPending === 0;
      });
      // 5 + 10 held + (rollback: 10 retried) messages reached the stream.
      expect((await jsStats(jsm)).published).toBe(
        published + stuck.length + (outcome === 'rollback' ? stuck.length : 0),
      );
      const ids = await app.testDb.db.query<{ n: number; distinct: number }>(
        'SELECT count(*)::int AS n, count(DISTINCT event_id)::int AS distinct FROM events WHERE team_id = $1',
        [k.teamId],
      );
      expect(ids.rows[0]).toEqual({ n: 15 * SIZE, distinct: 15 * SIZE });
      expect(await count(app.testDb.db, 'SELECT count(*)::int AS n FROM ingest_claims')).toBe(0);
      const usage = await app.testDb.db.query<{ used: number }>(
        'SELECT used::int FROM ingest_usage WHERE team_id = $1',
        [k.teamId],
      );
      expect(usage.rows[0]!.used).toBe(15 * SIZE);
      await app.testDb.db.exec(`ALTER DATABASE "${dbName}" RESET client_connection_check_interval`);
    },
    90_000,
  );
});

describe.skipIf(!DATABASE_URL || !hasNatsServer())('ingest faults: NATS stops and comes back', () => {
  const BATCH = 100;
  const POSTERS = 3;
  let nats: PrivateNats | undefined;
  let t: TestApp | undefined;

  beforeAll(async () => {
    nats = await privateNats();
    t = await buildTestApp({
      engine: 'postgres',
      env: { NATS_URL: nats.url, LOG_LEVEL: 'warn', ENTITLEMENTS },
    });
    const queue = t.app.ingest.queue;
    await until('the app to connect to NATS', 15_000, () => queue.healthy());
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await nats?.dispose();
  });

  it('keeps answering 2xx (200 sync while NATS is down), goes back to 202 async, and stores every accepted event once', async () => {
    const app = t!;
    const server = nats!;
    const k = await ingestKey(app, { plan: 'Studio' });
    // No writer until the end: the batches answered 202 before the stop wait in the stream, and
    // must outlive the NATS restart.
    const writer = app.app.ingest.writer;
    await writer.stop();
    let phase = 'up';
    const answers: Answer[] = [];
    let nextBatch = 0;
    let posting = true;
    const posters = Promise.all(
      Array.from({ length: POSTERS }, async () => {
        while (posting) answers.push(await postBatch(app, k, nextBatch++, BATCH, () => phase));
      }),
    );
    posters.catch(() => {});
    let queuedAtStop = 0;
    const seen = (p: string, status: number) => answers.some((a) => a.sent === p && a.status === status);
    try {
      await until(
        '202 answers before NATS stops',
        15_000,
        () => answers.filter((a) => a.sent === 'up' && a.status === 202).length >= 10,
      );
      phase = 'stopping';
      queuedAtStop = app.app.ingest.queue.depth();
      await server.stop();
      phase = 'down';
      await until('200 answers while NATS is down', 15_000, () => seen('down', 200));
      await sleep(2_000);
      phase = 'starting';
      await server.start();
      phase = 'back';
      await until('202 answers once NATS is back', 30_000, () => seen('back', 202));
      await sleep(500);
    } finally {
      posting = false;
      await posters;
    }

    const accepted = answers.reduce((n, a) => n + (is2xx(a) ? a.body.accepted : 0), 0);
    writer.start();
    await settle('the writer to store every accepted event', 30_000, async () => {
      const n = await count(app.testDb.db, 'SELECT count(*)::int AS n FROM events');
      const outbox = await count(app.testDb.db, 'SELECT count(*)::int AS n FROM ingest_outbox');
      return {
        done: n >= accepted && outbox === 0,
        idle: app.app.ingest.queue.depth() === 0,
        value: { stored: n, outbox, accepted },
      };
    });
    const byPhase = Object.fromEntries(
      ['up', 'stopping', 'down', 'starting', 'back'].map((p) => [
        p,
        {
          answers: summary(answers.filter((a) => a.sent === p)),
          maxMs: Math.max(0, ...answers.filter((a) => a.sent === p).map((a) => a.ms)),
        },
      ]),
    );
    console.log('NATS stop test:', JSON.stringify({ queuedAtStop, ...byPhase }));

    // Batches answered 202 were waiting in the stream when NATS stopped.
    expect(queuedAtStop).toBeGreaterThan(0);
    // Never an error: every request answered 2xx, every event of every batch accepted.
    expect(answers.filter((a) => !is2xx(a))).toEqual([]);
    expect(answers.filter((a) => a.body.accepted !== BATCH)).toEqual([]);
    // While NATS was down (sent and answered): synchronous.
    const down = answers.filter((a) => a.sent === 'down' && a.answered === 'down');
    expect(down.length).toBeGreaterThan(0);
    expect(down.filter((a) => a.status !== 200 || a.mode !== 'sync')).toEqual([]);
    // The mode header matches the status everywhere.
    expect(answers.filter((a) => (a.status === 202) !== (a.mode === 'async'))).toEqual([]);

    const check = await storedCheck(app.testDb.db, k.teamId);
    expect(check.rows).toBe(accepted);
    expect(check.distinct).toBe(check.rows);
    const missing = answers
      .flatMap((a) => batchIds(a.batch, BATCH))
      .filter((id) => check.perId.get(id) !== 1);
    expect(missing.slice(0, 20)).toEqual([]);
    expect(check.usage).toBe(accepted);
  }, 90_000);
});

describe.skipIf(!DATABASE_URL || !hasPostgresServer())(
  'ingest faults: PostgreSQL restarts mid-stream',
  () => {
    const BATCH = 200;
    const POSTERS = 3;
    let cluster: PrivatePostgres | undefined;
    const cleanup: (() => Promise<void>)[] = [];
    // Errors nothing handled (in `svc serve` or `svc worker`, each one would end the process).
    const uncaught: string[] = [];
    const onUncaught = (err: unknown) => {
      const e = err as { code?: string; message?: string; stack?: string };
      const at =
        (e.stack ?? '')
          .split('\n')
          .find((l) => l.includes('node_modules/pg'))
          ?.trim() ?? '';
      uncaught.push(`${e.code ?? '-'}: ${e.message} ${at}`);
    };

    beforeAll(async () => {
      process.on('uncaughtException', onUncaught);
      cluster = await privatePostgres();
    }, 60_000);

    afterAll(async () => {
      process.off('uncaughtException', onUncaught);
      for (const fn of cleanup.reverse()) await fn().catch(() => {});
      await cluster?.dispose();
    });

    for (const queue of ['outbox', 'jetstream'] as const) {
      it.skipIf(queue === 'jetstream' && !hasNatsServer())(
        `async ingest on the ${queue} queue: every 2xx-acknowledged event is stored once across an immediate and a fast restart`,
        async () => {
          const db = cluster!;
          const nats = queue === 'jetstream' ? await privateNats() : undefined;
          if (nats) cleanup.push(() => nats.dispose());
          const url = await db.createDatabase();
          const t = await buildTestAppOn(url, {
            LOG_LEVEL: 'warn',
            ENTITLEMENTS,
            ...(nats ? { NATS_URL: nats.url } : {}),
          });
          cleanup.push(() => t.close());
          if (nats) await until('the app to connect to NATS', 15_000, () => t.app.ingest.queue.healthy());
          expect(t.app.ingest.queue.kind).toBe(queue);
          const k = await ingestKey(t, { plan: 'Studio' });
          uncaught.length = 0;

          let phase = 'up';
          const answers: Answer[] = [];
          let nextBatch = 0;
          let posting = true;
          const posters = Promise.all(
            Array.from({ length: POSTERS }, async () => {
              while (posting) {
                const a = await postBatch(t, k, nextBatch++, BATCH, () => phase);
                answers.push(a);
                // A client backs off a little when refused (and the retries stay few).
                if (!is2xx(a)) await sleep(50);
              }
            }),
          );
          posters.catch(() => {});
          const restarts: Record<string, number> = {};
          try {
            await until('answers before the restart', 15_000, () => answers.filter(is2xx).length >= 5);
            for (const mode of ['immediate', 'fast'] as const) {
              phase = `restart-${mode}`;
              const began = Date.now();
              await db.restart(mode);
              restarts[mode] = Date.now() - began;
              phase = `after-${mode}`;
              const seen = answers.length;
              await until(`2xx answers after the ${mode} restart`, 20_000, () =>
                answers.slice(seen).some((a) => a.sent === phase && is2xx(a)),
              );
              await sleep(500);
            }
          } finally {
            posting = false;
            await posters;
          }

          // Every answer is 2xx or 503 temporarily_unavailable, never another error: each other one is
          // listed with the error the app logged for it (soft: the checks below run all the same).
          const unexpected = answers
            .filter((a) => !is2xx(a) && !(a.status === 503 && a.body.code === 'temporarily_unavailable'))
            .map((a) => ({
              status: a.status,
              code: a.body.code,
              phase: a.sent,
              error: loggedError(t, a.requestId),
            }));
          const causes503 = [
            ...new Set(
              answers.filter((a) => a.status === 503).map((a) => loggedError(t, a.requestId).split(' | ')[0]),
            ),
          ];
          expect.soft(unexpected).toEqual([]);

          // The batches refused are retried until accepted: accepted + deduped covers them.
          const refused = answers.filter((a) => !is2xx(a));
          const retries: Answer[] = [];
          for (const a of refused) {
            for (let attempt = 0; ; attempt += 1) {
              const r = await postBatch(t, k, a.batch, BATCH, () => 'retry');
              retries.push(r);
              if (is2xx(r)) break;
              if (attempt >= 20) throw new Error(`batch ${a.batch} still refused: ${JSON.stringify(r)}`);
              await sleep(250);
            }
          }
          const finals = retries.filter(is2xx);
          expect(finals.filter((r) => r.body.accepted + r.body.deduped !== BATCH)).toEqual([]);

          // The writer catches up. Batches whose commit succeeded although the request failed (the
          // answer to COMMIT lost in the crash) were never announced on JetStream: the sweep takes
          // them from the outbox after SWEEP_AFTER_MS; here time is moved forward once the queue is
          // idle. (The outbox queue's writers take every row: nothing is left to sweep.)
          const accepted = [...answers, ...finals].reduce((n, a) => n + (is2xx(a) ? a.body.accepted : 0), 0);
          const expected = nextBatch * BATCH;
          const stored = () => count(t.testDb.db, 'SELECT count(*)::int AS n FROM events');
          const outbox = () => count(t.testDb.db, 'SELECT count(*)::int AS n FROM ingest_outbox');
          let swept = 0;
          await settle(
            'the writer to store every event',
            30_000,
            async () => {
              const n = await stored();
              const o = await outbox();
              return {
                done: n >= expected && o === 0,
                idle: t.app.ingest.queue.depth() === 0,
                value: { stored: n, outbox: o, expected },
              };
            },
            {
              quietMs: 2_000,
              // Idle queue, rows left in the outbox: only the sweep will ever store them.
              onQuiet: async () => {
                swept = await t.app.ingest.writer.sweep(new Date(Date.now() + SWEEP_AFTER_MS + 60_000));
                return swept > 0;
              },
            },
          );
          const retriedDeduped = finals.reduce((n, r) => n + r.body.deduped, 0);
          // Refused requests whose transaction committed all the same (their retry was deduped).
          const committedThoughRefused = finals
            .filter((r) => r.body.deduped > 0)
            .map((r) => refused.find((a) => a.batch === r.batch)!)
            .map((a) => ({ status: a.status, phase: a.sent, error: loggedError(t, a.requestId) }));
          console.log(
            `PostgreSQL restart test (${queue} queue):`,
            JSON.stringify({
              restartMs: restarts,
              answers: summary(answers),
              retries: summary(retries),
              retriedDeduped,
              swept,
              committedThoughRefused,
              maxMs: Math.max(...answers.map((a) => a.ms)),
              causes503,
            }),
          );

          // The faults really happened: requests failed during the restarts.
          expect(refused.length).toBeGreaterThan(0);
          // First answers never dedupe (each batch is new); a 503'd batch's retry dedupes exactly the
          // events its failed request committed, and those are stored too.
          expect(answers.filter((a) => is2xx(a) && a.body.deduped !== 0)).toEqual([]);
          expect(accepted + retriedDeduped).toBe(expected);
          // The sweep was needed for those batches only: the writer stored every batch answered 2xx.
          expect(swept).toBeLessThanOrEqual(committedThoughRefused.length);
          const check = await storedCheck(t.testDb.db, k.teamId);
          expect(check.rows).toBe(expected);
          expect(check.distinct).toBe(check.rows);
          const all = Array.from({ length: nextBatch }, (_, b) => batchIds(b, BATCH)).flat();
          const wrong = all.filter((id) => check.perId.get(id) !== 1);
          expect(wrong.slice(0, 20)).toEqual([]);
          expect(check.usage).toBe(expected);
          expect(check.outbox).toBe(0);
          // No connection error may go unhandled: the database restarting must not end the process.
          expect(uncaught).toEqual([]);
        },
        90_000,
      );
    }
  },
);
