/**
 * `npm run bench -- soak` (issue 19): a mixed workload at a fixed, modest rate for SOAK_MINUTES
 * (default 10; `--duration <s>` wins when it is over 60) against 2 `svc serve` and 2 `svc worker`
 * processes, the real CLI, on a private PostgreSQL cluster, a private NATS JetStream and a private
 * Redis, with the simulated market backfilled by the workers' collector (about 5,000 games, the
 * default market), and six faults spread over the run:
 *   PostgreSQL restart (pg_ctl restart -m fast), NATS restart, Redis restart, kill -9 of one serve
 *   (restarted at once), kill -9 of one worker (restarted at once), Redis stopped for 30 s.
 *
 * Requests go round robin to the two serve processes the way a reverse proxy with a passive health
 * check would (nginx max_fails=1 fail_timeout=1s): a connection that fails marks that process down
 * for a second and the next requests go to the other. Requests lost because the process they were
 * sent to was killed (reset or refused) are counted apart from HTTP failures.
 *
 * Reported: per route the count, p50 and p99 latency and status counts (the whole run and outside
 * the fault windows); throughput; 5xx outside the fault windows (a window: from a fault until its
 * engine or process is back, plus 30 s); memory of each process at minute 2 (20 % of shorter runs)
 * and at the end, both as sampled RSS and as RSS and V8 heap right after a full collection (the
 * growth goal reads the latter: sampled RSS rises and falls with garbage not collected yet); for
 * each fault the failed requests by status, the killed-process requests, and the time until the
 * first and until steady successful answers on every route; after the run, with the stream
 * drained, that every event a 2xx answer accepted is stored exactly once.
 * Figures go to bench/results.json with the others; every detail to bench/soak-results.json.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';
import { Pool } from 'undici';
import { withPgClient } from '../test/helpers/pg-client.js';
import {
  hasNatsServer,
  hasPostgresServer,
  hasRedisServer,
  type PrivateNats,
  type PrivatePostgres,
  type PrivateRedis,
  privateNats,
  privatePostgres,
  privateRedis,
} from '../test/helpers/services.js';
import type { BenchOptions, Figure, Suite } from './lib.js';
import {
  type LogSummary,
  logPath,
  type MemoryAfterGc,
  SvcProcess,
  summarizeLog,
  svcOnce,
} from './soak-procs.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const STREAM = 'SVC_INGEST';
const CONSUMER = `${STREAM}_writer`;
/** Events per ingest request, and ingest requests per second: 200 events/s. */
const EVENTS_PER_BATCH = 50;
/** After a fault's engine or process is back, answers still count as the fault's for this long. */
const GRACE_MS = 30_000;
const REDIS_LOST_MS = 30_000;
const USER = { email: 'soak@example.com', password: 'soak password 0123' };
const RSS_GOAL_PCT = 10;

// ---------------------------------------------------------------------------------------------
// The workload

interface Ctx {
  readKey: string;
  ingestKey: string;
  accessToken: string;
  places: number[];
  forecastPlaces: number[];
  runTag: string;
  ingest: IngestRecord[];
}

interface Req {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Ingest: the request's number (its events' ids carry it). */
  ingest?: number;
}

interface Route {
  name: string;
  /** Requests per second over both serve processes. */
  rate: number;
  make(ctx: Ctx, n: number): Req;
}

const PERIODS = ['24h', '1h', '6h', '7d'];

const ROUTES: Route[] = [
  {
    name: 'GET /api/trending',
    rate: 3,
    // Anonymous, as the public market page; the period varies so every stored view is read.
    make: (_c, n) => ({
      method: 'GET',
      path: `/api/trending?period=${PERIODS[n % PERIODS.length]}`,
      headers: {},
    }),
  },
  {
    name: 'GET /api/genre-opportunities',
    rate: 2,
    make: () => ({ method: 'GET', path: '/api/genre-opportunities', headers: {} }),
  },
  {
    name: 'GET /api/game/{place_id}',
    rate: 5,
    make: (c, n) => ({
      method: 'GET',
      path: `/api/game/${c.places[(n * 7919) % c.places.length]}`,
      headers: { 'x-api-key': c.readKey },
    }),
  },
  {
    name: 'GET /api/forecast/{place_id}',
    rate: 2,
    make: (c, n) => ({
      method: 'GET',
      path: `/api/forecast/${c.forecastPlaces[(n * 31) % c.forecastPlaces.length]}`,
      headers: { 'x-api-key': c.readKey },
    }),
  },
  {
    name: 'GET /api/alerts/my',
    rate: 2,
    make: (c) => ({
      method: 'GET',
      path: '/api/alerts/my',
      headers: { authorization: `Bearer ${c.accessToken}` },
    }),
  },
  {
    name: 'POST /api/sdk/events',
    rate: 4,
    make: (c, n) => ({
      method: 'POST',
      path: '/api/sdk/events',
      headers: { 'content-type': 'application/json' },
      body: ingestBody(c, n),
      ingest: n,
    }),
  },
];
const INGEST_ROUTE = ROUTES.length - 1;

