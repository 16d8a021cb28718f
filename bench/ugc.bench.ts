/**
 * The UGC catalog at 50,000 simulated items on PostgreSQL (issue 20): after a 14-day backfill and
 * one timed collection (reported as it is: seconds for the cycle), the public list endpoints
 * (/api/ugc/items in each order, with a category and with a cursor, /api/ugc/trends, an item and a
 * creator) requests/s as ratios to GET /healthz measured in the same run (goal ≥ 0.5), anonymous,
 * as the public calls them.
 *
 * `tsx bench/ugc.bench.ts serve` is the server the reads load (its own process): DATABASE_URL names
 * the database; prints "READY <url>".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.js';
import { connectDb, migrate } from '../src/db/index.js';
import { startServer } from '../src/main.js';
import { createSimulatedCatalog, createSimulatedSource, DEFAULT_SHAPE } from '../src/platform/index.js';
import { backfillCatalog, collectCatalog } from '../src/ugc/index.js';
import { freshPostgresDatabase } from '../test/helpers/db.js';
import { type BenchOptions, compare, type Figure, load, ratio, type Suite, startTarget } from './lib.js';

const ITEMS = 50_000;
const BACKFILL_DAYS = 14;
const SEED = 1;
/** After the simulated catalog's last launch (epoch + 540 days): every item is live. */
const AT = new Date('2027-07-01T12:02:00Z');
const LIST_GOAL = 0.5;
const quiet = { info: () => {}, warn: () => {} };

async function firstBody(url: string): Promise<Record<string, unknown>> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

async function readFigures(databaseUrl: string, options: BenchOptions): Promise<Figure[]> {
  const server = await startTarget('serve', {
    script: 'bench/ugc.bench.ts',
    env: { DATABASE_URL: databaseUrl },
  });
  try {
    const page1 = await firstBody(`${server.url}/api/ugc/items?sort=price&limit=50`);
    const items = page1.items as { id: number; creator: { id: number } }[];
    if (items.length !== 50 || typeof page1.next_cursor !== 'string')
      throw new Error('the price list has no page 2');
    const paths = [
      '/api/ugc/items',
      '/api/ugc/items?sort=new&category=hat&limit=50',
      `/api/ugc/items?sort=price&limit=50&cursor=${page1.next_cursor}`,
      '/api/ugc/items?sort=favorites&limit=100',
      '/api/ugc/trends',
      `/api/ugc/items/${items[0]!.id}`,
      `/api/ugc/creators/${items[0]!.creator.id}`,
    ];
    for (const p of paths) await firstBody(`${server.url}${p}`);
    const healthz = () => load(`${server.url}/healthz`, options);
    const figures: Figure[] = [];
    for (const p of paths) {
      const r = await compare(healthz, () => load(`${server.url}${p}`, options));
      if (r.subject.non2xx > 0 || r.subject.errors > 0) {
        throw new Error(`${p}: ${r.subject.non2xx} non-2xx, ${r.subject.errors} errors under load`);
      }
      const value = ratio(r.subject.rps, r.floor.rps);
      figures.push({
        suite: 'ugc',
        name: `GET ${p.split('?')[0]!.replace(/\/\d+$/, '/{id}')}${p.includes('?') ? `?${p.split('?')[1]!.replace(/cursor=[^&]+/, 'cursor=…')}` : ''} requests/s, ${ITEMS.toLocaleString('en')} items`,
        value: Math.round(r.subject.rps),
        unit: 'req/s',
        floor: { name: 'GET /healthz', value: Math.round(r.floor.rps) },
        ratio: value,
        goal: `≥ ${LIST_GOAL}: ${value >= LIST_GOAL ? 'pass' : 'fail'}`,
      });
    }
    return figures;
  } finally {
    await server.stop();
  }
}

async function run(options: BenchOptions): Promise<Figure[]> {
  if (!process.env.DATABASE_URL) {
    console.log('bench: ugc: DATABASE_URL is not set; the UGC bench runs on PostgreSQL only, skipping');
    return [];
  }
  const fresh = await freshPostgresDatabase();
  const db = await connectDb(loadConfig({ DATABASE_URL: fresh.url }));
  try {
    await migrate(db);
    const source = createSimulatedCatalog({
      seed: SEED,
      shape: { items: ITEMS, epoch: Date.UTC(2026, 0, 1) },
    });
    await backfillCatalog({ db, source, log: quiet }, BACKFILL_DAYS, AT);
    await db.exec('VACUUM (ANALYZE) ugc_items, ugc_samples, ugc_daily');
    const started = performance.now();
    const stats = await collectCatalog({ db, source, log: quiet }, new Date(AT.getTime() + 15 * 60_000));
    const cycleMs = performance.now() - started;
    await db.exec('VACUUM (ANALYZE) ugc_items, ugc_samples, ugc_daily');
    return [
      {
        suite: 'ugc',
        name: `a catalog collection of ${stats.stored.toLocaleString('en')} items (15-minute interval, 10-minute budget)`,
        value: Math.round(cycleMs / 10) / 100,
        unit: 's',
      },
      ...(await readFigures(fresh.url, options)),
    ];
  } finally {
    await db.close();
    await fresh.drop();
  }
}

export const ugcSuite: Suite = {
  name: 'ugc',
  description: `the UGC catalog at ${ITEMS.toLocaleString('en')} simulated items on PostgreSQL: a collection cycle; the public item lists, trends, an item and a creator requests/s against /healthz`,
  run,
};

/** The read server: the real svc server over the bench database, no background jobs, no rate limit. */
async function serve(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: process.env.DATABASE_URL,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    JWT_SECRET: 'bench-secret-0123456789abcdef0123456789',
    ENTITLEMENTS: JSON.stringify({ anonymousRatePerMin: 1e9, authRatePerMin: 1e9 }),
  });
  const server = await startServer(config, {
    jobs: [],
    platform: createSimulatedSource({ seed: SEED, shape: { ...DEFAULT_SHAPE, games: 10 } }),
  });
  process.stdout.write(`READY ${server.url}\n`);
  process.on('SIGTERM', async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
}

if (process.argv[2] === 'serve' && process.argv[1] === fileURLToPath(import.meta.url)) await serve();
