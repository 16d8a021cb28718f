/**
 * SDK analytics: how fast the dashboards answer at volume, and what the rollups cost.
 *
 * A generated data set for one team and game (ANALYTICS_EVENTS events, default 10,000,000 on
 * PostgreSQL when DATABASE_URL is set and 1,000,000 on PGlite; 100,000 players over 90 days, every
 * event type in a realistic mix, players arriving over the 90 days and coming back less and less)
 * is copied into `events` and its days marked, as ingest would; the rollup job then builds the
 * rollups (timed: events/s rebuilt). Each view is asked 20 times for a 30-day and a 90-day range;
 * p50 and p95 are reported against a plain scan of the same raw events (count of events and
 * distinct players over the range, the least any answer from raw events would cost): the floor.
 * The results of the data set's experiment (its exposures are in the mix, one variant per player:
 * D7 retention, conversion and revenue per player over the 90 days) are timed the same way.
 * Goals (issue 15): every view p95 < 500 ms on PostgreSQL at 10M, < 1 s on PGlite at 1M.
 *
 * Rollup upkeep: sync ingest (the real server, 500-event batches of the ingest bench) loaded for
 * UPKEEP_SEC with the rollup job scheduled as in production (every 10 s, paced: rollups.ts), against
 * the same load without it; the ratio is what the upkeep leaves of ingest throughput (goal: it
 * costs at most 20%, ratio ≥ 0.8). 60 s, so the figure includes the rebuilds of a day grown large,
 * not only the first cheap ones.
 *
 * ANALYTICS_ONLY narrows a run: `views` (both engines' views, no upkeep), `postgres` or `pglite`
 * (that engine's views only), `upkeep` (the upkeep figures only).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnalyticsService, createAnalytics } from '../src/analytics/index.js';
import { markDaysForRebuild } from '../src/analytics/rollups.repo.js';
import { VIEWS } from '../src/analytics/views/index.js';
import { fixedClock } from '../src/clock.js';
import { type Db, migrate, openPglite, openPostgres } from '../src/db/index.js';
import { EVENT_TYPES, Partitions } from '../src/ingest/index.js';
import { type EventRow, insertEvents } from '../src/ingest/ingest.repo.js';
import { DEFAULT_ENTITLEMENTS } from '../src/plans.js';
import { freshPostgresDatabase } from '../test/helpers/db.js';
import { rng } from '../test/helpers/random.js';
import { BATCH, Bodies, loadIngest, startServer } from './ingest.bench.js';
import { type BenchOptions, type Figure, ratio, type Suite } from './lib.js';

const DAY = 86_400_000;
const DAYS = 90;
const PLAYERS = 100_000;
export const GAME = 'bench-game';
export const TEAM = 1;
/** The data set ends the day before "now". */
export const NOW = new Date('2026-11-24T12:00:00Z');
const FIRST_DAY = Date.UTC(2026, 7, 26); // 90 days: 2026-08-26 .. 2026-11-23
const REQUESTS = 20;
const CHUNK = 50_000;

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const COUNTRIES = ['US', 'BR', 'GB', 'DE', 'PH', 'ID', 'MX', 'FR', 'CA', 'TR'];