const EVENT_KINDS: ((r: number) => { type: string; payload: Record<string, unknown> })[] = [
  (r) => ({ type: 'level', payload: { level: r % 60, score: r % 100_000, result: r % 3 ? 'win' : 'loss' } }),
  (r) => ({ type: 'custom', payload: { name: 'quest_completed', quest_id: `q${r % 80}` } }),
  (r) => ({
    type: 'session_start',
    payload: { device: 'Pixel 7', os: 'Android 14', country: r % 2 ? 'US' : 'BR' },
  }),
  (r) => ({ type: 'performance', payload: { fps_avg: 30 + (r % 90), memory_mb: 800 + (r % 2400) } }),
  (r) => ({
    type: 'purchase',
    payload: { sku: 'gems_100', price: 0.99, currency: 'USD', quantity: 1 + (r % 2) },
  }),
];

/** A batch of EVENTS_PER_BATCH events whose ids are `s<run tag>-<request number>-<index>`. */
function ingestBody(c: Ctx, n: number): string {
  const now = Date.now();
  const events = Array.from({ length: EVENTS_PER_BATCH }, (_, i) => {
    const r = n * EVENTS_PER_BATCH + i;
    const kind = EVENT_KINDS[r % EVENT_KINDS.length]!(r);
    return {
      event_id: `s${c.runTag}-${n}-${i}`,
      ts: new Date(now - (r % 60_000)).toISOString(),
      platform: r % 5 ? 'platform_1' : 'platform_2',
      game_id: 'soak-game',
      player_id: `player-${r % 5_000}`,
      session_id: `session-${r % 20_000}`,
      ...kind,
    };
  });
  return JSON.stringify({ api_key: c.ingestKey, events });
}

// ---------------------------------------------------------------------------------------------
// Load: open loop, fixed rate per route, round robin over the serve processes

type Outcome = 'ok' | 'http' | 'net' | 'timeout' | 'killed';

interface Sample {
  route: number;
  slot: number;
  /** Soak-relative ms. */
  start: number;
  end: number;
  status: number;
  /** '200', '503 temporarily_unavailable', 'ECONNREFUSED', … */
  label: string;
  outcome: Outcome;
}

interface IngestRecord {
  n: number;
  sample?: Sample;
  accepted?: number;
  deduped?: number;
  rejected?: number;
  mode?: string;
}

interface Slot {
  name: string;
  proc: SvcProcess;
  pool: Pool;
  incarnation: number;
  /** Soak-relative ms until which the passive health check routes around it. */
  downUntil: number;
}

function newPool(url: string): Pool {
  return new Pool(url, {
    connections: 32,
    headersTimeout: 15_000,
    bodyTimeout: 15_000,
    connectTimeout: 5_000,
    keepAliveTimeout: 10_000,
  });
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);
/** In flight per route beyond which a tick is skipped (and counted): a hang cannot pile up. */
const MAX_IN_FLIGHT = 64;

class Load {
  readonly samples: Sample[] = [];
  readonly skipped = ROUTES.map(() => 0);
  private readonly inFlight = ROUTES.map(() => 0);
  private readonly pending = new Set<Promise<void>>();
  private timers: NodeJS.Timeout[] = [];
  private readonly counters = ROUTES.map(() => 0);

  constructor(
    private readonly ctx: Ctx,
    private readonly slots: Slot[],
    private readonly now: () => number,
  ) {}

  start(): void {
    this.timers = ROUTES.map((route, i) => setInterval(() => this.tick(i), 1000 / route.rate));
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    await Promise.all([...this.pending]);
  }

  private pick(n: number): number {
    const i = n % this.slots.length;
    const t = this.now();
    if (this.slots[i]!.downUntil <= t) return i;
    const other = this.slots.findIndex((s) => s.downUntil <= t);
    return other >= 0 ? other : i;
  }

  private tick(route: number): void {
    if (this.inFlight[route]! >= MAX_IN_FLIGHT) {
      this.skipped[route]! += 1;
      return;
    }
    const n = this.counters[route]!++;
    const req = ROUTES[route]!.make(this.ctx, n);
    const slotIndex = this.pick(n);
    const p = this.send(route, slotIndex, req).finally(() => {
      this.inFlight[route]! -= 1;
      this.pending.delete(p);
    });
    this.inFlight[route]! += 1;
    this.pending.add(p);
  }

  private async send(route: number, slotIndex: number, req: Req): Promise<void> {
    const slot = this.slots[slotIndex]!;
    const proc = slot.proc;
    const record: IngestRecord | undefined = req.ingest === undefined ? undefined : { n: req.ingest };
    if (record) this.ctx.ingest.push(record);
    const start = this.now();
    let status = 0;
    let label: string;
    let outcome: Outcome;
    try {
      const res = await slot.pool.request({
        method: req.method,
        path: req.path,
        headers: req.headers,
        ...(req.body ? { body: req.body } : {}),
      });
      status = res.statusCode;
      const text = await res.body.text();
      if (status >= 200 && status < 300) {
        label = String(status);
        outcome = 'ok';
        if (record) {
          const counts = JSON.parse(text) as { accepted: number; deduped: number; rejected: number };
          record.accepted = counts.accepted;
          record.deduped = counts.deduped;
          record.rejected = counts.rejected;
          const mode = res.headers['x-svc-ingest-mode'];
          record.mode = typeof mode === 'string' ? mode : '?';
        }
      } else {
        let code = '';
        try {
          code = (JSON.parse(text) as { code?: string }).code ?? '';
        } catch {
          code = 'non-JSON body';
        }
        label = `${status} ${code}`.trim();
        outcome = 'http';
      }
    } catch (err) {
      const code = (err as { code?: string }).code ?? (err as Error).name;
      label = code;
      if (proc.killedAt !== undefined) outcome = 'killed';
      else outcome = TIMEOUT_CODES.has(code) ? 'timeout' : 'net';
      // The passive health check: a connection that failed takes the process out for a second.
      if (!TIMEOUT_CODES.has(code)) slot.downUntil = this.now() + 1000;
    }
    const sample: Sample = { route, slot: slotIndex, start, end: this.now(), status, label, outcome };
    this.samples.push(sample);
    if (record) record.sample = sample;
  }
}

