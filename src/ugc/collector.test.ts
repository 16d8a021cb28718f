import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedDb, type TestDb } from '../../test/helpers/db.js';
import { fixedClock } from '../clock.js';
import { type CatalogFetch, type CatalogSource, createSimulatedCatalog, refKey } from '../platform/index.js';
import { favoritesAt, priceAt } from '../platform/simulated/catalog.js';
import { backfillCatalog } from './backfill.js';
import { collectCatalog } from './collector.js';
import { scheduledCatalogCollection } from './index.js';
import { UgcService } from './ugc.service.js';

const NOW = new Date('2026-11-22T15:05:00Z');
const DAY = 86_400_000;
const log = { info: () => {}, warn: () => {} };

describe('the simulated catalog', () => {
  const a = createSimulatedCatalog({ seed: 7, shape: { items: 300, epoch: Date.UTC(2026, 0, 1) } });
  const b = createSimulatedCatalog({ seed: 7, shape: { items: 300, epoch: Date.UTC(2026, 0, 1) } });

  it('is a pure function of seed and time: the same seed reads the same at any moment', async () => {
    const refs = await a.discover(NOW);
    expect(refs).toEqual(await b.discover(NOW));
    expect([...(await a.getItems(refs, NOW)).items.values()]).toEqual([
      ...(await b.getItems(refs, NOW)).items.values(),
    ]);
    const other = createSimulatedCatalog({ seed: 8, shape: { items: 300, epoch: Date.UTC(2026, 0, 1) } });
    expect(other.items.map((s) => s.name)).not.toEqual(a.items.map((s) => s.name));
  });

  it('launches items over time, never loses favourites, and has assets, bundles, sales and off-sale items', async () => {
    expect((await a.discover(new Date('2025-06-01T00:00:00Z'))).length).toBeLessThan(
      (await a.discover(NOW)).length,
    );
    for (const s of a.items) {
      let last = 0;
      for (let t = s.launchAt; t < NOW.getTime(); t += 3 * DAY) {
        const f = favoritesAt(s, t);
        expect(f).toBeGreaterThanOrEqual(last);
        last = f;
      }
    }
    const types = new Set(a.items.map((s) => s.ref.itemType));
    expect(types).toEqual(new Set(['Asset', 'Bundle']));
    const states = a.items.map((s) => priceAt(7, s, NOW.getTime()));
    expect(states.some((p) => !p.onSale && p.price === null)).toBe(true);
    expect(states.some((p) => p.onSale && p.price === 0)).toBe(true);
  });
});

describe('collecting the catalog', () => {
  let t: TestDb;
  const source = createSimulatedCatalog({ seed: 3, shape: { items: 80, epoch: Date.UTC(2026, 0, 1) } });

  beforeAll(async () => {
    t = await migratedDb('pglite');
  });
  afterAll(() => t.dispose());

  it('answers empty trends before the first collection', async () => {
    const ugc = new UgcService({ db: t.db, clock: fixedClock(NOW) });
    expect(JSON.parse((await ugc.trends()).toString('utf8'))).toMatchObject({
      computed_at: null,
      compared_days: { day_7: '2026-11-15', day_14: '2026-11-08' },
      categories: [],
      price_bands: [],
      creators: [],
    });
  });

  it('backfills daily history and raw readings from the simulated catalog, then collects the present', async () => {
    const live = await source.discover(NOW);
    const stats = await scheduledCatalogCollection({ db: t.db, source, log }, NOW).then(async () =>
      t.db.query<{ items: number; days: number; samples: number }>(
        `SELECT (SELECT count(*)::int FROM ugc_items) AS items,
                (SELECT count(DISTINCT day)::int FROM ugc_daily) AS days,
                (SELECT count(*)::int FROM ugc_samples) AS samples`,
      ),
    );
    // 35 days before today and today; readings every 2 hours since yesterday's start (8 today) + now.
    expect(stats.rows[0]).toEqual({ items: live.length, days: 36, samples: live.length * (12 + 8 + 1) });
    // The stored figures are the source's, at each reading.
    const s = source.items.find((x) => x.launchAt < NOW.getTime() - 40 * DAY)!;
    const row = await t.db.query<{ favorites: number; price: number | null }>(
      'SELECT favorites::float8 AS favorites, price FROM ugc_items WHERE item_type = $1 AND item_id = $2',
      [s.ref.itemType, s.ref.id],
    );
    expect(row.rows[0]).toEqual({
      favorites: favoritesAt(s, NOW.getTime()),
      price: priceAt(3, s, NOW.getTime()).price,
    });
    const day = await t.db.query<{ favorites_last: number; price_last: number | null }>(
      `SELECT favorites_last::float8 AS favorites_last, price_last FROM ugc_daily
        WHERE item_type = $1 AND item_id = $2 AND day = '2026-11-10'`,
      [s.ref.itemType, s.ref.id],
    );
    const lastReading = Date.parse('2026-11-10T21:00:00Z');
    expect(day.rows[0]).toEqual({
      favorites_last: favoritesAt(s, lastReading),
      price_last: priceAt(3, s, lastReading).price,
    });
    // A second run does not backfill again.
    const later = new Date(NOW.getTime() + 15 * 60_000);
    await scheduledCatalogCollection({ db: t.db, source, log }, later);
    const backfills = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ugc_backfills');
    expect(backfills.rows[0]!.n).toBe(1);
  });

  it('prunes raw readings older than 48 hours and keeps the daily rollups', async () => {
    const twoDaysOn = new Date(NOW.getTime() + 2 * DAY);
    await collectCatalog({ db: t.db, source, log }, twoDaysOn);
    const oldest = await t.db.query<{ ts: Date }>('SELECT min(ts) AS ts FROM ugc_samples');
    expect(oldest.rows[0]!.ts.getTime()).toBeGreaterThanOrEqual(twoDaysOn.getTime() - 2 * DAY);
    const days = await t.db.query<{ n: number }>('SELECT count(DISTINCT day)::int AS n FROM ugc_daily');
    // 36 days of the backfill and 2026-11-24 (no collection ran on the 23rd: a gap, not a zero).
    expect(days.rows[0]!.n).toBe(37);
  });

  it('stops reading when its time budget runs out and stores what it read', async () => {
    const slow: CatalogSource = {
      name: 'simulated',
      replaysPast: false,
      discover: (now) => source.discover(now),
      async getItems(refs, now, signal): Promise<CatalogFetch> {
        await new Promise((resolve) => setTimeout(resolve, 50));
        if (signal?.aborted) return { items: new Map(), failed: [...refs] };
        return source.getItems(refs, now);
      },
    };
    const stats = await collectCatalog(
      { db: t.db, source: slow, log, budgetMs: 10 },
      new Date(NOW.getTime() + 3 * DAY),
    );
    expect(stats.stored).toBe(0);
    expect(stats.failed).toBe(stats.requested);
    const full = await collectCatalog({ db: t.db, source: slow, log }, new Date(NOW.getTime() + 3 * DAY));
    expect(full.stored).toBe(full.requested);
    expect(full.skipped).toBe(0);
    const keys = new Set((await source.discover(NOW)).map(refKey));
    expect(full.requested).toBe(keys.size);
  });

  it('refuses to backfill from a source that cannot replay the past', async () => {
    const live: CatalogSource = { ...source, name: 'roblox', replaysPast: false };
    await expect(backfillCatalog({ db: t.db, source: live, log }, 5, NOW)).rejects.toMatchObject({
      code: 'backfill_unsupported',
    });
  });
});
