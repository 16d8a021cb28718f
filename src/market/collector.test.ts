import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedDb, type TestDb, testEngines } from '../../test/helpers/db.js';
import { testMarket, withFailures } from '../../test/helpers/market.js';
import { backfill } from './backfill.js';
import { collectOnce } from './collector.js';
import { collectorDeps, scheduledCollection, VIEW_NAMES } from './index.js';

const log = { info() {}, warn() {} };
const NOW = new Date('2026-11-22T15:37:00Z');
const MIN = 60_000;

describe.each(testEngines())('collector on %s', (engine) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await migratedDb(engine);
  });
  afterAll(async () => {
    await t.dispose();
  });

  const count = async (sql: string, params: unknown[] = []) =>
    (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params)).rows[0]!.n;

  it('stores the catalogue, one sample per game, rollups, passes and a genre snapshot', async () => {
    const market = testMarket();
    const live = (await market.discover(NOW)).length;
    const stats = await collectOnce({ db: t.db, platform: market, log }, NOW);
    expect(stats).toEqual({
      requested: live,
      stored: live,
      failed: 0,
      passesRefreshed: live,
      genreSnapshot: true,
    });
    expect(await count('games')).toBe(live);
    expect(await count('ccu_samples WHERE ts = $1', [NOW])).toBe(live);
    expect(await count('ccu_hourly WHERE hour = $1', [new Date('2026-11-22T15:00:00Z')])).toBe(live);
    expect(await count("ccu_daily WHERE day = '2026-11-22'")).toBe(live);
    const top = market.catalogue.find(
      (g) => g.universeId === (market.gameAt(g.universeId, NOW) ? g.universeId : -1),
    )!;
    const expected = market.gameAt(top.universeId, NOW)!;
    const row = (
      await t.db.query<Record<string, unknown>>(
        'SELECT place_id, name, genre, ccu, visits, favorites, creator_name, search_text, gamepass_count FROM games WHERE universe_id = $1',
        [top.universeId],
      )
    ).rows[0];
    expect(row).toEqual({
      place_id: expected.rootPlaceId,
      name: expected.name,
      genre: expected.genre,
      ccu: expected.playing,
      visits: expected.visits,
      favorites: expected.favorites,
      creator_name: expected.creator.name,
      search_text: expect.any(String),
      gamepass_count: top.passes.length,
    });
    const genres = await t.db.query<{ total: number }>(
      'SELECT sum(total_games)::int AS total FROM genre_snapshots WHERE ts = $1',
      [new Date('2026-11-22T12:00:00Z')],
    );
    expect(genres.rows[0]!.total).toBe(live);
  });

  it('adds a sample every run, updates the hour, and snapshots genres once per 6 hours', async () => {
    const market = testMarket();
    const later = new Date(NOW.getTime() + 5 * MIN);
    const stats = await collectOnce({ db: t.db, platform: market, log }, later);
    expect(stats.genreSnapshot).toBe(false);
    expect(stats.passesRefreshed).toBe(0); // read less than a day ago
    const id = (await market.discover(NOW))[0]!;
    const hour = await t.db.query<{ ccu_avg: number; samples: number; ccu_max: number }>(
      'SELECT ccu_avg, samples, ccu_max FROM ccu_hourly WHERE universe_id = $1 AND hour = $2',
      [id, new Date('2026-11-22T15:00:00Z')],
    );
    const a = market.gameAt(id, NOW)!.playing;
    const b = market.gameAt(id, later)!.playing;
    expect(hour.rows[0]!.samples).toBe(2);
    expect(hour.rows[0]!.ccu_max).toBe(Math.max(a, b));
    expect(hour.rows[0]!.ccu_avg).toBeCloseTo((a + b) / 2, 1);
  });

  it('leaves a gap, not a zero, for a game the platform could not read', async () => {
    const market = testMarket();
    const ids = await market.discover(NOW);
    const flaky = new Set(ids.slice(0, 3));
    const at = new Date(NOW.getTime() + 10 * MIN);
    const before = await t.db.query<{ universe_id: number; ccu: number }>(
      'SELECT universe_id, ccu FROM games WHERE universe_id = ANY($1::bigint[]) ORDER BY universe_id',
      [[...flaky]],
    );
    const stats = await collectOnce({ db: t.db, platform: withFailures(market, flaky), log }, at);
    expect(stats.failed).toBe(3);
    expect(
      await count('ccu_samples WHERE ts = $1 AND universe_id = ANY($2::bigint[])', [at, [...flaky]]),
    ).toBe(0);
    expect(await count('ccu_samples WHERE ts = $1', [at])).toBe(ids.length - 3);
    const after = await t.db.query(
      'SELECT universe_id, ccu FROM games WHERE universe_id = ANY($1::bigint[]) ORDER BY universe_id',
      [[...flaky]],
    );
    expect(after.rows).toEqual(before.rows);
  });

  it('drops raw samples after 48 hours and hourly rollups after 90 days, keeping daily ones', async () => {
    const market = testMarket();
    const far = new Date(NOW.getTime() + 91 * 24 * 60 * MIN);
    await collectOnce({ db: t.db, platform: market, log }, far);
    expect(await count('ccu_samples WHERE ts < $1', [new Date(far.getTime() - 48 * 60 * MIN)])).toBe(0);
    expect(await count('ccu_hourly WHERE hour < $1', [new Date(far.getTime() - 90 * 24 * 60 * MIN)])).toBe(0);
    expect(await count("ccu_daily WHERE day = '2026-11-22'")).toBeGreaterThan(0);
  });
});