/** What happens inside a session, weighted. */
const MIX: readonly [string, number, (r: Rand) => Record<string, unknown>][] = [
  [
    'level',
    30,
    (r) => ({ level: Math.floor(r() * 40), result: pick(r, ['win', 'loss', 'quit', 'complete']) }),
  ],
  [
    'custom',
    33,
    (r) => ({
      name: pick(r, ['quest_started', 'quest_done', 'pet_hatched', 'trade']),
      step: Math.floor(r() * 5),
    }),
  ],
  [
    'purchase',
    3,
    (r) => ({
      sku: pick(r, ['gems_100', 'vip', 'starter', 'double_xp']),
      price: pick(r, [0.99, 4.99, 9.99, 25, 80]),
      quantity: 1,
      currency: pick(r, ['USD', 'USD', 'R$']),
      source: pick(r, ['iap', 'gamepass', 'devproduct']),
    }),
  ],
  [
    'ad_impression',
    12,
    (r) => ({
      format: pick(r, ['banner', 'interstitial', 'rewarded']),
      network: pick(r, ['admob', 'applovin', 'unity']),
      placement: pick(r, ['level_end', 'shop', 'revive']),
      revenue_usd: Math.round(r() * 2000) / 100_000,
    }),
  ],
  [
    'performance',
    10,
    (r) => ({
      fps_avg: Math.round(r() * 120),
      frame_time_ms_p95: Math.round(8 + r() * 60),
      memory_mb: Math.round(300 + r() * 1500),
      device: `${pick(r, ['Pixel', 'iPhone', 'Galaxy S', 'PC', 'Xbox'])} ${Math.floor(r() * 30)}`,
    }),
  ],
  [
    'error',
    3,
    (r) => ({
      severity: pick(r, ['warn', 'warn', 'error', 'fatal']),
      message: pick(r, [
        `Remote request timed out after ${Math.floor(r() * 30_000)} ms`,
        `Workspace.Map.Zone${Math.floor(r() * 12)}.Door:12: attempt to index nil with 'Open'`,
        `Failed to load asset rbxassetid://${Math.floor(r() * 1e9)}`,
      ]),
      source: pick(r, ['client', 'server', 'ReplicatedStorage.Net']),
    }),
  ],
  [
    'crash',
    0.3,
    (r) => ({
      stack_trace: [
        `Script 'ServerScriptService.${pick(r, ['Combat', 'Trade', 'Pets'])}', Line ${Math.floor(r() * 400)}`,
        `  at 0x${Math.floor(r() * 2 ** 32).toString(16)} ${pick(r, ['applyDamage', 'settleTrade', 'hatch'])}`,
        `Script 'ReplicatedStorage.Net', Line ${Math.floor(r() * 90)}`,
      ].join('\n'),
      build: pick(r, ['1.4.0', '1.4.1', '1.5.0']),
      os: pick(r, ['Android 14', 'iOS 17.5', 'Windows 11']),
    }),
  ],
  ['equip', 3, (r) => ({ item_id: `item-${Math.floor(r() * 40)}` })],
  [
    'share',
    0.5,
    (r) => ({ share_platform: pick(r, ['tiktok', 'discord', 'x']), item_id: `item-${Math.floor(r() * 40)}` }),
  ],
  ['brand_zone_enter', 2, (r) => ({ zone_id: `zone-${Math.floor(r() * 5)}` })],
  [
    'brand_zone_exit',
    1.8,
    (r) => ({ zone_id: `zone-${Math.floor(r() * 5)}`, dwell_seconds: Math.round(r() * 300) }),
  ],
  ['brand_survey_shown', 0.3, (r) => ({ survey_id: 'recall-1', cohort: pick(r, ['exposed', 'control']) })],
  [
    'brand_survey_response',
    0.2,
    (r) => ({
      survey_id: 'recall-1',
      answer: pick(r, ['yes', 'no', 'not_sure']),
      cohort: pick(r, ['exposed', 'control']),
    }),
  ],
  [
    'custom',
    0.5,
    (r) => ({
      name: 'experiment_exposure',
      experiment: 'shop-layout',
      variant: pick(r, ['control', 'grid']),
    }),
  ],
];
const MIX_TOTAL = MIX.reduce((s, m) => s + m[1], 0);

interface Session {
  player: number;
  day: number;
  start: number;
}

/** Every session of the data set: players arrive over the 90 days; a player comes back on day k after
 * arriving with a chance that decays with k (about 35% on day 1, 10% on day 30). */
function sessions(r: Rand): Session[] {
  const out: Session[] = [];
  for (let p = 0; p < PLAYERS; p += 1) {
    const first = Math.floor(r() * DAYS);
    const stickiness = 2 + r() * 30;
    for (let d = first; d < DAYS; d += 1) {
      const k = d - first;
      if (k > 0 && r() > 0.35 * Math.exp(-(k - 1) / stickiness)) continue;
      const n = r() < 0.3 ? 2 : 1;
      for (let s = 0; s < n; s += 1)
        out.push({ player: p, day: d, start: Math.floor(r() * (DAY - 3_600_000)) });
    }
  }
  return out;
}

