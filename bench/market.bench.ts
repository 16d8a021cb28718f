/**
 * The market at 50,000 games on PostgreSQL (issue 19):
 * - a collection cycle (catalogue upsert, a raw sample each, hourly and daily rollups, 500 pass
 *   lists, genre snapshot, retention, the market views), on a database that already holds the
 *   35 days of history a fresh install backfills, against the floor of writing the same rows with
 *   bare INSERTs into tables without keys or indexes; goal ≤ 60 s. Twice: a 5-minute cycle with
 *   the views due every cycle, and one recomputing every view (what a cycle does at most);
 * - GET /api/trending, /api/genre-opportunities (goal ≥ 0.5 of /healthz) and /api/game/{id} (place
 *   ids spread over the whole catalogue) on a server over that same database, against GET /healthz
 *   in the same run;
 * - the update-impact lists (issue 20): /api/update-impact/recent and /timing (goal ≥ 0.5 of
 *   /healthz) over the updates the backfill saw and measured, and /api/update-impact/{place_id};
 * - the intelligence feed's production after a collection (issue 20);
 * - the keyword lists (issue 20): the extraction and the daily lists timed once after the
 *   backfill, the check the collector's hook makes each cycle, /api/keywords/trending (goal ≥ 0.5
 *   of /healthz), one keyword's page and a draft title's score;
 * - the clone pairs (issue 20): detection over the whole catalogue timed once after the backfill,
 *   and /api/intelligence/clones/recent (goal ≥ 0.5 of /healthz).
 * - success patterns (issue 20): /api/intelligence/success-patterns over 7 days, market-wide and
 *   for one genre (goal ≥ 0.5 of /healthz; the answer is kept an hour, so this is the kept read).
 * All of it runs at a fixed logical moment after the simulated market's last launch, so every one
 * of the 50,000 catalogue games is live and a run reproduces the previous one's data.
 *
 * `tsx bench/market.bench.ts serve` is the server the reads load (its own process, so the load
 * generator does not share its CPU time): DATABASE_URL names the database, MARKET_BENCH_AT the
 * logical moment its clock starts at; prints "READY <url> <read API key>".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { fixedClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { connectDb, type Db, migrate } from '../src/db/index.js';
import { createIntelligence } from '../src/intelligence/index.js';
import { createKeywords } from '../src/keywords/index.js';
import { startServer } from '../src/main.js';
import { BACKFILL_DAYS, backfill, catalogueUpsert, collectOnce, refreshViews } from '../src/market/index.js';
import { DEFAULT_ENTITLEMENTS } from '../src/plans.js';
import { createSimulatedSource, DEFAULT_SHAPE, type SimulatedSource } from '../src/platform/index.js';
import { createUpdates } from '../src/updates/index.js';
import { freshPostgresDatabase } from '../test/helpers/db.js';
import {
  BENCH_USER,
  type BenchOptions,
  compare,
  type Figure,
  type LoadResult,
  load,
  ratio,
  type Suite,
  startTarget,
} from './lib.js';

const GAMES = 50_000;
const SEED = 1;
/** Two weeks after the simulated market's last launch (epoch + 2 years): every game is live. */
const AT = new Date('2028-01-15T12:02:00Z');
const MIN_MS = 60_000;
const CYCLE_GOAL_S = 60;
const LIST_GOAL = 0.5;
const quiet = { info: () => {}, warn: () => {} };

const market = (): SimulatedSource =>
  createSimulatedSource({ seed: SEED, shape: { ...DEFAULT_SHAPE, games: GAMES } });
const seconds = (ms: number) => Math.round(ms / 10) / 100;
const verdict = (goal: string, pass: boolean) => `${goal}: ${pass ? 'pass' : 'fail'}`;

/** The update-impact service the collection hands updates to (measured as the server would). */
const updatesOf = (db: Db, at: Date) =>
  createUpdates({ db, clock: fixedClock(at), entitlements: DEFAULT_ENTITLEMENTS });

/** Writes BACKFILL_DAYS of history for every game up to `at` (views computed at its end), and
 * measures every update it saw that can be measured. */
