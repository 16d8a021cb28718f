import { loadConfig } from '../src/config.js';
import { connectDb, migrate } from '../src/db/index.js';
import { collectOnce, refreshViews } from '../src/market/index.js';
import { createSimulatedSource, DEFAULT_SHAPE } from '../src/platform/index.js';
import { freshPostgresDatabase } from '../test/helpers/db.js';
import { compare, type Figure, load, ratio, type Suite, startTarget } from './lib.js';

const GAMES = 50_000;
const quiet = { info: () => {}, warn: () => {} };

/**
 * One collection cycle for 50,000 simulated games on PostgreSQL (upsert the catalogue, a raw sample
 * each, hourly and daily rollups, genre snapshot, retention, every market view), against the floor
 * of writing the same number of sample rows with one bare INSERT … SELECT unnest in the same run.
 */
async function collectionFigures(): Promise<Figure[]> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    console.log('bench: market: DATABASE_URL is not set; skipping the PostgreSQL collection figure');
    return [];
  }
  const fresh = await freshPostgresDatabase();
  const db = await connectDb(loadConfig({ DATABASE_URL: fresh.url }));
  try {
    await migrate(db);
    const platform = createSimulatedSource({ seed: 1, shape: { ...DEFAULT_SHAPE, games: GAMES } });
    const t0 = new Date('2026-11-22T12:00:00Z');
    const deps = {
      db,
      platform,
      log: quiet,
      refreshViews: (now: Date) => refreshViews(db, now).then(() => {}),
    };
    // Warm-up: the first cycle inserts the catalogue and reads every game's passes.
    await collectOnce(deps, t0);
    const at = new Date(t0.getTime() + 5 * 60_000);
    const started = performance.now();
    const stats = await collectOnce(deps, at);
    const cycleMs = performance.now() - started;
    await db.exec('CREATE TABLE bench_floor (universe_id bigint, ts timestamptz, ccu int, visits bigint)');
    const ids = Array.from({ length: stats.stored }, (_, i) => i + 1);
    const floorStart = performance.now();
    await db.query(
      'INSERT INTO bench_floor SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::int[], $4::bigint[])',
      [ids, ids.map(() => at), ids.map((i) => i % 1000), ids.map((i) => i * 10)],
    );
    const floorMs = performance.now() - floorStart;
    return [
      {
        suite: 'market',
        name: `collection cycle, ${stats.stored} games (PostgreSQL)`,
        value: Math.round(cycleMs),
        unit: 'ms',
        floor: { name: 'bare INSERT of as many rows', value: Math.round(floorMs) },
        ratio: ratio(cycleMs, floorMs),
      },
      {
        // Per game and cycle: a catalogue upsert, a raw sample, its hourly and its daily rollup.
        suite: 'market',
        name: 'collection cycle rows written',
        value: Math.round((4 * stats.stored) / (cycleMs / 1000)),
        unit: 'rows/s',
      },
    ];
  } finally {
    await db.close();
    await fresh.drop();
  }
}

/** GET /api/trending and /api/genre-opportunities served from the stored views, against /healthz. */
async function endpointFigures(options: Parameters<Suite['run']>[0]): Promise<Figure[]> {
  const app = await startTarget('market');
  try {
    const healthz = () => load(`${app.url}/healthz`, options);
    const figures: Figure[] = [];
    for (const path of ['/api/trending', '/api/genre-opportunities']) {
      const r = await compare(healthz, () => load(`${app.url}${path}`, options));
      if (r.subject.non2xx > 0 || r.subject.errors > 0) {
        throw new Error(`${path}: ${r.subject.non2xx} non-2xx, ${r.subject.errors} errors under load`);
      }
      figures.push({
        suite: 'market',
        name: `GET ${path} requests/s`,
        value: Math.round(r.subject.rps),
        unit: 'req/s',
        floor: { name: 'GET /healthz', value: Math.round(r.floor.rps) },
        ratio: ratio(r.subject.rps, r.floor.rps),
        goal: '≥ 0.5',
      });
    }
    return figures;
  } finally {
    await app.stop();
  }
}

export const marketSuite: Suite = {
  name: 'market',
  description: `a collection cycle for ${GAMES} simulated games on PostgreSQL; trending and genre requests/s against /healthz`,
  async run(options) {
    return [...(await collectionFigures()), ...(await endpointFigures(options))];
  },
};