/** The data set's rows, CHUNK at a time. */
function* rows(r: Rand, total: number): Generator<EventRow[]> {
  const all = sessions(r);
  const perSession = Math.max(3, Math.round(total / all.length));
  let chunk: EventRow[] = [];
  let made = 0;
  let id = 0;
  for (const [i, s] of all.entries()) {
    if (made >= total) break;
    const platform = s.player % 5 === 0 ? 'platform_2' : 'platform_1';
    const player = `player-${s.player.toString(36).padStart(6, '0')}`;
    const session = `s-${i.toString(36)}`;
    const country = COUNTRIES[s.player % COUNTRIES.length]!;
    const base = FIRST_DAY + s.day * DAY + s.start;
    const n = Math.min(perSession, total - made);
    for (let e = 0; e < n; e += 1) {
      const ts = new Date(base + e * 20_000).toISOString();
      const last = e === n - 1 && platform !== 'platform_1';
      const [type, payload] =
        e === 0
          ? ['session_start', { country, device: 'Pixel 7' }]
          : last
            ? ['session_end', { duration_s: (n - 1) * 20 }]
            : (() => {
                let x = r() * MIX_TOTAL;
                for (const m of MIX) {
                  x -= m[1];
                  if (x <= 0) return [m[0], m[2](r)] as const;
                }
                return ['custom', { name: 'quest_started' }] as const;
              })();
      // An experiment's players keep their variant (a real SDK asks the assignment endpoint).
      if ((payload as { name?: string }).name === 'experiment_exposure') {
        (payload as { variant?: string }).variant = s.player % 2 === 0 ? 'control' : 'grid';
      }
      id += 1;
      chunk.push({
        team_id: TEAM,
        key_id: 1,
        sdk_version: 'bench/1.0',
        received_at: ts,
        event_id: `ev-${id.toString(36)}`,
        ts,
        platform,
        game_id: GAME,
        player_id: player,
        session_id: session,
        type,
        payload: payload as Record<string, unknown>,
        country,
        batch: 0,
      });
      if (chunk.length === CHUNK) {
        yield chunk;
        chunk = [];
      }
    }
    made += n;
  }
  if (chunk.length > 0) yield chunk;
}

/** Copies the data set's events into `events` and marks their days to be rebuilt whole (the
 * rollup build then times the rebuild of 90 days; ingest queues batches to fold instead). */
export async function loadEvents(db: Db, total: number): Promise<{ events: number; loadMs: number }> {
  const partitions = new Partitions();
  const t0 = performance.now();
  let events = 0;
  for (const chunk of rows(rng(20261124), total)) {
    await partitions.ensure(
      db,
      chunk.map((c) => c.ts),
    );
    await db.transaction(async (tx) => {
      await insertEvents(tx, chunk);
      await markDaysForRebuild(
        tx,
        chunk.map((c) => ({
          team_id: c.team_id,
          platform: c.platform,
          game_id: c.game_id,
          day: c.ts.slice(0, 10),
        })),
      );
    });
    events += chunk.length;
  }
  await db.exec('ANALYZE');
  return { events, loadMs: performance.now() - t0 };
}

/** Builds the rollups of every marked day; returns the time it took. Then vacuums, untimed, as
 * autovacuum does after such a build on a live server: without the visibility map an index-only
 * scan of a rollup still reads every heap row, which no steady-state dashboard pays. */
export async function buildRollups(db: Db): Promise<number> {
  const service = new AnalyticsService({ db, clock: fixedClock(NOW), entitlements: DEFAULT_ENTITLEMENTS });
  const t1 = performance.now();
  await service.rollups.run();
  await db.exec('ANALYZE');
  const ms = performance.now() - t1;
  await db.exec('VACUUM');
  return ms;
}

async function load(db: Db, total: number): Promise<{ events: number; loadMs: number; rollupMs: number }> {
  const loaded = await loadEvents(db, total);
  return { ...loaded, rollupMs: await buildRollups(db) };
}

export const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;

export async function timed(fn: () => Promise<unknown>): Promise<number[]> {
  await fn();
  await fn();
  const ms: number[] = [];
  for (let i = 0; i < REQUESTS; i += 1) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  return ms.sort((a, b) => a - b);
}

/** The floor: a plain scan of the range's raw events (events and distinct players). */
function plainScan(db: Db, from: string, to: string) {
  return () =>
    db.query(
      `SELECT count(*), count(DISTINCT player_id) FROM events
        WHERE team_id = $1 AND game_id = $2 AND type = ANY($3::text[]) AND ts >= $4 AND ts < $5`,
      [TEAM, GAME, EVENT_TYPES, new Date(`${from}T00:00:00Z`), new Date(Date.parse(`${to}T00:00:00Z`) + DAY)],
    );
}