// ---------------------------------------------------------------------------------------------
// Statistics

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round(sorted[Math.max(0, i)]! * 10) / 10;
}

function countBy<T>(xs: T[], key: (x: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) out[key(x)] = (out[key(x)] ?? 0) + 1;
  return out;
}

interface RouteStats {
  route: string;
  count: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
}

function routeStats(route: number, samples: Sample[]): RouteStats {
  const mine = samples.filter((s) => s.route === route);
  const answered = mine
    .filter((s) => s.status > 0)
    .map((s) => s.end - s.start)
    .sort((a, b) => a - b);
  return {
    route: ROUTES[route]!.name,
    count: mine.length,
    p50: percentile(answered, 50),
    p99: percentile(answered, 99),
    statuses: countBy(mine, (s) => (s.outcome === 'killed' ? `${s.label} (killed serve)` : s.label)),
  };
}

// ---------------------------------------------------------------------------------------------
// Faults

interface Engines {
  pg: PrivatePostgres;
  nats: PrivateNats;
  redis: PrivateRedis;
}

interface FaultRun {
  name: string;
  /** Soak-relative ms: when the fault began, and when its engine or process was back. */
  at: number;
  backAt: number;
  note?: string;
}

interface FaultDef {
  name: string;
  run(): Promise<string | undefined>;
}

interface FaultReport {
  fault: string;
  atS: number;
  backAfterS: number;
  note?: string;
  failed: number;
  failedByStatus: Record<string, number>;
  killedServeRequests: number;
  killedServeByError: Record<string, number>;
  /** Seconds from the fault until the first 2xx on every route (the slowest route's). */
  firstOkS: number | null;
  /** Seconds from the fault until answers were steady on every route: the first 2xx after the
   * route's last failure in the fault's slot (until the next fault). */
  steadyS: number | null;
  routes: {
    route: string;
    failed: number;
    failedByStatus: Record<string, number>;
    firstOkS: number | null;
    steadyS: number | null;
  }[];
}

function faultReport(run: FaultRun, slotEnd: number, samples: Sample[]): FaultReport {
  const inSlot = samples.filter((s) => s.start >= run.at && s.start < slotEnd);
  const failed = inSlot.filter((s) => s.outcome !== 'ok' && s.outcome !== 'killed');
  const killed = inSlot.filter((s) => s.outcome === 'killed');
  const sec = (ms: number | null) => (ms === null ? null : Math.round(ms / 100) / 10);
  const routes = ROUTES.map((r, i) => {
    const mine = inSlot.filter((s) => s.route === i && s.outcome !== 'killed');
    const ok = mine.filter((s) => s.outcome === 'ok');
    const fails = mine.filter((s) => s.outcome !== 'ok');
    const firstOk = ok.length > 0 ? Math.min(...ok.map((s) => s.end)) - run.at : null;
    const lastFail = fails.length > 0 ? Math.max(...fails.map((s) => s.start)) : null;
    const after = lastFail === null ? ok : ok.filter((s) => s.start > lastFail);
    const steady = after.length > 0 ? Math.min(...after.map((s) => s.end)) - run.at : null;
    return {
      route: r.name,
      failed: fails.length,
      failedByStatus: countBy(fails, (s) => s.label),
      firstOkS: sec(firstOk),
      steadyS: sec(steady),
    };
  });
  const worst = (xs: (number | null)[]) =>
    xs.some((x) => x === null) ? null : Math.max(...(xs as number[]));
  return {
    fault: run.name,
    atS: sec(run.at)!,
    backAfterS: sec(run.backAt - run.at)!,
    ...(run.note ? { note: run.note } : {}),
    failed: failed.length,
    failedByStatus: countBy(failed, (s) => `${ROUTES[s.route]!.name}: ${s.label}`),
    killedServeRequests: killed.length,
    killedServeByError: countBy(killed, (s) => `${ROUTES[s.route]!.name}: ${s.label}`),
    firstOkS: worst(routes.map((r) => r.firstOkS)),
    steadyS: worst(routes.map((r) => r.steadyS)),
    routes,
  };
}

// ---------------------------------------------------------------------------------------------
// Set-up helpers

async function http(
  url: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${url}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(init.headers ?? {}),
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body };
}

