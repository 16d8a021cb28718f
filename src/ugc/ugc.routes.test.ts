import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { bearer, signedIn } from '../../test/helpers/auth.js';
import { testEngines } from '../../test/helpers/db.js';
import { fixedClock } from '../clock.js';
import type { Db } from '../db/index.js';
import type { CatalogItem } from '../platform/index.js';
import { dayKey, readings, refreshDerived } from './collector.js';
import * as repo from './ugc.repo.js';

const NOW = new Date('2026-11-22T15:05:00Z');
const HOUR = 3_600_000;

type Reading = [at: string, price: number | null, favorites: number];
interface Fixture {
  item: Omit<CatalogItem, 'price' | 'onSale' | 'favorites'>;
  /** Older readings only reach the daily rollups; those of the last 48 hours are raw readings too. */
  readings: Reading[];
}

const wingMaker = { id: 77, name: 'WingMaker', type: 'User' } as const;
const cozy = { id: 88, name: 'Cozy Studio', type: 'Group' } as const;
const crowns = { id: 99, name: 'Crowns', type: 'User' } as const;
const at = (iso: string) => new Date(iso);

const FIXTURES: Fixture[] = [
  {
    item: {
      itemType: 'Asset',
      id: 1001,
      name: 'Neon Wings',
      category: 'back',
      creator: wingMaker,
      created: at('2026-06-01T00:00:00Z'),
    },
    readings: [
      ['2026-11-08T09:00:00Z', 120, 990],
      ['2026-11-08T21:00:00Z', 100, 1000],
      ['2026-11-15T21:00:00Z', 100, 1100],
      ['2026-11-21T14:05:00Z', 100, 1400],
      ['2026-11-22T15:05:00Z', 100, 1500],
    ],
  },
  {
    item: {
      itemType: 'Asset',
      id: 1002,
      name: 'Frosty Beanie',
      category: 'hat',
      creator: cozy,
      created: at('2026-11-22T01:00:00Z'),
    },
    readings: [
      ['2026-11-22T01:00:00Z', 50, 10],
      ['2026-11-22T15:05:00Z', 50, 310],
    ],
  },
  {
    // The same id as the asset above: bundles are another id space.
    item: {
      itemType: 'Bundle',
      id: 1001,
      name: 'Knight Pack',
      category: 'bundle_body',
      creator: wingMaker,
      created: at('2025-01-01T00:00:00Z'),
    },
    readings: [
      ['2026-11-08T21:00:00Z', 500, 5000],
      ['2026-11-15T21:00:00Z', 500, 5050],
      ['2026-11-21T14:05:00Z', 500, 5090],
      ['2026-11-22T15:05:00Z', 500, 5100],
    ],
  },
  {
    item: {
      itemType: 'Asset',
      id: 1003,
      name: 'Velvet Scarf',
      category: 'neck',
      creator: cozy,
      created: at('2026-01-10T00:00:00Z'),
    },
    readings: [
      ['2026-11-08T21:00:00Z', 40, 200],
      ['2026-11-15T21:00:00Z', null, 260],
      ['2026-11-21T14:05:00Z', null, 300],
      ['2026-11-22T15:05:00Z', null, 300],
    ],
  },
  {
    item: {
      itemType: 'Asset',
      id: 1004,
      name: 'Golden Crown',
      category: 'hat',
      creator: crowns,
      created: at('2026-03-03T00:00:00Z'),
    },
    readings: [
      ['2026-11-08T21:00:00Z', 0, 50],
      ['2026-11-15T21:00:00Z', 0, 60],
      ['2026-11-21T14:05:00Z', 0, 60],
      ['2026-11-22T15:05:00Z', 0, 70],
    ],
  },
];

const itemAt = (f: Fixture, r: Reading): CatalogItem => ({
  ...f.item,
  price: r[1],
  onSale: r[1] !== null,
  favorites: r[2],
});

/** Writes the fixtures as the collector would have: every item as last read, each reading into its day. */
async function seed(db: Db): Promise<void> {
  await repo.upsertItems(
    db,
    FIXTURES.map((f) => itemAt(f, f.readings.at(-1)!)),
    NOW,
  );
  for (const f of FIXTURES) {
    for (const r of f.readings) {
      const rows = readings([itemAt(f, r)], at(r[0]));
      if (at(r[0]).getTime() >= NOW.getTime() - 48 * HOUR) await repo.insertSamples(db, rows);
      await repo.foldIntoDaily(db, dayKey(at(r[0]).getTime()), rows);
    }
  }
  await refreshDerived(db, NOW);
}