async function engineFigures(engine: 'PostgreSQL' | 'PGlite', db: Db, total: number): Promise<Figure[]> {
  const suite = 'analytics';
  const built = await load(db, total);
  console.log(
    `bench: analytics: ${engine}: ${built.events} events loaded in ${Math.round(built.loadMs / 1000)} s; ` +
      `rollups built in ${Math.round(built.rollupMs / 1000)} s`,
  );
  const figures: Figure[] = [
    {
      suite,
      name: `rollup rebuild on ${engine} (${(built.events / 1e6).toFixed(1)}M events, 90 days)`,
      value: Math.round(built.events / (built.rollupMs / 1000)),
      unit: 'events/s',
    },
  ];
  const service = new AnalyticsService({ db, clock: fixedClock(NOW), entitlements: DEFAULT_ENTITLEMENTS });
  const reader = { teamId: TEAM, plan: 'Enterprise' as const };
  const goal = engine === 'PostgreSQL' ? 'p95 < 500 ms' : 'p95 < 1000 ms';
  for (const days of [30, 90]) {
    const to = '2026-11-23';
    const from = new Date(Date.parse(`${to}T00:00:00Z`) - (days - 1) * DAY).toISOString().slice(0, 10);
    const floor = await timed(plainScan(db, from, to));
    for (const view of VIEWS) {
      const ms = await timed(() => service.view(view, reader, GAME, { from, to }));
      const p95 = pct(ms, 0.95);
      const f = pct(floor, 0.5);
      figures.push({
        suite,
        name: `${view.name} ${days} d on ${engine}: p50 ${pct(ms, 0.5).toFixed(0)} ms, p95`,
        value: Math.round(p95),
        unit: 'ms',
        floor: { name: 'plain scan of the raw events, p50', value: Math.round(f) },
        ratio: ratio(p95, f),
        goal,
      });
    }
  }
  figures.push(await experimentFigure(engine, db, goal, plainScan(db, FIRST_DAY_ISO, '2026-11-23')));
  return figures;
}

const FIRST_DAY_ISO = new Date(FIRST_DAY).toISOString().slice(0, 10);

/** Results of the data set's experiment (exposures in the mix, a variant per player): D7 retention
 * with conversion and revenue per player as secondary metrics, over the 90 days. */
async function experimentFigure(
  engine: 'PostgreSQL' | 'PGlite',
  db: Db,
  goal: string,
  floorFn: () => Promise<unknown>,
): Promise<Figure> {
  const { experiments } = createAnalytics({ db, clock: fixedClock(NOW), entitlements: DEFAULT_ENTITLEMENTS });
  // The data set's events name TEAM without an account; an experiment belongs to a team row.
  await db.query(`INSERT INTO teams (id, name) VALUES ($1, 'bench') ON CONFLICT (id) DO NOTHING`, [TEAM]);
  const created = await experiments.create(TEAM, {
    game_id: GAME,
    key: 'shop-layout',
    variants: [
      { key: 'control', weight: 1 },
      { key: 'grid', weight: 1 },
    ],
    primary_metric: { metric: 'd7_retention' },
    secondary_metrics: [{ metric: 'conversion' }, { metric: 'revenue_per_player' }],
    minimum_detectable_effect: 0.01,
    start_day: FIRST_DAY_ISO,
  });
  const reader = { teamId: TEAM, plan: 'Enterprise' as const };
  const ms = await timed(() => experiments.results(reader, created.id));
  const floor = await timed(floorFn);
  const f = pct(floor, 0.5);
  const p95 = pct(ms, 0.95);
  return {
    suite: 'analytics',
    name: `experiment results (D7, conversion, revenue; 90 d) on ${engine}: p50 ${pct(ms, 0.5).toFixed(0)} ms, p95`,
    value: Math.round(p95),
    unit: 'ms',
    floor: { name: 'plain scan of the raw events, p50', value: Math.round(f) },
    ratio: ratio(p95, f),
    goal,
  };
}

const UPKEEP_SEC = 60;

/** What the rollup job had not folded when the load ended (PostgreSQL: read from the database;
 * PGlite lives in the server's process). */
