/**
 * SDK ingest throughput: events/s accepted by POST /api/sdk/events in async and in sync mode, on
 * embedded PGlite and (when DATABASE_URL is set) on PostgreSQL, each against the parse-only floor
 * (a bare Fastify route parsing the same body) measured in the same run. Every request carries 500
 * realistic events with NEW event ids (else dedupe is measured); after each subject's server has
 * shut down (which drains the async queue) the rows in `events` are counted and must equal the
 * events the 2xx answers accepted.
 *
 * The goals compare subjects with each other, so both run side by side and are measured back to
 * back (compare: three pairs, the median ratio): async against sync, and on PostgreSQL sync against
 * the database floor. Measured minutes apart, as they were before, each against its own parse-only
 * floor, their ratio moved by a third between runs on the shared machine.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { connect } from 'nats';
import { loadConfig } from '../src/config.js';
import { connectDb, migrate, openPglite } from '../src/db/index.js';
import { type EventRow, eventsCopyText } from '../src/ingest/ingest.repo.js';
import { Partitions } from '../src/ingest/partitions.js';
import { NODE_FLAGS } from '../src/node-flags.js';
import { freshPostgresDatabase } from '../test/helpers/db.js';
import { withPgClient } from '../test/helpers/pg-client.js';
import { rng } from '../test/helpers/random.js';
import { type CpuPerUnit, describeCpu, perUnit, withCpu } from './cpu.js';
import { type BenchOptions, compare, type Figure, type LoadResult, ratio, type Suite } from './lib.js';

export const BATCH = 500;
const PATH = '/api/sdk/events';
/** Stands for the per-request part of every event_id in the body template (JSON leaves it as is). */
const ID_SLOT = '~@~';