async function must(
  what: string,
  p: Promise<{ status: number; body: unknown }>,
  ok = [200, 201],
): Promise<unknown> {
  const r = await p;
  if (!ok.includes(r.status))
    throw new Error(`soak: ${what}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body;
}

/** Waits until the stream's consumer holds nothing and the stored count stops moving. */
async function drain(natsUrl: string, dbUrl: string): Promise<{ ms: number; pending: number }> {
  const started = performance.now();
  const nc = await connect({ servers: natsUrl });
  try {
    const jsm = await nc.jetstreamManager();
    let last = -1;
    let pending = -1;
    while (performance.now() - started < 300_000) {
      const info = await jsm.consumers.info(STREAM, CONSUMER);
      pending = info.num_pending + info.num_ack_pending;
      const stored = await withPgClient(dbUrl, async (c) =>
        Number((await c.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n),
      );
      if (pending === 0 && stored === last) break;
      last = stored;
      await sleep(3_000);
    }
    return { ms: Math.round(performance.now() - started), pending };
  } finally {
    await nc.close();
  }
}

interface EventAudit {
  ingestRequests: number;
  acknowledged: number;
  acceptedEvents: number;
  storedFromAcknowledged: number;
  lostAcknowledged: number;
  lostRequests: number[];
  duplicateRows: number;
  rowsTotal: number;
  distinctIds: number;
  unacknowledgedRequests: number;
  unacknowledgedEventsStored: number;
  unacknowledgedEventsSent: number;
  modes: Record<string, number>;
  dedupedInAnswers: number;
  rejectedInAnswers: number;
}

async function auditEvents(dbUrl: string, ctx: Ctx): Promise<EventAudit> {
  const prefix = `s${ctx.runTag}-`;
  const stored = await withPgClient(dbUrl, async (c) => {
    const r = await c.query<{ req: string; rows: string; ids: string }>(
      `SELECT split_part(event_id, '-', 2) AS req, count(*) AS rows, count(DISTINCT event_id) AS ids
         FROM events WHERE starts_with(event_id, $1) GROUP BY 1`,
      [prefix],
    );
    return new Map(r.rows.map((x) => [Number(x.req), { rows: Number(x.rows), ids: Number(x.ids) }]));
  });
  let acknowledged = 0;
  let acceptedEvents = 0;
  let storedFromAcknowledged = 0;
  let lost = 0;
  const lostRequests: number[] = [];
  let unacknowledged = 0;
  let unackStored = 0;
  let deduped = 0;
  let rejected = 0;
  for (const r of ctx.ingest) {
    const s = stored.get(r.n) ?? { rows: 0, ids: 0 };
    if (r.accepted !== undefined) {
      acknowledged += 1;
      acceptedEvents += r.accepted;
      storedFromAcknowledged += s.ids;
      deduped += r.deduped ?? 0;
      rejected += r.rejected ?? 0;
      if (s.ids < r.accepted) {
        lost += r.accepted - s.ids;
        lostRequests.push(r.n);
      }
    } else {
      unacknowledged += 1;
      unackStored += s.ids;
    }
  }
  let rowsTotal = 0;
  let distinct = 0;
  for (const s of stored.values()) {
    rowsTotal += s.rows;
    distinct += s.ids;
  }
  return {
    ingestRequests: ctx.ingest.length,
    acknowledged,
    acceptedEvents,
    storedFromAcknowledged,
    lostAcknowledged: lost,
    lostRequests: lostRequests.slice(0, 50),
    duplicateRows: rowsTotal - distinct,
    rowsTotal,
    distinctIds: distinct,
    unacknowledgedRequests: unacknowledged,
    unacknowledgedEventsStored: unackStored,
    unacknowledgedEventsSent: unacknowledged * EVENTS_PER_BATCH,
    modes: countBy(
      ctx.ingest.filter((r) => r.mode),
      (r) => r.mode!,
    ),
    dedupedInAnswers: deduped,
    rejectedInAnswers: rejected,
  };
}

// ---------------------------------------------------------------------------------------------
// The run

function soakSeconds(options: BenchOptions): number {
  if (options.durationSec > 60) return options.durationSec;
  const minutes = Number(process.env.SOAK_MINUTES ?? 10);
  if (!Number.isFinite(minutes) || minutes <= 0) throw new Error('SOAK_MINUTES must be a positive number');
  return Math.round(minutes * 60);
}

async function run(options: BenchOptions): Promise<Figure[]> {
  if (!hasPostgresServer() || !hasNatsServer() || !hasRedisServer()) {
    console.log('bench: soak: needs PostgreSQL server binaries, nats-server and redis-server; skipping');
    return [];
  }
  const durationMs = soakSeconds(options) * 1000;
  const runTag = randomBytes(3).toString('hex');
  const dir = mkdtempSync(join(tmpdir(), 'svc-soak-'));
  console.log(`bench: soak: ${durationMs / 60_000} min; process logs in ${dir}`);

  const procs: SvcProcess[] = [];
  const pools: Pool[] = [];
  let engines: Engines | undefined;
  try {
    const setupStarted = performance.now();
    const [pgc, nats, redis] = await Promise.all([privatePostgres(), privateNats(), privateRedis()]);
    engines = { pg: pgc, nats, redis };
    const dbUrl = await pgc.createDatabase();
    const env: NodeJS.ProcessEnv = {
      DATABASE_URL: dbUrl,
      NATS_URL: nats.url,
      REDIS_URL: redis.url,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: join(dir, 'data'),
      LOG_LEVEL: 'info',
      JWT_SECRET: 'soak-secret-0123456789abcdef0123456789abcdef',
      SECRETS_KEY: randomBytes(32).toString('hex'),
      // The anonymous per-IP limit (30/min) would refuse a load that all comes from 127.0.0.1;
      // every other limit and quota is the product's default.
      ENTITLEMENTS: JSON.stringify({ anonymousRatePerMin: 1_000_000 }),
    };
    await svcOnce(['migrate'], env);
    await svcOnce(
      ['user', 'create', '--email', USER.email, '--password', USER.password, '--plan', 'studio'],
      env,
    );
    const lastLine = (out: string) => out.trim().split('\n').at(-1)!.trim();
    const readKey = lastLine(
      await svcOnce(['keys', 'create', '--user', USER.email, '--scopes', 'read'], env),
    );
    const ingestKey = lastLine(
      await svcOnce(['keys', 'create', '--user', USER.email, '--scopes', 'sdk:ingest'], env),
    );

    const incarnations = new Map<string, number>();
    const startProc = async (name: string, command: 'serve' | 'worker') => {
      const n = (incarnations.get(name) ?? 0) + 1;
      incarnations.set(name, n);
      const p = await SvcProcess.start(name, command, env, logPath(dir, name, n));
      procs.push(p);
      return p;
    };
    const workers = [await startProc('worker1', 'worker'), await startProc('worker2', 'worker')];
    const serves = [await startProc('serve1', 'serve'), await startProc('serve2', 'serve')];

    // The workers' collector backfills 35 days on its first run; market routes answer 503 until then
    // (trending first, then the genre views the same refresh computes).
    const backfillStarted = performance.now();
    for (;;) {
      const r = await http(serves[0]!.url, '/api/trending');
      const g = r.status === 200 ? await http(serves[0]!.url, '/api/genre-opportunities') : r;
      if (g.status === 200) break;
      if (performance.now() - backfillStarted > 15 * 60_000)
        throw new Error(`soak: the market was not ready after 15 min: ${r.status}`);
      await sleep(2_000);
    }
    const backfillMs = performance.now() - backfillStarted;
    const keyed = { 'x-api-key': readKey };
    const market = (await must(
      'trending with a Studio read key',
      http(serves[0]!.url, '/api/trending?limit=100000', { headers: keyed }),
    )) as { games: { place_id: number; universe_id: number }[]; total: number };
    const games = market.games;
    const every = (n: number) => games.filter((_, i) => i % Math.max(1, Math.floor(games.length / n)) === 0);
    const places = every(500).map((g) => g.place_id);
    // Games with enough history to forecast (a young game answers 422 insufficient_history, a
    // right answer that would read as a failure in the fault reports).
    const forecastPlaces: number[] = [];
    for (const g of every(200)) {
      const f = await http(serves[0]!.url, `/api/forecast/${g.place_id}`, { headers: keyed });
      if (f.status === 200) forecastPlaces.push(g.place_id);
    }
    if (forecastPlaces.length === 0) throw new Error('soak: no game has enough history to forecast');
    console.log(
      `bench: soak: market ready after ${Math.round(backfillMs / 1000)} s (${market.total} games); set-up ${Math.round((performance.now() - setupStarted) / 1000)} s`,
    );

    // A signed-in user with a few tracked games and alert rules (the alerts list is theirs).
    const login = (await must(
      'login',
      http(serves[0]!.url, '/api/auth/login', { method: 'POST', body: USER }),
    )) as { access_token: string; refresh_token: string };
    let refreshToken = login.refresh_token;
    const bearer = () => ({ authorization: `Bearer ${ctx.accessToken}` });
    const ctx: Ctx = {
      readKey,
      ingestKey,
      accessToken: login.access_token,
      places,
      forecastPlaces,
      runTag,
      ingest: [],
    };
    const rules = [
      { type: 'ccu_spike', threshold: 1 },
      { type: 'ccu_drop', threshold: 1_000_000_000 },
      { type: 'rank_change', threshold: 1 },
    ];
    for (const [i, rule] of rules.entries()) {
      const g = games[i * 10]!;
      await must(
        'track',
        http(serves[0]!.url, `/api/track/${g.universe_id}`, { method: 'POST', headers: bearer() }),
      );
      await must(
        'alert',
        http(serves[0]!.url, '/api/alerts', {
          method: 'POST',
          headers: bearer(),
          body: { game_id: g.universe_id, ...rule },
        }),
      );
    }

    // ---- the soak
    const t0 = performance.now();
    const t0Epoch = Date.now();
    const now = () => performance.now() - t0;
    const slots: Slot[] = serves.map((p, i) => {
      const pool = newPool(p.url);
      pools.push(pool);
      return { name: `serve${i + 1}`, proc: p, pool, incarnation: 1, downUntil: 0 };
    });
    const workerSlots = workers.map((p, i) => ({ name: `worker${i + 1}`, proc: p }));
    const load = new Load(ctx, slots, now);
    load.start();

    // The access token lasts 15 minutes: refreshed every 5 (a failure is retried 30 s later).
    const refreshes: { at: number; status: number }[] = [];
    let refreshTimer: NodeJS.Timeout | undefined;
    const scheduleRefresh = (ms: number) => {
      refreshTimer = setTimeout(async () => {
        let status = 0;
        try {
          const r = await http(slots[0]!.proc.url, '/api/auth/refresh', {
            method: 'POST',
            body: { refresh_token: refreshToken },
          });
          status = r.status;
          if (r.status === 200) {
            const b = r.body as { access_token: string; refresh_token: string };
            ctx.accessToken = b.access_token;
            refreshToken = b.refresh_token;
          }
        } catch {
          status = -1;
        }
        refreshes.push({ at: Math.round(now()), status });
        scheduleRefresh(status === 200 ? 5 * 60_000 : 30_000);
      }, ms);
    };
    scheduleRefresh(5 * 60_000);

    // RSS of every process every 10 s; minute 2 (or 20 % of a shorter run) is the baseline.
    const rssAt = durationMs >= 5 * 60_000 ? 2 * 60_000 : 0.2 * durationMs;
    const rssSeries: { at: number; rss: Record<string, number | undefined> }[] = [];
    const everyProc = () => [...slots, ...workerSlots];
    const sampleRss = () => ({
      at: Math.round(now()),
      rss: Object.fromEntries(everyProc().map((s) => [s.name, s.proc.rssMiB()])),
    });
    const rssTimer = setInterval(() => rssSeries.push(sampleRss()), 10_000);
    // Memory after a full collection in each process, one process at a time, at minute 2 and at the
    // end: the growth goal is judged on it (sampled RSS includes garbage not collected yet).
    const sampleAfterGc = async () => {
      const out: Record<string, MemoryAfterGc | undefined> = {};
      for (const s of everyProc()) out[s.name] = await s.proc.memoryAfterGc();
      return out;
    };
    interface Baseline {
      at: number;
      rss: Record<string, number | undefined>;
      pids: Record<string, number>;
      afterGc?: Record<string, MemoryAfterGc | undefined>;
    }
    let baseline: Baseline | undefined;
    const baselineTimer = setTimeout(() => {
      const b: Baseline = {
        ...sampleRss(),
        pids: Object.fromEntries(everyProc().map((s) => [s.name, s.proc.pid])),
      };
      baseline = b;
      void sampleAfterGc().then((afterGc) => {
        b.afterGc = afterGc;
      });
    }, rssAt);

    const faults: FaultDef[] = [
      {
        name: 'PostgreSQL restart (pg_ctl restart -m fast)',
        run: async () => {
          await pgc.restart('fast');
          return undefined;
        },
      },
      {
        name: 'NATS restart (SIGTERM, start)',
        run: async () => {
          await nats.stop();
          await nats.start();
          return undefined;
        },
      },
      {
        name: 'Redis restart (SIGTERM, start; its data is gone)',
        run: async () => {
          await redis.stop();
          await redis.start();
          return undefined;
        },
      },
      {
        name: 'kill -9 of serve2, restarted at once',
        run: async () => {
          const slot = slots[1]!;
          await slot.proc.kill9(now());
          const fresh = await startProc(slot.name, 'serve');
          const old = slot.pool;
          slot.pool = newPool(fresh.url);
          pools.push(slot.pool);
          slot.proc = fresh;
          slot.incarnation += 1;
          slot.downUntil = 0;
          void old.destroy();
          return 'back = the new serve2 listening';
        },
      },
      {
        name: 'kill -9 of worker2, restarted at once',
        run: async () => {
          const w = workerSlots[1]!;
          await w.proc.kill9(now());
          w.proc = await startProc(w.name, 'worker');
          return 'back = the new worker2 started';
        },
      },
      {
        name: `Redis lost for ${REDIS_LOST_MS / 1000} s (stopped, then started empty)`,
        run: async () => {
          await redis.stop();
          await sleep(REDIS_LOST_MS);
          await redis.start();
          return 'back = Redis started again';
        },
      },
    ];
    const firstAt = Math.max(rssAt + 10_000, 0.25 * durationMs);
    const lastAt = Math.max(firstAt, 0.8 * durationMs - REDIS_LOST_MS);
    const spacing = (lastAt - firstAt) / (faults.length - 1);
    const runs: FaultRun[] = [];
    for (const [i, f] of faults.entries()) {
      const wait = firstAt + i * spacing - now();
      if (wait > 0) await sleep(wait);
      const at = now();
      console.log(`bench: soak: ${(at / 1000).toFixed(1)} s: ${f.name}`);
      const note = await f.run();
      runs.push({ name: f.name, at, backAt: now(), ...(note ? { note } : {}) });
    }
    const remaining = durationMs - now();
    if (remaining > 0) await sleep(remaining);
    const end = sampleRss();
    const endAfterGc = await sampleAfterGc();
    clearInterval(rssTimer);
    clearTimeout(baselineTimer);
    if (refreshTimer) clearTimeout(refreshTimer);
    await load.stop();
    const soakMs = now();
    console.log(`bench: soak: load stopped at ${(soakMs / 1000).toFixed(1)} s; draining the stream`);

    // ---- after the soak: drain, audit, stop
    const drained = await drain(nats.url, dbUrl);
    const events = await auditEvents(dbUrl, ctx);
    const stops: Record<string, { exit: number | string | null; ms: number; forced: boolean }> = {};
    for (const s of everyProc()) stops[s.name] = await s.proc.stop();
    const logs: Record<string, LogSummary> = {};
    for (const p of procs) logs[`${p.name} pid ${p.pid}`] = summarizeLog(p.logFile, t0Epoch);

    // ---- analysis
    const samples = load.samples;
    const inWindow = (t: number) => runs.some((r) => t >= r.at && t < r.backAt + GRACE_MS);
    const outside = samples.filter((s) => !inWindow(s.start));
    const perRoute = ROUTES.map((_, i) => routeStats(i, samples));
    const perRouteOutside = ROUTES.map((_, i) => routeStats(i, outside));
    const faultReports = runs.map((r, i) => faultReport(r, runs[i + 1]?.at ?? soakMs, samples));
    const fiveXxOutside = outside.filter((s) => s.status >= 500);
    const failuresOutside = outside.filter((s) => s.outcome !== 'ok');
    const answered = samples.filter((s) => s.status > 0).length;
    const ok = samples.filter((s) => s.outcome === 'ok').length;
    const growthPct = (base: number | undefined, last: number | undefined, restarted: boolean) =>
      base && last && !restarted ? Math.round(((last - base) / base) * 1000) / 10 : null;
    const rss = everyProc().map((s) => {
      const restarted = baseline ? baseline.pids[s.name] !== s.proc.pid : true;
      const base = baseline?.rss[s.name];
      const last = end.rss[s.name];
      const gcBase = baseline?.afterGc?.[s.name];
      const gcLast = endAfterGc[s.name];
      return {
        process: s.name,
        restarted,
        minute2MiB: base ?? null,
        endMiB: last ?? null,
        growthPct: growthPct(base, last, restarted),
        afterGcMinute2MiB: gcBase?.rssMiB ?? null,
        afterGcEndMiB: gcLast?.rssMiB ?? null,
        afterGcGrowthPct: growthPct(gcBase?.rssMiB, gcLast?.rssMiB, restarted),
        heapAfterGcMinute2MiB: gcBase?.heapUsedMiB ?? null,
        heapAfterGcEndMiB: gcLast?.heapUsedMiB ?? null,
        heapAfterGcGrowthPct: growthPct(gcBase?.heapUsedMiB, gcLast?.heapUsedMiB, restarted),
        gcMs: [gcBase?.gcMs ?? null, gcLast?.gcMs ?? null],
      };
    });

    const results = {
      at: new Date().toISOString(),
      node: process.version,
      durationS: Math.round(soakMs / 1000),
      setup: {
        games: market.total,
        backfillS: Math.round(backfillMs / 1000),
        processes: '2 svc serve + 2 svc worker (node --import tsx src/cli.ts), LOG_LEVEL=info',
        engines: 'private PostgreSQL cluster, nats-server -js, redis-server (no persistence)',
        rates: Object.fromEntries(ROUTES.map((r) => [r.name, `${r.rate}/s`])),
        eventsPerSecond: ROUTES[INGEST_ROUTE]!.rate * EVENTS_PER_BATCH,
        gracePerFaultS: GRACE_MS / 1000,
        logs: dir,
      },
      throughput: {
        requests: samples.length,
        answeredPerS: Math.round((answered / (soakMs / 1000)) * 10) / 10,
        okPerS: Math.round((ok / (soakMs / 1000)) * 10) / 10,
        skippedByClientCap: Object.fromEntries(ROUTES.map((r, i) => [r.name, load.skipped[i]])),
      },
      perRoute,
      perRouteOutsideFaultWindows: perRouteOutside,
      fiveXxOutsideFaultWindows: countBy(fiveXxOutside, (s) => `${ROUTES[s.route]!.name}: ${s.label}`),
      failuresOutsideFaultWindows: failuresOutside.map((s) => ({
        route: ROUTES[s.route]!.name,
        atS: Math.round(s.start / 100) / 10,
        slot: s.slot,
        label: s.label,
      })),
      faults: faultReports,
      events: { ...events, drainMs: drained.ms, pendingAfterDrain: drained.pending },
      rss,
      rssSeries,
      tokenRefreshes: refreshes,
      shutdown: stops,
      logs,
    };
    writeFileSync(new URL('./soak-results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);

    // ---- printed
    console.table(
      perRoute.map((r, i) => ({
        route: r.route,
        count: r.count,
        'p50 ms': r.p50,
        'p99 ms': r.p99,
        'p99 ms outside faults': perRouteOutside[i]!.p99,
        statuses: JSON.stringify(r.statuses),
      })),
    );
    console.table(
      faultReports.map((f) => ({
        fault: f.fault,
        'at s': f.atS,
        'back after s': f.backAfterS,
        failed: f.failed,
        'failed by status': JSON.stringify(f.failedByStatus),
        'killed serve (reset/refused)': f.killedServeRequests,
        'first 2xx every route s': f.firstOkS,
        'steady every route s': f.steadyS,
      })),
    );
    console.table(rss);
    console.log(
      `bench: soak: events: ${events.acceptedEvents} accepted by ${events.acknowledged} 2xx answers, ${events.storedFromAcknowledged} of them stored, ` +
        `${events.lostAcknowledged} lost, ${events.duplicateRows} duplicate rows; ${events.unacknowledgedRequests} unanswered or failed requests ` +
        `(${events.unacknowledgedEventsStored} of their ${events.unacknowledgedEventsSent} events stored); modes ${JSON.stringify(events.modes)}; drained in ${drained.ms} ms`,
    );
    for (const [name, l] of Object.entries(logs)) {
      for (const m of l.messages) {
        console.log(
          `bench: soak: log ${name}: ${m.level >= 50 ? 'ERROR' : 'WARN'} ×${m.count} [${m.first}–${m.last} s] ${m.msg}`,
        );
      }
    }
    console.log('bench: soak: wrote bench/soak-results.json');

    // ---- figures
    const verdict = (goal: string, pass: boolean) => `${goal}: ${pass ? 'pass' : 'fail'}`;
    const figures: Figure[] = [];
    const fig = (name: string, value: number, unit: string, extra: Partial<Figure> = {}) =>
      figures.push({ suite: 'soak', name, value, unit, ...extra });
    fig('throughput, answered requests', results.throughput.answeredPerS, 'req/s');
    for (const r of perRoute) {
      fig(`${r.route}: requests`, r.count, 'requests');
      fig(`${r.route}: p50`, r.p50, 'ms');
      fig(`${r.route}: p99`, r.p99, 'ms');
    }
    fig('5xx outside the fault windows', fiveXxOutside.length, 'responses', {
      goal: verdict('= 0', fiveXxOutside.length === 0),
    });
    const at = rssAt % 60_000 === 0 ? `at ${rssAt / 60_000} min` : `at ${Math.round(rssAt / 1000)} s`;
    const ratio = (a: number, b: number) => Math.round((a / b) * 1000) / 1000;
    for (const r of rss) {
      if (r.restarted) {
        fig(`RSS of ${r.process} at the end (restarted during the soak)`, r.endMiB ?? 0, 'MiB');
        continue;
      }
      if (r.growthPct !== null)
        fig(`RSS of ${r.process} at the end, sampled`, r.endMiB!, 'MiB', {
          floor: { name: at, value: r.minute2MiB! },
          ratio: ratio(r.endMiB!, r.minute2MiB!),
        });
      if (r.afterGcGrowthPct !== null)
        fig(`RSS of ${r.process} at the end, after a full collection`, r.afterGcEndMiB!, 'MiB', {
          floor: { name: `${at}, after a full collection`, value: r.afterGcMinute2MiB! },
          ratio: ratio(r.afterGcEndMiB!, r.afterGcMinute2MiB!),
          goal: verdict(`growth < ${RSS_GOAL_PCT} %`, r.afterGcGrowthPct < RSS_GOAL_PCT),
        });
      // Unmeasured is not a pass: the goal fails, and the value says nothing was read.
      else
        fig(
          `RSS of ${r.process} after a full collection: not read (the inspector did not answer)`,
          0,
          'MiB',
          {
            goal: verdict(`growth < ${RSS_GOAL_PCT} %`, false),
          },
        );
      if (r.heapAfterGcGrowthPct !== null)
        fig(`V8 heap of ${r.process} at the end, after a full collection`, r.heapAfterGcEndMiB!, 'MiB', {
          floor: { name: `${at}, after a full collection`, value: r.heapAfterGcMinute2MiB! },
          ratio: ratio(r.heapAfterGcEndMiB!, r.heapAfterGcMinute2MiB!),
        });
    }
    for (const f of faultReports) {
      fig(`${f.fault}: failed requests`, f.failed, 'requests');
      if (f.killedServeRequests > 0)
        fig(`${f.fault}: requests lost with the killed serve`, f.killedServeRequests, 'requests');
      fig(`${f.fault}: until steady 2xx on every route`, f.steadyS ?? -1, 's');
    }
    fig('acknowledged events stored', events.storedFromAcknowledged, 'events', {
      floor: { name: 'accepted in 2xx answers', value: events.acceptedEvents },
      ratio:
        events.acceptedEvents > 0
          ? Math.round((events.storedFromAcknowledged / events.acceptedEvents) * 1e6) / 1e6
          : 0,
      goal: verdict('= 1', events.lostAcknowledged === 0),
    });
    fig('duplicate event rows', events.duplicateRows, 'rows', {
      goal: verdict('= 0', events.duplicateRows === 0),
    });
    return figures;
  } finally {
    for (const p of procs) p.killNow();
    await Promise.all(pools.map((p) => p.destroy().catch(() => {})));
    if (engines) {
      await engines.pg.dispose().catch(() => {});
      await engines.nats.dispose().catch(() => {});
      await engines.redis.dispose().catch(() => {});
    }
  }
}

export const soakSuite: Suite = {
  name: 'soak',
  description:
    'a mixed workload at a fixed rate (SOAK_MINUTES, default 10, or --duration seconds when over 60) against 2 svc serve + 2 svc worker on private PostgreSQL, NATS and Redis, with six faults: latency per route, 5xx, RSS growth, recovery, events lost or doubled',
  run,
};