describe.each(testEngines())('backfill on %s', (engine) => {
  it('writes 35 days of daily, hourly and raw history and the genre snapshots', async () => {
    const t = await migratedDb(engine);
    try {
      const market = testMarket();
      const live = (await market.discover(NOW)).length;
      const stats = await backfill({ db: t.db, platform: market, log }, 35, NOW);
      expect(stats).toMatchObject({ days: 35, games: live, sampleRows: 144 * live, snapshots: 35 * 4 + 3 }); // every 6 h since 2026-10-18, up to 12:00 today
      const days = await t.db.query<{ n: number }>('SELECT count(DISTINCT day)::int AS n FROM ccu_daily');
      expect(days.rows[0]!.n).toBe(36); // 35 past days and today
      const hours = await t.db.query<{ first: Date; n: number }>(
        'SELECT min(hour) AS first, count(DISTINCT hour)::int AS n FROM ccu_hourly',
      );
      // 7 days at every 4th hour, then every hour of the last 8 days and today up to 15:00.
      expect(hours.rows[0]).toEqual({ first: new Date('2026-11-07T00:00:00Z'), n: 7 * 6 + 8 * 24 + 16 });
      // Visits only grow.
      const id = (await market.discover(NOW))[0]!;
      const visits = await t.db.query<{ visits: number }>(
        'SELECT visits FROM ccu_daily WHERE universe_id = $1 ORDER BY day',
        [id],
      );
      const v = visits.rows.map((r) => r.visits);
      expect(v).toEqual([...v].sort((a, b) => a - b));
    } finally {
      await t.dispose();
    }
  });

  it('starts again after a backfill stopped half-way, and collects once one completed', async () => {
    const t = await migratedDb('pglite');
    try {
      const market = testMarket();
      const deps = { db: t.db, platform: market, log };
      const stop = new AbortController();
      let reads = 0;
      const stopping = {
        ...market,
        getGames: async (ids: readonly number[], at: Date) => {
          if (++reads === 20) stop.abort();
          return market.getGames(ids, at);
        },
      };
      await expect(scheduledCollection({ ...deps, platform: stopping }, NOW, stop.signal)).rejects.toThrow();
      const runs = () => t.db.query('SELECT days, completed_at FROM market_backfills ORDER BY id');
      expect((await runs()).rows).toEqual([{ days: 35, completed_at: null }]);
      await scheduledCollection(deps, NOW);
      expect((await runs()).rows).toEqual([
        { days: 35, completed_at: null },
        { days: 35, completed_at: NOW },
      ]);
      const later = new Date(NOW.getTime() + 5 * MIN);
      await scheduledCollection(deps, later);
      expect((await runs()).rows).toHaveLength(2);
      const samples = await t.db.query('SELECT 1 FROM ccu_samples WHERE ts = $1', [later]);
      expect(samples.rowCount).toBe((await market.discover(later)).length);
    } finally {
      await t.dispose();
    }
  });

  it('runs the after-collection hook (alerts) once the views are stored', async () => {
    const t = await migratedDb('pglite');
    try {
      const seen: [Date, number][] = [];
      const deps = collectorDeps(t.db, testMarket(), log, async (now) => {
        const views = await t.db.query('SELECT 1 FROM market_views WHERE computed_at = $1', [now]);
        seen.push([now, views.rowCount]);
      });
      await collectOnce(deps, NOW);
      expect(seen).toEqual([[NOW, VIEW_NAMES.length]]);
    } finally {
      await t.dispose();
    }
  });

  it('refuses a source that cannot replay the past', async () => {
    const t = await migratedDb('pglite');
    try {
      const live = { ...testMarket(), name: 'roblox' as const, replaysPast: false };
      await expect(backfill({ db: t.db, platform: live, log }, 35, NOW)).rejects.toMatchObject({
        status: 422,
        code: 'backfill_unsupported',
      });
    } finally {
      await t.dispose();
    }
  });
});