export interface Target {
  url: string;
  /** The server's process (its CPU is measured during loads). */
  pid: number | undefined;
  /** The ingest key the server created (ingest-sync / ingest-async). */
  key: string;
  /** Resolves once the server has written everything its queue holds. */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

/** `tsx bench/server.ts <kind>` with its own environment; READY <url> [key]. BENCH_CPU_PROFILE=<dir>
 * writes each server's V8 CPU profile there (node --cpu-prof) when it exits. */
export async function startServer(kind: string, env: NodeJS.ProcessEnv): Promise<Target> {
  const profile = process.env.BENCH_CPU_PROFILE;
  const profiling = profile ? ['--cpu-prof', '--cpu-prof-dir', profile] : [];
  const child: ChildProcess = spawn(
    process.execPath,
    [...NODE_FLAGS, ...profiling, '--import', 'tsx', 'bench/server.ts', kind],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
      env,
    },
  );
  let drained: (() => void) | undefined;
  child.stdout?.on('data', (c: Buffer) => {
    if (c.toString().includes('DRAINED\n')) drained?.();
  });
  const ready = await new Promise<{ url: string; key: string }>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /READY (\S+)(?: (\S+))?\n/.exec(out);
      if (m) resolve({ url: m[1]!, key: m[2] ?? '' });
    });
    child.on('exit', (code) => reject(new Error(`bench server "${kind}" exited with ${code}`)));
  });
  return {
    ...ready,
    pid: child.pid,
    drain: () =>
      new Promise<void>((resolve) => {
        drained = resolve;
        child.stdin?.write('DRAIN\n');
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 60_000).unref();
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// Realistic batches: what a game's SDK flushes — lifecycle, gameplay, monetisation, quality.

type Payload = Record<string, unknown>;
type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

const COUNTRIES = ['US', 'BR', 'GB', 'DE', 'PH', 'ID', 'MX', 'FR', 'CA', 'TR'];
const DEVICES = ['iPhone14,2', 'SM-A515F', 'Pixel 7', 'Windows PC', 'Xbox Series S', 'iPad13,4'];
const CUSTOM = ['quest_accepted', 'quest_completed', 'pet_hatched', 'trade_completed', 'emote_used'];

/** [type, weight, payload]: weights out of 100, mostly the seven common types. */
const MIX: readonly [string, number, (r: Rand) => Payload][] = [
  [
    'session_start',
    8,
    (r) => ({
      device: pick(r, DEVICES),
      os: pick(r, ['iOS 17.4', 'Android 14', 'Windows 11']),
      country: pick(r, COUNTRIES),
      membership: pick(r, ['none', 'premium']),
    }),
  ],
  [
    'session_end',
    8,
    (r) => ({ duration_s: Math.round(r() * 3600), reason: pick(r, ['quit', 'timeout', 'teleport']) }),
  ],
  [
    'custom',
    26,
    (r) => ({
      name: pick(r, CUSTOM),
      quest_id: `q${Math.floor(r() * 80)}`,
      zone: pick(r, ['spawn', 'forest', 'castle', 'market']),
      step: Math.floor(r() * 10),
    }),
  ],
  [
    'level',
    20,
    (r) => ({
      level: Math.floor(r() * 60),
      score: Math.floor(r() * 100_000),
      result: pick(r, ['win', 'loss', 'quit', 'complete']),
    }),
  ],
  [
    'purchase',
    6,
    (r) => ({
      sku: pick(r, ['gems_100', 'vip_pass', 'starter_pack', 'double_xp']),
      name: 'Gem Pack',
      currency: pick(r, ['USD', 'R$']),
      price: pick(r, [0.99, 4.99, 9.99, 25, 80]),
      quantity: 1,
      source: pick(r, ['iap', 'gamepass', 'devproduct']),
    }),
  ],
  [
    'performance',
    12,
    (r) => ({
      fps_avg: Math.round(30 + r() * 90),
      fps_p5: Math.round(15 + r() * 30),
      frame_time_ms_p95: Math.round(100 * (8 + r() * 40)) / 100,
      memory_mb: Math.round(800 + r() * 2400),
      device: pick(r, DEVICES),
    }),
  ],
  [
    'ad_impression',
    10,
    (r) => ({
      format: pick(r, ['banner', 'interstitial', 'rewarded']),
      network: pick(r, ['admob', 'applovin', 'unity']),
      placement: pick(r, ['level_end', 'shop', 'revive']),
      revenue_usd: Math.round(r() * 2000) / 100_000,
      ecpm: Math.round(r() * 2000) / 100,
    }),
  ],
  [
    'crash',
    1,
    (r) => ({
      stack_trace: `Error: attempt to index nil\n  at Workspace.Round.Handler:${Math.floor(r() * 400)}\n  at ReplicatedStorage.Net:88\n  at Script:12`,
      signature: 'nil-index-round',
      build: '1.42.0',
      os: 'Android 14',
    }),
  ],
  [
    'error',
    2,
    (r) => ({
      severity: pick(r, ['warn', 'error']),
      message: 'Remote request timed out after 5000 ms',
      source: pick(r, ['Net', 'DataStore', 'Shop']),
    }),
  ],
  ['brand_zone_enter', 2, (r) => ({ zone_id: `zone-${Math.floor(r() * 5)}`, country: pick(r, COUNTRIES) })],
  [
    'brand_zone_exit',
    2,
    (r) => ({ zone_id: `zone-${Math.floor(r() * 5)}`, dwell_seconds: Math.round(r() * 600) }),
  ],
  ['equip', 1, (r) => ({ item_id: `item-${Math.floor(r() * 40)}`, item_name: 'Neon Sneakers' })],
  [
    'share',
    1,
    (r) => ({ share_platform: pick(r, ['discord', 'x', 'tiktok']), item_id: `item-${Math.floor(r() * 40)}` }),
  ],
  ['brand_survey_shown', 0.5, (r) => ({ survey_id: 'survey-7', cohort: pick(r, ['exposed', 'control']) })],
  [
    'brand_survey_response',
    0.5,
    (r) => ({
      survey_id: 'survey-7',
      answer: pick(r, ['a', 'b', 'c']),
      favorable: r() < 0.6,
      cohort: pick(r, ['exposed', 'control']),
    }),
  ],
];

function pickType(r: Rand): (typeof MIX)[number] {
  let x = r() * MIX.reduce((s, m) => s + m[1], 0);
  for (const m of MIX) {
    x -= m[1];
    if (x < 0) return m;
  }
  return MIX[0]!;
}

/** A version 4 UUID from random hex digits. */
function uuid(hex: (n: number) => string): string {
  const h = hex(32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A request body as parts around each event_id's per-request slot; `ids(tag)` fills them in. */
function batchTemplate(apiKey: string, seed: number, now: Date): string[] {
  const r = rng(seed);
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(r() * 16).toString(16)).join('');
  // 5,000 players, each with a 128-bit hashed id (32 hex digits) and a few session UUIDs.
  const players = Array.from({ length: 5_000 }, () => ({
    id: hex(32),
    sessions: Array.from({ length: 4 }, () => uuid(hex)),
  }));
  const events = Array.from({ length: BATCH }, (_, i) => {
    const [type, , payload] = pickType(r);
    const player = players[Math.floor(r() * players.length)]!;
    return {
      // A UUID, as SDKs make them: the first 8 digits vary per request (ID_SLOT), the rest per event.
      event_id: `${ID_SLOT}-${uuid(hex).slice(9, 23)}-${i.toString(16).padStart(12, '0')}`,
      ts: new Date(now.getTime() - Math.floor(r() * 600_000)).toISOString(),
      platform: r() < 0.8 ? 'platform_1' : 'platform_2',
      game_id: '4924922222',
      player_id: player.id,
      session_id: player.sessions[Math.floor(r() * 4)]!,
      type,
      payload: payload(r),
    };
  });
  return JSON.stringify({ api_key: apiKey, events }).split(ID_SLOT);
}

/** Bodies cycled through with a fresh id tag per request: every request carries new event ids. */
export class Bodies {
  private readonly templates: string[][];
  private n = 0;
  readonly bytesPerEvent: number;

  /** `tag`: 2 hex digits, the first of each event_id's 8 per-request ones. */
  constructor(apiKey: string, tag: string) {
    const now = new Date();
    // The tag varies ids between body sets, the counter between requests.
    this.templates = Array.from({ length: 8 }, (_, i) =>
      batchTemplate(apiKey, i + 1, now).map((part, j) => (j === 0 ? part : `${tag}${part}`)),
    );
    this.bytesPerEvent = Math.round(this.next().length / BATCH);
  }

  next(): string {
    this.n += 1;
    // 8 hex digits: the run tag's 2 and the request counter's 6.
    return this.templates[this.n % this.templates.length]!.join(this.n.toString(16).padStart(6, '0'));
  }
}

export interface IngestLoad extends LoadResult {
  ok: number;
  byStatus: Record<string, number>;
  durationSec: number;
  /** Async: accepted batches per second counting the time until the queue was drained too. */
  sustainedRps?: number;
  /** Async: the load's batches over the time the writer then took to store them. */
  drainRps?: number;
  /** CPU per accepted batch during the load (Linux), in ms: the server, PostgreSQL, NATS and the
   * load generator. */
  cpu?: CpuPerUnit;
}

export async function loadIngest(
  url: string,
  bodies: Bodies,
  options: BenchOptions,
  pid?: number,
): Promise<IngestLoad> {
  const { result, cpu } = await withCpu(pid, () =>
    autocannon({
      url,
      connections: options.connections,
      duration: options.durationSec,
      requests: [
        {
          method: 'POST',
          path: PATH,
          headers: { 'content-type': 'application/json' },
          setupRequest: (req) => ({ ...req, body: bodies.next() }),
        },
      ],
    }),
  );
  const ok = result['2xx'];
  const byStatus = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count ?? 0]),
  );
  return {
    // Only 2xx answers count: requests/s here is accepted batches per second.
    rps: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    ok,
    byStatus,
    durationSec: result.duration,
    ...(cpu ? { cpu: perUnit(cpu, ok) } : {}),
  };
}