async function seed(db: Db, platform: SimulatedSource, at: Date): Promise<void> {
  const started = performance.now();
  const updates = updatesOf(db, at);
  const stats = await backfill(
    {
      db,
      platform,
      log: quiet,
      refreshViews: (now) => refreshViews(db, now).then(() => {}),
      recordUpdates: updates.record,
    },
    BACKFILL_DAYS,
    at,
  );
  if (stats.games !== GAMES)
    throw new Error(`market bench: ${stats.games} games live at ${at.toISOString()}, not ${GAMES}`);
  const rows = stats.dailyRows + stats.hourlyRows + stats.sampleRows;
  console.log(
    `bench: market: backfilled ${BACKFILL_DAYS} days for ${GAMES.toLocaleString('en')} games (${rows.toLocaleString('en')} rollup and sample rows) in ${seconds(performance.now() - started)} s`,
  );
  const measuring = performance.now();
  const measured = await updates.measureDue(at);
  console.log(
    `bench: market: ${stats.updates.toLocaleString('en')} updates seen, ${measured.measured.toLocaleString('en')} measured (${measured.other.toLocaleString('en')} could not be) in ${seconds(performance.now() - measuring)} s`,
  );
  const extracting = performance.now();
  const keywords = await keywordsOf(db, at).refresh(at);
  const lists = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM keyword_trends');
  console.log(
    `bench: market: keywords of ${keywords.extracted.toLocaleString('en')} games extracted and ${lists.rows[0]!.n.toLocaleString('en')} keyword list rows computed (through ${keywords.listsThrough}) in ${seconds(performance.now() - extracting)} s`,
  );
  // What the detect-clones job does on a catalogue that never had its clones looked for.
  const detecting = performance.now();
  const clones = await createIntelligence({
    db,
    clock: fixedClock(at),
    entitlements: DEFAULT_ENTITLEMENTS,
    updates,
  }).clones.detect(at);
  console.log(
    `bench: market: clone pairs of ${clones.checked.toLocaleString('en')} games detected (${clones.detected.toLocaleString('en')} pairs) in ${seconds(performance.now() - detecting)} s`,
  );
}

/** The keyword service as the server runs it. */
const keywordsOf = (db: Db, at: Date) =>
  createKeywords({ db, clock: fixedClock(at), entitlements: DEFAULT_ENTITLEMENTS });

/** What the collector's hook adds to each cycle for the intelligence feed: launches, CCU records, rank entries. */
async function timedFeedProduction(db: Db, at: Date): Promise<Figure> {
  const intelligence = createIntelligence({
    db,
    clock: fixedClock(at),
    entitlements: DEFAULT_ENTITLEMENTS,
    updates: updatesOf(db, at),
  });
  await intelligence.feed.produce(new Date(at.getTime() - 5 * MIN_MS)); // the first run seeds records and ranks
  const started = performance.now();
  const made = await intelligence.feed.produce(at);
  const ms = performance.now() - started;
  return {
    suite: 'market',
    name: `feed production after a collection (${made.launches} launches, ${made.records} records, ${made.entries} rank entries), ${GAMES.toLocaleString('en')} games`,
    value: Math.round(ms),
    unit: 'ms',
  };
}

/** What the collector's hook adds to each cycle when no text changed and no day was rolled up: the keyword check. */
async function timedKeywordCheck(db: Db, at: Date): Promise<Figure> {
  const started = performance.now();
  const done = await keywordsOf(db, at).refresh(at);
  const ms = performance.now() - started;
  return {
    suite: 'market',
    name: `keyword refresh after a collection (${done.extracted} games' text changed), ${GAMES.toLocaleString('en')} games`,
    value: Math.round(ms),
    unit: 'ms',
  };
}

/** One timed collection cycle at `at`; `everyView` recomputes all the views, due or not. */
async function timedCycle(db: Db, platform: SimulatedSource, at: Date, everyView: boolean): Promise<number> {
  const deps = {
    db,
    platform,
    log: quiet,
    refreshViews: (now: Date) => refreshViews(db, now, { force: everyView }).then(() => {}),
    recordUpdates: updatesOf(db, at).record,
  };
  const started = performance.now();
  const stats = await collectOnce(deps, at);
  const ms = performance.now() - started;
  if (stats.stored !== GAMES)
    throw new Error(`market bench: the cycle stored ${stats.stored} games, not ${GAMES}`);
  return ms;
}

/**
 * The floor: the rows a cycle writes (a catalogue row with every column, a raw sample, an hourly
 * and a daily rollup per game) as four bare INSERT … SELECT unnest into tables without keys,
 * indexes or conflict handling, in one transaction; the best of two, each into empty tables.
 */