interface Backlog {
  parts: number;
  /** Age of the oldest queued batch, in seconds. */
  lagSec: number;
}

/** Sync ingest events/s on a fresh database of `engine`, with or without the rollup job. */
async function ingestRate(
  engine: 'PostgreSQL' | 'PGlite',
  rollups: boolean,
  options: BenchOptions,
): Promise<{ rate: number; backlog?: Backlog }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-upkeep-'));
  const fresh = engine === 'PostgreSQL' ? await freshPostgresDatabase() : undefined;
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, BENCH_ROLLUPS: rollups ? '1' : '0' };
  if (fresh) env.DATABASE_URL = fresh.url;
  else delete env.DATABASE_URL;
  delete env.NATS_URL;
  const server = await startServer('ingest-sync', env);
  try {
    const bodies = new Bodies(server.key, randomBytes(1).toString('hex'));
    await loadIngest(server.url, bodies, { ...options, durationSec: 2 });
    const run = await loadIngest(server.url, bodies, {
      ...options,
      durationSec: Math.max(UPKEEP_SEC, options.durationSec),
    });
    let backlog: Backlog | undefined;
    if (fresh && rollups) {
      const db = await openPostgres(fresh.url);
      try {
        const r = await db.query<{ parts: number; lag: number }>(
          `SELECT count(*)::int AS parts, COALESCE(extract(epoch FROM now() - min(received_at)), 0)::float8 AS lag
             FROM sdk_rollup_inbox`,
        );
        backlog = { parts: Number(r.rows[0]!.parts), lagSec: Number(r.rows[0]!.lag) };
      } finally {
        await db.close();
      }
    }
    return { rate: run.rps * BATCH, ...(backlog ? { backlog } : {}) };
  } finally {
    await server.stop();
    await fresh?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function upkeepFigure(engine: 'PostgreSQL' | 'PGlite', options: BenchOptions): Promise<Figure> {
  const without = await ingestRate(engine, false, options);
  const withJob = await ingestRate(engine, true, options);
  const lag = withJob.backlog
    ? `; at the end ${withJob.backlog.parts} batch parts not yet folded, the oldest ${withJob.backlog.lagSec.toFixed(0)} s old`
    : '';
  return {
    suite: 'analytics',
    name: `sync ingest on ${engine} with the rollup job scheduled (every 10 s, paced)${lag}`,
    value: Math.round(withJob.rate),
    unit: 'events/s',
    floor: { name: 'the same ingest without it', value: Math.round(without.rate) },
    ratio: ratio(withJob.rate, without.rate),
    goal: '≥ 0.8',
  };
}

export const analyticsSuite: Suite = {
  name: 'analytics',
  description:
    'SDK dashboards on a generated data set (10M events on PostgreSQL, 1M on PGlite): rollup build, view p50/p95 against a plain scan; ingest with rollup upkeep against ingest without',
  async run(options) {
    const figures: Figure[] = [];
    const override = process.env.ANALYTICS_EVENTS ? Number(process.env.ANALYTICS_EVENTS) : undefined;
    // ANALYTICS_ONLY=views|postgres|pglite narrows the run while working on one part.
    const only = process.env.ANALYTICS_ONLY ?? '';
    const hasPg = Boolean(process.env.DATABASE_URL);
    const pg = hasPg && only !== 'pglite' && only !== 'upkeep';
    const upkeep = only === '' || only === 'upkeep';
    if (pg) {
      const fresh = await freshPostgresDatabase();
      const db = await openPostgres(fresh.url);
      try {
        await migrate(db);
        figures.push(...(await engineFigures('PostgreSQL', db, override ?? 10_000_000)));
      } finally {
        await db.close();
        await fresh.drop();
      }
    }
    if (hasPg && upkeep) figures.push(await upkeepFigure('PostgreSQL', options));
    if (upkeep) figures.push(await upkeepFigure('PGlite', options));
    if (only === 'postgres' || only === 'upkeep') return figures;
    const dir = mkdtempSync(join(tmpdir(), 'svc-bench-analytics-'));
    const db = await openPglite(join(dir, 'pg'));
    try {
      await migrate(db);
      figures.push(
        ...(await engineFigures('PGlite', db, override ? Math.min(override, 1_000_000) : 1_000_000)),
      );
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
    return figures;
  },
};