async function countPostgres(url: string): Promise<number> {
  const r = await withPgClient(url, (client) =>
    client.query<{ n: string }>('SELECT count(*)::bigint AS n FROM events'),
  );
  return Number(r.rows[0]!.n);
}

async function countPglite(dataDir: string): Promise<number> {
  const db = await openPglite(join(dataDir, 'pg'));
  try {
    const r = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM events');
    return r.rows[0]!.n;
  } finally {
    await db.close();
  }
}

async function deleteStream(stream: string): Promise<void> {
  const nc = await connect({ servers: process.env.NATS_URL });
  try {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.delete(stream).catch(() => false);
  } finally {
    await nc.close();
  }
}

type Engine = 'PGlite' | 'PostgreSQL';
type Mode = 'async' | 'sync';

/** A running subject: a fresh server and database (and, async on PostgreSQL with NATS_URL, a stream
 * of its own), probed and warmed up; `load()` is one timed load (async: then its queue is drained,
 * untimed, so the next run starts empty) and `finish()` stops it and checks what it stored. */
interface Subject {
  label: string;
  mode: Mode;
  load(): Promise<IngestLoad>;
  finish(): Promise<void>;
}

async function openSubject(
  engine: Engine,
  mode: Mode,
  options: BenchOptions,
  runTag: string,
): Promise<Subject> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-ingest-'));
  const fresh =
    engine === 'PostgreSQL' && process.env.DATABASE_URL ? await freshPostgresDatabase() : undefined;
  const dbUrl = fresh?.url;
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  if (dbUrl) env.DATABASE_URL = dbUrl;
  else delete env.DATABASE_URL;
  // Async on PostgreSQL is the production set-up when NATS_URL is set: the JetStream queue, on a
  // stream of the bench's own (deleted afterwards); elsewhere the outbox table as the queue.
  const stream =
    mode === 'async' && engine === 'PostgreSQL' && process.env.NATS_URL
      ? `SVC_INGEST_BENCH_${runTag.toUpperCase()}`
      : undefined;
  if (stream) env.NATS_INGEST_STREAM = stream;
  else delete env.NATS_URL;
  const label = `${mode}${stream ? ' (JetStream)' : mode === 'async' ? ' (outbox queue)' : ''} on ${engine}`;
  const cleanUp = async () => {
    if (stream) await deleteStream(stream);
    await fresh?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  let app: Target;
  try {
    app = await startServer(`ingest-${mode}`, env);
  } catch (err) {
    await cleanUp();
    throw err;
  }
  // Each subject has a fresh database: a random byte per body set is enough to vary the ids.
  const bodies = new Bodies(app.key, randomBytes(1).toString('hex'));
  const runs: IngestLoad[] = [];
  const load = async (durationSec = options.durationSec): Promise<IngestLoad> => {
    const s = await loadIngest(app.url, bodies, { ...options, durationSec }, app.pid);
    runs.push(s);
    if (mode === 'async') {
      // Not timed by the load: the queue's backlog, written before the next run.
      const t0 = performance.now();
      await app.drain();
      const drainSec = (performance.now() - t0) / 1000;
      s.sustainedRps = s.ok / (s.durationSec + drainSec);
      s.drainRps = s.ok / drainSec;
    }
    return s;
  };
  const finish = async () => {
    try {
      const t0 = performance.now();
      await app.stop();
      const stopMs = performance.now() - t0;
      const sent = BATCH + runs.reduce((n, x) => n + x.ok * BATCH, 0);
      const stored = dbUrl ? await countPostgres(dbUrl) : await countPglite(dataDir);
      const failed = runs.reduce((n, x) => n + x.non2xx + x.errors, 0);
      const statuses = runs.reduce<Record<string, number>>((acc, x) => {
        for (const [code, n] of Object.entries(x.byStatus)) acc[code] = (acc[code] ?? 0) + n;
        return acc;
      }, {});
      console.log(
        `bench: ingest: ${label}: ${stored} events stored; ${sent} accepted by 2xx answers seen ` +
          `(statuses ${JSON.stringify(statuses)}, ${failed} non-2xx/errors; shutdown incl. queue drain ${Math.round(stopMs)} ms)` +
          `; ~${bodies.bytesPerEvent} B/event`,
      );
      // Batches in flight when a load run stops are still stored, but autocannon never sees their
      // answer: at most one batch per connection and run more than the 2xx answers counted.
      const inFlight = runs.length * options.connections * BATCH;
      if (stored < sent || stored > sent + inFlight) {
        throw new Error(
          `${label}: ${stored} events stored, ${sent} accepted (+ up to ${inFlight} in flight)`,
        );
      }
    } finally {
      await cleanUp();
    }
  };
  try {
    // One batch first: all 500 events must be accepted (not rejected, not deduped).
    const probe = await fetch(`${app.url}${PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: bodies.next(),
    });
    const counts = (await probe.json()) as { accepted?: number };
    if (counts.accepted !== BATCH) {
      throw new Error(
        `${label}: a probe batch answered ${probe.status} ${JSON.stringify(counts).slice(0, 400)}`,
      );
    }
    // Warm-up (JIT, connection pool, partitions); its events are stored and counted too.
    await load(2);
  } catch (err) {
    await finish().catch(() => {});
    throw err;
  }
  return { label, mode, load: () => load(), finish };
}

/** A subject against the parse-only route: events/s, the p99 of a batch and (async) events/s until
 * the queue is drained. */
async function againstParseFloor(
  subject: Subject,
  floor: Target,
  engine: Engine,
  options: BenchOptions,
): Promise<Figure[]> {
  const floorBodies = new Bodies('floor-key', randomBytes(1).toString('hex'));
  const r = await compare(() => loadIngest(floor.url, floorBodies, options), subject.load);
  const label = subject.label;
  const goal = subject.mode === 'async' ? '≥ 0.3' : engine === 'PostgreSQL' ? '≥ 0.15' : undefined;
  const parseFloor = { name: 'parse-only route', value: Math.round(r.floor.rps * BATCH) };
  const figures: Figure[] = [
    {
      suite: 'ingest',
      name: `${label}: events/s`,
      value: Math.round(r.subject.rps * BATCH),
      unit: 'events/s',
      floor: parseFloor,
      ratio: ratio(r.subject.rps, r.floor.rps),
      ...(goal ? { goal } : {}),
    },
    {
      suite: 'ingest',
      name: `${label}: p99 of a ${BATCH}-event batch`,
      value: r.subject.p99,
      unit: 'ms',
      floor: { name: 'parse-only route p99', value: r.floor.p99 },
      ratio: ratio(r.subject.p99, r.floor.p99),
    },
  ];
  // Async answers before the events are written: what the writer keeps up with is the events
  // accepted over the load plus the time the queue then took to drain.
  const sustainedRps = r.subject.sustainedRps;
  if (sustainedRps !== undefined) {
    figures.push({
      suite: 'ingest',
      name: `${label}: events/s written, until the queue is drained`,
      value: Math.round(sustainedRps * BATCH),
      unit: 'events/s',
      floor: parseFloor,
      ratio: ratio(sustainedRps, r.floor.rps),
    });
  }
  return figures;
}

/**
 * The database floor: the same bodies' events COPYed straight into `event_ids` and `events` (one
 * transaction per 500-event batch, as many at once as the server's pool holds), with no HTTP, no
 * validation, no quota and no rollup queue, in a database of its own. `run()` is one timed run, in
 * batches per second like a load.
 */
async function openDatabaseFloor(options: BenchOptions): Promise<{
  run(): Promise<LoadResult & { cpu?: CpuPerUnit }>;
  close(): Promise<void>;
}> {
  const fresh = await freshPostgresDatabase();
  const db = await connectDb(loadConfig({ DATABASE_URL: fresh.url }));
  await migrate(db);
  const now = new Date();
  await new Partitions().ensure(db, [now, new Date(now.getTime() - 600_000)]);
  const bodies = new Bodies('floor', randomBytes(1).toString('hex'));
  const received = now.toISOString();
  const run = async () => {
    const deadline = performance.now() + options.durationSec * 1000;
    let batches = 0;
    const started = performance.now();
    // The app's pool holds 10 connections: as many COPYs at once. Its CPU: PostgreSQL's, and this
    // process's (reported as the load's: it parses the bodies and makes the COPY text).
    const { cpu } = await withCpu(undefined, () =>
      Promise.all(
        Array.from({ length: Math.min(10, options.connections) }, async () => {
          while (performance.now() < deadline) {
            const parsed = JSON.parse(bodies.next()) as { events: Omit<EventRow, 'team_id'>[] };
            const batch = Math.floor(Math.random() * 2 ** 48);
            const rows: EventRow[] = parsed.events.map((e) => ({
              team_id: 1,
              key_id: 1,
              sdk_version: null,
              received_at: received,
              event_id: e.event_id,
              ts: e.ts,
              platform: e.platform,
              game_id: e.game_id,
              player_id: e.player_id,
              session_id: e.session_id ?? null,
              type: e.type,
              payload: e.payload,
              country: null,
              batch,
            }));
            const ids = rows.map((r) => `1\t${r.event_id}\t${received}\n`).join('');
            await db.transaction(async (tx) => {
              await tx.copyIn('COPY event_ids (team_id, event_id, received_at) FROM STDIN', ids);
              await tx.copyIn(
                'COPY events (team_id, key_id, sdk_version, received_at, event_id, ts, platform, game_id, player_id, session_id, type, payload, country, batch) FROM STDIN',
                eventsCopyText(rows),
              );
            });
            batches += 1;
          }
        }),
      ),
    );
    // Only the rate is compared: no figure reads a latency of the floor, so none is measured.
    return {
      rps: batches / ((performance.now() - started) / 1000),
      p50: 0,
      p99: 0,
      errors: 0,
      non2xx: 0,
      ...(cpu ? { cpu: perUnit(cpu, batches) } : {}),
    };
  };
  return {
    run,
    close: async () => {
      await db.close();
      await fresh.drop();
    },
  };
}

/**
 * What a batch costs the whole machine in CPU, a subject against its floor (from the same pair of
 * runs): when both fill the machine's CPUs, as on the 2-CPU machines this runs on (server,
 * PostgreSQL, NATS and load generator share them), the subject's events/s can exceed the floor's by
 * at most floor CPU / subject CPU. Printed part by part; no figure without /proc.
 */
function cpuFigure(
  name: string,
  subject: CpuPerUnit | undefined,
  floor: { name: string; cpu: CpuPerUnit | undefined; loadName: string },
): Figure[] {
  if (!subject || !floor.cpu) return [];
  console.log(
    `bench: ingest: CPU per accepted ${BATCH}-event batch, ${name}: ${describeCpu(subject, 'load generator')}; ` +
      `${floor.name}: ${describeCpu(floor.cpu, floor.loadName)}; ` +
      `events/s bound when both fill the machine: ${ratio(floor.cpu.total, subject.total)} × the floor's`,
  );
  return [
    {
      suite: 'ingest',
      name: `${name}: CPU per accepted batch, all processes`,
      value: subject.total,
      unit: 'ms',
      floor: { name: floor.name, value: floor.cpu.total },
      ratio: ratio(subject.total, floor.cpu.total),
    },
  ];
}

/** The figures of one engine: each mode against the parse-only route, then async against sync and
 * (PostgreSQL) sync against the database floor, each ratio from back-to-back pairs (compare). */
async function engineFigures(
  engine: Engine,
  floor: Target,
  options: BenchOptions,
  runTag: string,
): Promise<Figure[]> {
  const figures: Figure[] = [];
  const goals = engine === 'PostgreSQL';
  const sync = await openSubject(engine, 'sync', options, runTag);
  try {
    const async_ = await openSubject(engine, 'async', options, runTag);
    try {
      figures.push(...(await againstParseFloor(async_, floor, engine, options)));
      figures.push(...(await againstParseFloor(sync, floor, engine, options)));
      // Both servers are up: each async run is measured seconds after a sync run.
      const r = await compare(sync.load, async_.load);
      const syncFloor = { name: `${sync.label}, run just before`, value: Math.round(r.floor.rps * BATCH) };
      figures.push({
        suite: 'ingest',
        name: `${async_.label}: accepted events/s against sync`,
        value: Math.round(r.subject.rps * BATCH),
        unit: 'events/s',
        floor: syncFloor,
        ratio: ratio(r.subject.rps, r.floor.rps),
        ...(goals ? { goal: '≥ 2' } : {}),
      });
      const drainRps = r.subject.drainRps;
      if (drainRps !== undefined) {
        figures.push({
          suite: 'ingest',
          name: `${async_.label}: drain events/s against sync`,
          value: Math.round(drainRps * BATCH),
          unit: 'events/s',
          floor: syncFloor,
          ratio: ratio(drainRps, r.floor.rps),
          ...(goals ? { goal: '≥ 1' } : {}),
        });
      }
      figures.push(
        ...cpuFigure(async_.label, r.subject.cpu, {
          name: syncFloor.name,
          cpu: r.floor.cpu,
          loadName: 'load generator',
        }),
      );
    } finally {
      await async_.finish();
    }
    if (engine === 'PostgreSQL') {
      const dbFloor = await openDatabaseFloor(options);
      try {
        const r = await compare(dbFloor.run, sync.load);
        figures.push({
          suite: 'ingest',
          name: `${sync.label}: events/s against the database floor`,
          value: Math.round(r.subject.rps * BATCH),
          unit: 'events/s',
          floor: { name: 'COPY into event_ids and events, no HTTP', value: Math.round(r.floor.rps * BATCH) },
          ratio: ratio(r.subject.rps, r.floor.rps),
          goal: '≥ 0.8',
        });
        figures.push(
          ...cpuFigure(sync.label, r.subject.cpu, {
            name: 'COPY into event_ids and events, no HTTP',
            cpu: r.floor.cpu,
            loadName: 'its Node process',
          }),
        );
      } finally {
        await dbFloor.close();
      }
    }
  } finally {
    await sync.finish();
  }
  return figures;
}

export const ingestSuite: Suite = {
  name: 'ingest',
  description: `POST /api/sdk/events events/s (${BATCH}-event batches), async and sync, PGlite and PostgreSQL, against a parse-only route, each other and a database floor`,
  async run(options) {
    const only = process.env.INGEST_ONLY;
    const engines: Engine[] = process.env.DATABASE_URL ? ['PGlite', 'PostgreSQL'] : ['PGlite'];
    if (!process.env.DATABASE_URL) {
      console.log('bench: ingest: DATABASE_URL is not set; skipping the PostgreSQL figures');
    }
    const runTag = randomBytes(3).toString('hex');
    const floor = await startServer('ingest-floor', process.env);
    try {
      const figures: Figure[] = [];
      for (const engine of engines.filter((e) => !only || e.toLowerCase() === only.toLowerCase())) {
        figures.push(...(await engineFigures(engine, floor, options, runTag)));
      }
      return figures;
    } finally {
      await floor.stop();
    }
  },
};