async function writeFloor(db: Db, platform: SimulatedSource, at: Date): Promise<number> {
  const readings = [...(await platform.getGames(await platform.discover(at), at)).items.values()];
  const votes = (
    await platform.getVotes(
      readings.map((g) => g.universeId),
      at,
    )
  ).items;
  const games = readings.map((g) => catalogueUpsert(g, votes.get(g.universeId)));
  const col = <K extends keyof (typeof games)[number]>(k: K) => games.map((r) => r[k]);
  const ids = col('universeId');
  const ccu = col('ccu');
  const visits = col('visits');
  const hour = new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);
  const day = at.toISOString().slice(0, 10);
  await db.exec(`CREATE TABLE floor_games (LIKE games); CREATE TABLE floor_samples (LIKE ccu_samples);
                 CREATE TABLE floor_hourly (LIKE ccu_hourly); CREATE TABLE floor_daily (LIKE ccu_daily)`);
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 2; round++) {
    await db.exec('TRUNCATE floor_games, floor_samples, floor_hourly, floor_daily');
    const started = performance.now();
    await db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO floor_games (universe_id, place_id, name, description, creator_id, creator_name, creator_type, genre,
                                  max_players, created_at, updated_at, ccu, visits, favorites, up_votes, down_votes,
                                  search_text, observed_at, first_seen_at)
         SELECT u.*, $18::timestamptz, $18::timestamptz
           FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[], $8::text[],
                       $9::int[], $10::timestamptz[], $11::timestamptz[], $12::int[], $13::bigint[], $14::bigint[],
                       $15::bigint[], $16::bigint[], $17::text[]) AS u`,
        [
          ids,
          col('placeId'),
          col('name'),
          col('description'),
          col('creatorId'),
          col('creatorName'),
          col('creatorType'),
          col('genre'),
          col('maxPlayers'),
          col('createdAt'),
          col('updatedAt'),
          ccu,
          visits,
          col('favorites'),
          col('upVotes'),
          col('downVotes'),
          col('searchText'),
          at,
        ],
      );
      await tx.query(
        'INSERT INTO floor_samples SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::int[], $4::bigint[])',
        [ids, ids.map(() => at), ccu, visits],
      );
      for (const [table, stamp, type] of [
        ['floor_hourly', hour, 'timestamptz'],
        ['floor_daily', day, 'date'],
      ] as const) {
        await tx.query(
          `INSERT INTO ${table} SELECT * FROM unnest($1::bigint[], $2::${type}[], $3::real[], $4::int[], $5::int[], $6::bigint[])`,
          [ids, ids.map(() => stamp), ccu, ccu, ids.map(() => 1), visits],
        );
      }
    });
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

function cycleFigure(label: string, ms: number, floorMs: number): Figure {
  const s = seconds(ms);
  return {
    suite: 'market',
    name: `collection cycle, ${GAMES.toLocaleString('en')} games with ${BACKFILL_DAYS} days of history, ${label} (PostgreSQL)`,
    value: s,
    unit: 's',
    floor: { name: 'bare INSERTs of the same rows', value: seconds(floorMs) },
    ratio: ratio(ms, floorMs),
    goal: verdict(`≤ ${CYCLE_GOAL_S} s`, s <= CYCLE_GOAL_S),
  };
}

interface MarketServer {
  url: string;
  key: string;
  /** A Studio user's access token (what the web app and the CLI send). */
  token: string;
  stop(): Promise<void>;
}

/** Starts `tsx bench/market.bench.ts serve` over `databaseUrl` and waits for its READY line. */
async function startMarketServer(databaseUrl: string, at: Date): Promise<MarketServer> {
  const target = await startTarget('serve', {
    script: fileURLToPath(import.meta.url),
    env: { DATABASE_URL: databaseUrl, MARKET_BENCH_AT: at.toISOString() },
  });
  if (!target.key || !target.token) {
    await target.stop();
    throw new Error('the market bench server printed no API key or access token');
  }
  return { url: target.url, key: target.key, token: target.token, stop: target.stop };
}

/** Loads GETs of `paths`, each request the next path of the list (round robin over all connections). */
async function loadPaths(
  base: string,
  paths: readonly string[],
  options: BenchOptions,
  headers: Record<string, string>,
): Promise<LoadResult> {
  let next = 0;
  const result = await autocannon({
    url: base,
    connections: options.connections,
    duration: options.durationSec,
    headers,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => {
          request.path = paths[next++ % paths.length]!;
          return request;
        },
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** Fetches one path and checks what a user would: status 200 and `check` on the body. */
async function expectBody(
  url: string,
  headers: Record<string, string>,
  check: (body: unknown) => string | undefined,
) {
  const res = await fetch(url, { headers });
  const body: unknown = await res.json();
  const problem = res.status !== 200 ? `status ${res.status}` : check(body);
  if (problem) throw new Error(`market bench: ${url}: ${problem}`);
}

/** A spread of place ids: every `GAMES / count`-th catalogue game, in an order that hops around. */
function spreadPlaceIds(platform: SimulatedSource, count: number): number[] {
  const step = Math.floor(platform.catalogue.length / count);
  const picked = platform.catalogue.filter((_, i) => i % step === 0).map((g) => g.placeId);
  // A stride coprime with the length visits every id once, far from the one before.
  const stride = 7919;
  return picked.map((_, i) => picked[(i * stride) % picked.length]!);
}

/** What the load reads must be the 50,000-game market: checked once (which also warms the caches). */
async function checkMarket(server: MarketServer, place: number): Promise<void> {
  await expectBody(`${server.url}/api/trending`, {}, (b) => {
    const total = (b as { total?: number }).total;
    return total === GAMES ? undefined : `total ${total}, not ${GAMES}`;
  });
  await expectBody(`${server.url}/api/genre-opportunities`, {}, (b) => {
    const games = (b as { total_games: number }[]).reduce((n, g) => n + g.total_games, 0);
    return games === GAMES ? undefined : `the genres hold ${games} games, not ${GAMES}`;
  });
  await expectBody(`${server.url}/api/game/${place}`, { 'x-api-key': server.key }, (b) => {
    const history = (b as { ccu_history?: unknown[] }).ccu_history?.length ?? 0;
    return history === 24 ? undefined : `${history} hourly points, not 24`;
  });
  const signedIn = { authorization: `Bearer ${server.token}` };
  await expectBody(`${server.url}/api/update-impact/recent`, signedIn, (b) => {
    const items = (b as { items: unknown[] }).items.length;
    return items === 20 ? undefined : `${items} ranked updates, not a page of 20`;
  });
  await expectBody(`${server.url}/api/update-impact/timing`, signedIn, (b) => {
    const updates = (b as { updates: number }).updates;
    return updates > 1000 ? undefined : `timing over ${updates} updates`;
  });
  await expectBody(`${server.url}/api/keywords/trending`, signedIn, (b) => {
    const total = (b as { total: number }).total;
    return total > 500 ? undefined : `${total} trending keywords`;
  });
  await expectBody(`${server.url}/api/intelligence/clones/recent`, signedIn, (b) => {
    const pairs = (b as { pairs: unknown[] }).pairs.length;
    return pairs === 20 ? undefined : `${pairs} clone pairs, not a page of 20`;
  });
  await expectBody(`${server.url}/api/keywords/tycoon`, signedIn, (b) => {
    const games = (b as { games_total: number }).games_total;
    return games > 1000 ? undefined : `"tycoon" on ${games} games`;
  });
  // 7 days: the 35 backfilled days hold two 7-day windows (not two 30-day ones).
  await expectBody(`${server.url}/api/intelligence/success-patterns?period=7d`, signedIn, (b) => {
    const { eligible_games, features } = b as { eligible_games: number; features: unknown[] };
    return eligible_games > 1000 && features.length >= 10
      ? undefined
      : `success patterns over ${eligible_games} eligible games with ${features.length} features`;
  });
  await expectBody(
    `${server.url}/api/intelligence/success-patterns?genre=simulation&period=7d`,
    signedIn,
    (b) => {
      const genre = (b as { genre: string | null }).genre;
      return genre === 'simulation' ? undefined : `success patterns of genre ${genre}`;
    },
  );
}

async function readFigures(
  databaseUrl: string,
  platform: SimulatedSource,
  at: Date,
  options: BenchOptions,
): Promise<Figure[]> {
  const server = await startMarketServer(databaseUrl, at);
  try {
    const keyed = { 'x-api-key': server.key };
    const signedIn = { authorization: `Bearer ${server.token}` };
    const places = spreadPlaceIds(platform, 5000);
    await checkMarket(server, places[0]!);
    const healthz = () => load(`${server.url}/healthz`, options);
    const subjects: { name: string; goal?: number; run: () => Promise<LoadResult> }[] = [
      { name: 'GET /api/trending', goal: LIST_GOAL, run: () => load(`${server.url}/api/trending`, options) },
      {
        name: 'GET /api/genre-opportunities',
        goal: LIST_GOAL,
        run: () => load(`${server.url}/api/genre-opportunities`, options),
      },
      // The lists as the web app and the CLI read them (a bearer token: no database read to
      // authenticate); a read API key costs a key lookup per request, as game detail shows.
      {
        name: 'GET /api/update-impact/recent (signed-in user)',
        goal: LIST_GOAL,
        run: () => load(`${server.url}/api/update-impact/recent`, options, { headers: signedIn }),
      },
      {
        name: 'GET /api/update-impact/timing (signed-in user)',
        goal: LIST_GOAL,
        run: () => load(`${server.url}/api/update-impact/timing`, options, { headers: signedIn }),
      },
      {
        name: 'GET /api/keywords/trending (signed-in user)',
        goal: LIST_GOAL,
        run: () => load(`${server.url}/api/keywords/trending`, options, { headers: signedIn }),
      },
      {
        name: 'GET /api/keywords/trending?sort=growth&genre=simulation&period=30d (signed-in user)',
        goal: LIST_GOAL,
        run: () =>
          load(`${server.url}/api/keywords/trending?sort=growth&genre=simulation&period=30d`, options, {
            headers: signedIn,
          }),
      },
      // Computed once per (genre, period) and kept an hour: the load reads the kept answer.
      {
        name: 'GET /api/intelligence/success-patterns?period=7d (signed-in user)',
        goal: LIST_GOAL,
        run: () =>
          load(`${server.url}/api/intelligence/success-patterns?period=7d`, options, { headers: signedIn }),
      },
      {
        name: 'GET /api/intelligence/success-patterns?genre=simulation&period=7d (signed-in user)',
        goal: LIST_GOAL,
        run: () =>
          load(`${server.url}/api/intelligence/success-patterns?genre=simulation&period=7d`, options, {
            headers: signedIn,
          }),
      },
      {
        name: 'GET /api/intelligence/clones/recent (signed-in user)',
        goal: LIST_GOAL,
        run: () => load(`${server.url}/api/intelligence/clones/recent`, options, { headers: signedIn }),
      },
      {
        name: 'GET /api/keywords/tycoon (signed-in user)',
        run: () => load(`${server.url}/api/keywords/tycoon`, options, { headers: signedIn }),
      },
      {
        name: 'GET /api/keywords/score-title (signed-in user)',
        run: () =>
          load(
            `${server.url}/api/keywords/score-title?title=Lucky%20Pet%20Tycoon&genre=simulation`,
            options,
            {
              headers: signedIn,
            },
          ),
      },
      {
        name: 'GET /api/update-impact/recent (read API key)',
        run: () => load(`${server.url}/api/update-impact/recent`, options, { headers: keyed }),
      },
      {
        name: `GET /api/update-impact/{place_id} (${places.length} ids, read API key)`,
        run: () =>
          loadPaths(
            server.url,
            places.map((id) => `/api/update-impact/${id}`),
            options,
            keyed,
          ),
      },
      {
        name: `GET /api/game/{id} (${places.length} ids across the catalogue, read API key)`,
        run: () =>
          loadPaths(
            server.url,
            places.map((id) => `/api/game/${id}`),
            options,
            keyed,
          ),
      },
    ];
    const figures: Figure[] = [];
    for (const s of subjects) {
      const r = await compare(healthz, s.run);
      if (r.subject.non2xx > 0 || r.subject.errors > 0) {
        throw new Error(`${s.name}: ${r.subject.non2xx} non-2xx, ${r.subject.errors} errors under load`);
      }
      const value = ratio(r.subject.rps, r.floor.rps);
      figures.push({
        suite: 'market',
        name: `${s.name} requests/s, ${GAMES.toLocaleString('en')} games`,
        value: Math.round(r.subject.rps),
        unit: 'req/s',
        floor: { name: 'GET /healthz', value: Math.round(r.floor.rps) },
        ratio: value,
        ...(s.goal === undefined ? {} : { goal: verdict(`≥ ${s.goal}`, value >= s.goal) }),
      });
    }
    return figures;
  } finally {
    await server.stop();
  }
}

/**
 * VACUUM and ANALYZE of the market tables: the state autovacuum reaches a while after a bulk write,
 * so that no measured figure shares the machine with a one-off vacuum of millions of new rows.
 */
async function settle(db: Db): Promise<void> {
  await db.exec(
    'VACUUM (ANALYZE) games, game_passes, ccu_samples, ccu_hourly, ccu_daily, genre_snapshots, market_views, game_updates, game_keywords, game_keyword_sources, keyword_trends, clone_pairs, clone_checks',
  );
}

async function run(options: BenchOptions): Promise<Figure[]> {
  if (!process.env.DATABASE_URL) {
    console.log('bench: market: DATABASE_URL is not set; the market bench runs on PostgreSQL only, skipping');
    return [];
  }
  const fresh = await freshPostgresDatabase();
  const db = await connectDb(loadConfig({ DATABASE_URL: fresh.url }));
  try {
    await migrate(db);
    const platform = market();
    await seed(db, platform, AT);
    await settle(db);
    const everyFiveMinutes = await timedCycle(db, platform, new Date(AT.getTime() + 5 * MIN_MS), false);
    const last = new Date(AT.getTime() + 10 * MIN_MS);
    const everyView = await timedCycle(db, platform, last, true);
    const floorMs = await writeFloor(db, platform, last);
    await db.exec('DROP TABLE floor_games, floor_samples, floor_hourly, floor_daily');
    await settle(db);
    return [
      cycleFigure('the views due every 5 minutes', everyFiveMinutes, floorMs),
      cycleFigure('every view recomputed', everyView, floorMs),
      await timedKeywordCheck(db, last),
      await timedFeedProduction(db, last),
      ...(await readFigures(fresh.url, platform, new Date(last.getTime() + MIN_MS), options)),
    ];
  } finally {
    await db.close();
    await fresh.drop();
  }
}

export const marketSuite: Suite = {
  name: 'market',
  description: `the market at ${GAMES.toLocaleString('en')} simulated games on PostgreSQL: a collection cycle against bare inserts of its rows; trending, genre opportunities, game detail, the update-impact and keyword lists requests/s against /healthz`,
  run,
};

/** The read server: the real svc server over the bench database, its clock at MARKET_BENCH_AT. */
async function serve(): Promise<void> {
  const at = new Date(process.env.MARKET_BENCH_AT ?? '');
  if (Number.isNaN(at.getTime())) throw new Error('MARKET_BENCH_AT must be an ISO date');
  const started = Date.now();
  // Limits far above what the load generator can send: the benchmark measures work, not 429s.
  const unlimited = Object.fromEntries(
    ['Explorer', 'Builder', 'Studio', 'Enterprise'].map((p) => [p, { readRatePerMin: 1e9 }]),
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: process.env.DATABASE_URL,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    JWT_SECRET: 'bench-secret-0123456789abcdef0123456789',
    ENTITLEMENTS: JSON.stringify({ anonymousRatePerMin: 1e9, authRatePerMin: 1e9, plans: unlimited }),
  });
  // No background jobs: the collector would compete with the load for the CPU.
  const server = await startServer(config, {
    jobs: [],
    platform: market(),
    clock: { now: () => new Date(at.getTime() + Date.now() - started) },
  });
  const { accounts, apiKeys } = server.services.accounts;
  const user = await accounts.createUser({ ...BENCH_USER, plan: 'Studio' });
  const team = await server.db.query<{ team_id: number }>('SELECT team_id FROM users WHERE id = $1', [
    user.id,
  ]);
  const key = await apiKeys.create({ userId: user.id, teamId: team.rows[0]!.team_id }, 'bench', ['read']);
  const session = await accounts.login(BENCH_USER.email, BENCH_USER.password, '127.0.0.1');
  process.stdout.write(`READY ${server.url} ${key.key} ${session.accessToken}\n`);
  process.on('SIGTERM', async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
}

if (process.argv[2] === 'serve' && process.argv[1] === fileURLToPath(import.meta.url)) await serve();