describe.each(testEngines())('UGC catalog on %s', (engine) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock(NOW) });
    await seed(t.testDb.db);
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ url });
  const names = (body: { items: { name: string }[] }) => body.items.map((i) => i.name);

  it('answers anonymous callers under the public rate limit', async () => {
    const res = await get('/api/ugc/items');
    expect(res.statusCode).toBe(200);
    expect(res.headers['ratelimit-policy']).toBeDefined();
    const signed = await signedIn(t, { plan: 'Builder' });
    const withUser = await t.app.inject({ url: '/api/ugc/items', headers: bearer(signed) });
    expect(withUser.json().items).toEqual(res.json().items);
  });

  it('lists items by trending score with the exact scores and gains', async () => {
    const body = (await get('/api/ugc/items?sort=trending')).json();
    expect(names(body)).toEqual([
      'Frosty Beanie',
      'Neon Wings',
      'Golden Crown',
      'Knight Pack',
      'Velvet Scarf',
    ]);
    expect(body.items.map((i: { trending_score: number }) => i.trending_score)).toEqual([
      31, 2.582, 0.791, 0.139, 0,
    ]);
    expect(body.items[1]).toEqual({
      id: 1001,
      item_type: 'asset',
      name: 'Neon Wings',
      category: 'back',
      category_name: 'Back accessories',
      creator: { id: 77, type: 'User', name: 'WingMaker' },
      price: 100,
      on_sale: true,
      favorites: 1500,
      favorites_gain_24h: 100,
      favorites_gain_7d: 400,
      trending_score: 2.582,
      created_at: '2026-06-01T00:00:00.000Z',
      listed_at: '2026-06-01T00:00:00.000Z',
      last_seen_at: NOW.toISOString(),
    });
    // Created 14 hours ago: counted from 0, over 24 h and 7 days alike.
    expect(body.items[0]).toMatchObject({ favorites_gain_24h: 310, favorites_gain_7d: 310 });
    expect(body).toMatchObject({ category: null, sort: 'trending', next_cursor: null, limit_cap: 100 });
    expect(body.computed_at).toBe(NOW.toISOString());
    expect(body.method).toContain('sqrt(favourites 24 h ago + 100)');
  });

  it('sorts by new, price (on sale only, cheapest first) and favourites, and filters by category', async () => {
    expect(names((await get('/api/ugc/items?sort=new')).json())).toEqual([
      'Frosty Beanie',
      'Neon Wings',
      'Golden Crown',
      'Velvet Scarf',
      'Knight Pack',
    ]);
    const byPrice = (await get('/api/ugc/items?sort=price')).json();
    expect(names(byPrice)).toEqual(['Golden Crown', 'Frosty Beanie', 'Neon Wings', 'Knight Pack']);
    expect(byPrice.items.map((i: { price: number }) => i.price)).toEqual([0, 50, 100, 500]);
    expect(names((await get('/api/ugc/items?sort=favorites')).json())).toEqual([
      'Knight Pack',
      'Neon Wings',
      'Frosty Beanie',
      'Velvet Scarf',
      'Golden Crown',
    ]);
    expect(names((await get('/api/ugc/items?category=hat')).json())).toEqual([
      'Frosty Beanie',
      'Golden Crown',
    ]);
    expect(names((await get('/api/ugc/items?category=jacket')).json())).toEqual([]);
  });

  it('pages every order with a cursor until next_cursor is null', async () => {
    for (const sort of ['trending', 'new', 'price', 'favorites']) {
      const all = names((await get(`/api/ugc/items?sort=${sort}`)).json());
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await get(`/api/ugc/items?sort=${sort}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(body.items.length).toBeLessThanOrEqual(2);
        paged.push(...names(body));
        cursor = body.next_cursor;
      } while (cursor);
      expect(paged).toEqual(all);
    }
  });

  it('clamps limit to the public cap and refuses bad input with the field named', async () => {
    const clamped = (await get('/api/ugc/items?limit=150')).json();
    expect(clamped.limit_cap).toBe(100);
    for (const [url, field] of [
      ['/api/ugc/items?category=spaceships', 'category'],
      ['/api/ugc/items?sort=cheapest', 'sort'],
      ['/api/ugc/items?limit=0', 'limit'],
      ['/api/ugc/items?limit=500', 'limit'],
      ['/api/ugc/items?cursor=bm9wZQ', 'cursor'],
      ['/api/ugc/items/0', 'id'],
      ['/api/ugc/items/1001?type=gear', 'type'],
      ['/api/ugc/items/1001?days=0', 'days'],
      ['/api/ugc/creators/77?type=robot', 'type'],
    ] as const) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(422);
      expect(res.json().code, url).toBe('validation_failed');
      expect(res.json().detail, url).toContain(field);
    }
  });

  it("answers an item with its daily price and favourites history, the asset's id before the bundle's", async () => {
    const body = (await get('/api/ugc/items/1001')).json();
    expect(body.item).toMatchObject({ item_type: 'asset', name: 'Neon Wings' });
    expect(body.price_history).toEqual([
      { day: '2026-11-08', price: 100, price_min: 100, price_max: 120, on_sale: true },
      { day: '2026-11-15', price: 100, price_min: 100, price_max: 100, on_sale: true },
      { day: '2026-11-21', price: 100, price_min: 100, price_max: 100, on_sale: true },
      { day: '2026-11-22', price: 100, price_min: 100, price_max: 100, on_sale: true },
    ]);
    expect(body.favorites_history).toEqual([
      { day: '2026-11-08', favorites: 1000 },
      { day: '2026-11-15', favorites: 1100 },
      { day: '2026-11-21', favorites: 1400 },
      { day: '2026-11-22', favorites: 1500 },
    ]);
    const week = (await get('/api/ugc/items/1001?days=7')).json();
    expect(week.favorites_history.map((p: { day: string }) => p.day)).toEqual(['2026-11-21', '2026-11-22']);
    const bundle = (await get('/api/ugc/items/1001?type=bundle')).json();
    expect(bundle.item).toMatchObject({ item_type: 'bundle', name: 'Knight Pack', favorites_gain_7d: 50 });
    const scarf = (await get('/api/ugc/items/1003')).json();
    expect(scarf.item).toMatchObject({ price: null, on_sale: false });
    expect(scarf.price_history.map((p: { on_sale: boolean }) => p.on_sale)).toEqual([
      true,
      false,
      false,
      false,
    ]);
    const missing = await get('/api/ugc/items/999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('not_found');
    expect((await get('/api/ugc/items/1002?type=bundle')).statusCode).toBe(404);
  });

  it('states the categories, price bands and creators rising, with exact gains and growth', async () => {
    const body = (await get('/api/ugc/trends')).json();
    expect(body.compared_days).toEqual({ day_7: '2026-11-15', day_14: '2026-11-08' });
    expect(body.categories).toEqual([
      {
        category: 'hat',
        name: 'Hats',
        items: 2,
        new_items_7d: 1,
        favorites_gain_7d: 320,
        favorites_gain_prev_7d: 10,
        growth_percent: 2818.2,
        avg_price: 25,
      },
      {
        category: 'back',
        name: 'Back accessories',
        items: 1,
        new_items_7d: 0,
        favorites_gain_7d: 400,
        favorites_gain_prev_7d: 100,
        growth_percent: 297,
        avg_price: 100,
      },
      {
        category: 'bundle_body',
        name: 'Body bundles',
        items: 1,
        new_items_7d: 0,
        favorites_gain_7d: 50,
        favorites_gain_prev_7d: 50,
        growth_percent: 0,
        avg_price: 500,
      },
      {
        category: 'neck',
        name: 'Neck accessories',
        items: 1,
        new_items_7d: 0,
        favorites_gain_7d: 40,
        favorites_gain_prev_7d: 60,
        growth_percent: -32.8,
        avg_price: null,
      },
    ]);
    expect(
      body.price_bands.map((b: { band: string; growth_percent: number }) => [b.band, b.growth_percent]),
    ).toEqual([
      ['1-50', 31000],
      ['51-100', 297],
      ['251-500', 0],
      ['free', 0],
    ]);
    expect(body.price_bands[0]).toMatchObject({
      min_price: 1,
      max_price: 50,
      items: 1,
      favorites_gain_7d: 310,
    });
    expect(
      body.creators.map(
        (c: { creator: { name: string }; growth_percent: number; favorites_gain_7d: number }) => [
          c.creator.name,
          c.favorites_gain_7d,
          c.growth_percent,
        ],
      ),
    ).toEqual([
      ['Cozy Studio', 350, 475.4],
      ['WingMaker', 450, 198.7],
      ['Crowns', 10, 0],
    ]);
    expect(body.method).toContain(
      'growth_percent = 100 · ((favorites_gain_7d + 1) / (favorites_gain_prev_7d + 1) − 1)',
    );
  });

  it("answers a creator's totals and items, most favourited first, with a cursor", async () => {
    const body = (await get('/api/ugc/creators/77?limit=1')).json();
    expect(body).toMatchObject({
      creator: { id: 77, type: 'User', name: 'WingMaker' },
      items_count: 2,
      on_sale_count: 2,
      favorites: 6600,
      favorites_gain_24h: 110,
      favorites_gain_7d: 450,
      first_listed_at: '2025-01-01T00:00:00.000Z',
      last_listed_at: '2026-06-01T00:00:00.000Z',
      limit_cap: 100,
    });
    expect(names(body)).toEqual(['Knight Pack']);
    const next = (await get(`/api/ugc/creators/77?limit=1&cursor=${body.next_cursor}`)).json();
    expect(names(next)).toEqual(['Neon Wings']);
    expect(next.next_cursor).toBeNull();
    const group = (await get('/api/ugc/creators/88')).json();
    expect(group.creator).toEqual({ id: 88, type: 'Group', name: 'Cozy Studio' });
    expect((await get('/api/ugc/creators/88?type=user')).statusCode).toBe(404);
    const missing = await get('/api/ugc/creators/12345');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('not_found');
  });
});
