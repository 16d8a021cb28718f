import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { bearer, signedIn } from '../../test/helpers/auth.js';
import { testMarket } from '../../test/helpers/market.js';
import { fixedClock } from '../clock.js';
import { GENRE_KEYS } from '../platform/index.js';
import { backfill } from './backfill.js';
import { refreshViews } from './views.service.js';

const NOW = new Date('2026-11-22T15:05:00Z');
const log = { info: () => {}, warn: () => {} };

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ clock: fixedClock(NOW) });
  await backfill({ db: t.testDb.db, platform: testMarket(), log }, 35, NOW);
  await refreshViews(t.testDb.db, NOW, { force: true });
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });

async function createKey(s: Awaited<ReturnType<typeof signedIn>>, scopes: string[]): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/keys',
    headers: bearer(s),
    payload: { name: 'market test', scopes },
  });
  return (res.json() as { key: string }).key;
}

async function storedGames(): Promise<{ universe_id: number; ccu: number; genre: string }[]> {
  const res = await t.testDb.db.query<{ universe_id: number; ccu: number; genre: string }>(
    'SELECT universe_id, ccu, genre FROM games WHERE ccu IS NOT NULL ORDER BY ccu DESC, universe_id',
  );
  return res.rows;
}

describe('GET /api/trending', () => {
  it('gives anonymous callers the 20 most played games, each with 24 history points', async () => {
    const res = await get('/api/trending');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const all = await storedGames();
    expect(body).toMatchObject({
      period: '24h',
      limit: 20,
      total: all.length,
      computed_at: NOW.toISOString(),
    });
    expect(body.games.map((g: { universe_id: number }) => g.universe_id)).toEqual(
      all.slice(0, 20).map((g) => g.universe_id),
    );
    for (const g of body.games) {
      expect(Object.keys(g).sort()).toEqual(
        ['ccu', 'ccu_history', 'creator', 'genre', 'name', 'place_id', 'trend_score', 'universe_id'].sort(),
      );
      expect(g.ccu_history).toHaveLength(24);
      expect(g.trend_score).toBeGreaterThanOrEqual(-100);
      expect(g.trend_score).toBeLessThanOrEqual(100);
    }
  });

  it('clamps limit to the plan cap: Builder 100, Studio unlimited', async () => {
    const all = await storedGames();
    const builder = await signedIn(t, { plan: 'Builder' });
    const b = (await get('/api/trending?limit=500', bearer(builder))).json();
    expect([b.limit, b.games.length]).toEqual([100, 100]);
    const studio = await signedIn(t, { plan: 'Studio' });
    const s = (await get('/api/trending?limit=500', bearer(studio))).json();
    expect([s.limit, s.games.length]).toEqual([500, all.length]);
  });

  it('filters by genre and covers every period', async () => {
    const studio = await signedIn(t, { plan: 'Studio' });
    const sim = (await storedGames()).filter((g) => g.genre === 'simulation');
    const res = (await get('/api/trending?genre=simulation&limit=1000', bearer(studio))).json();
    expect(res.games.map((g: { universe_id: number }) => g.universe_id)).toEqual(
      sim.map((g) => g.universe_id),
    );
    for (const period of ['1h', '6h', '24h', '7d', '30d']) {
      const r = await get(`/api/trending?period=${period}&limit=3`, bearer(studio));
      expect(r.statusCode).toBe(200);
      expect(r.json().period).toBe(period);
      for (const g of r.json().games) expect(g.ccu_history).toHaveLength(24);
    }
  });

  it('refuses limit=0, limit=-1, period=2h and an unknown genre with 422 naming the field', async () => {
    for (const [query, field] of [
      ['limit=0', 'query.limit'],
      ['limit=-1', 'query.limit'],
      ['period=2h', 'query.period'],
      ['genre=nope', 'query.genre'],
    ]) {
      const res = await get(`/api/trending?${query}`);
      expect(res.statusCode, query).toBe(422);
      expect(res.json()).toMatchObject({ code: 'validation_failed', field });
    }
  });

  it('answers an empty list for a real genre with no games', async () => {
    const present = new Set((await storedGames()).map((g) => g.genre));
    const empty = GENRE_KEYS.filter((k) => !present.has(k));
    expect(empty.length).toBeGreaterThan(0); // the 200-game test market leaves some genres out
    const res = await get(`/api/trending?genre=${empty[0]}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ games: [], total: 0, period: '24h' });
  });
});

describe('GET /api/genre-opportunities', () => {
  it('gives anonymous callers the free shape only', async () => {
    const res = await get('/api/genre-opportunities');
    expect(res.statusCode).toBe(200);
    const genres = res.json();
    expect(genres.length).toBeGreaterThan(5);
    for (const g of genres) {
      expect(g).toEqual({
        name: expect.any(String),
        display_name: expect.any(String),
        total_games: expect.any(Number),
        total_ccu: expect.any(Number),
        avg_ccu: null,
        growth_rate: null,
        saturation_index: null,
        opportunity_score: null,
        monetization_depth: null,
        demand_per_game: null,
        top3_share: null,
        newcomer_share: null,
        entry_verdict: null,
        recommendation: null,
        locked: true,
      });
    }
    const totals = new Map<string, number>();
    for (const g of await storedGames()) totals.set(g.genre, (totals.get(g.genre) ?? 0) + 1);
    expect(
      Object.fromEntries(genres.map((g: { name: string; total_games: number }) => [g.name, g.total_games])),
    ).toEqual(Object.fromEntries(totals));
  });

  it('gives Builder and read API keys the full table, with a 7-day growth baseline', async () => {
    const builder = await signedIn(t, { plan: 'Builder' });
    const full = (await get('/api/genre-opportunities', bearer(builder))).json();
    for (const g of full) {
      expect(g.locked).toBe(false);
      expect(g.growth_rate).toEqual(expect.any(Number));
      expect(['strong', 'enter_with_edge', 'avoid', 'unproven']).toContain(g.entry_verdict);
    }
    const key = await createKey(builder, ['read']);
    const viaKey = await get('/api/genre-opportunities', { 'x-api-key': key });
    expect(viaKey.statusCode).toBe(200);
    expect(viaKey.json()).toEqual(full);
  });

  it('refuses an ingest-scope key on the read API (403 insufficient_scope)', async () => {
    const s = await signedIn(t, { plan: 'Builder' });
    const key = await createKey(s, ['sdk:ingest']);
    for (const url of ['/api/trending', '/api/genre-opportunities', '/api/market/overview']) {
      const res = await get(url, { 'x-api-key': key });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().code).toBe('insufficient_scope');
    }
  });
});

describe('GET /api/breakout-radar and /api/genre-timing', () => {
  it('need a signed-in caller', async () => {
    expect((await get('/api/breakout-radar')).statusCode).toBe(401);
    expect((await get('/api/genre-timing')).statusCode).toBe(401);
  });

  it('rank at most 50 games by score and give every genre its calendar windows', async () => {
    const s = await signedIn(t);
    const radar = (await get('/api/breakout-radar', bearer(s))).json();
    expect(radar.games.length).toBeGreaterThan(0);
    expect(radar.games.length).toBeLessThanOrEqual(50);
    const scores = radar.games.map((g: { score: number }) => g.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const timing = (await get('/api/genre-timing', bearer(s))).json();
    expect(timing.recommendations.length).toBeGreaterThan(5);
    for (const r of timing.recommendations) {
      for (const w of r.best_windows) expect(w.reason).toMatch(/prior/i);
    }
  });
});

describe('GET /api/market/overview', () => {
  it('works anonymously and adds up to the stored games', async () => {
    const res = await get('/api/market/overview');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const all = await storedGames();
    expect(body.platform_ccu).toBe(all.reduce((s, g) => s + g.ccu, 0));
    expect(body.total_games).toBe(all.length);
    expect(body.active_games).toBe(all.filter((g) => g.ccu >= 10).length);
    expect(body.top_games.map((g: { universe_id: number }) => g.universe_id)).toEqual(
      all.slice(0, 5).map((g) => g.universe_id),
    );
    expect(body.ccu_change_24h).toEqual(expect.any(Number));
    expect(body.top_genres).toHaveLength(5);
  });
});

describe('market views', () => {
  it('recompute the fast views every collection, the slow ones on their cadence', async () => {
    const db = t.testDb.db;
    const later = (min: number) => new Date(NOW.getTime() + min * 60_000);
    expect(await refreshViews(db, later(5))).toEqual([
      'trending:1h',
      'trending:6h',
      'trending:24h',
      'overview',
    ]);
    expect(await refreshViews(db, later(60))).toEqual([
      'trending:1h',
      'trending:6h',
      'trending:24h',
      'trending:7d',
      'trending:30d',
      'overview',
      'breakout',
    ]);
    // 18:00 UTC opens a new 6-hour snapshot bucket: the genre table follows it.
    expect(await refreshViews(db, new Date('2026-11-22T18:00:00Z'))).toContain('genres');
  });

  it('answer 503 until the first collection has stored them, looking for them once a second', async () => {
    const fresh = await buildTestApp();
    const query = vi.spyOn(fresh.testDb.db, 'query');
    const lookups = () =>
      query.mock.calls.filter(([sql]) =>
        String(sql).startsWith('SELECT computed_at FROM market_views WHERE name'),
      ).length;
    try {
      for (let i = 0; i < 5; i += 1) {
        const res = await fresh.app.inject({ url: '/api/trending' });
        expect(res.statusCode).toBe(503);
        expect(res.json().code).toBe('temporarily_unavailable');
        expect(res.headers['retry-after']).toBe('30');
      }
      expect(lookups()).toBe(1);
      await refreshViews(fresh.testDb.db, NOW, { force: true });
      await new Promise((r) => setTimeout(r, 1100));
      const res = await fresh.app.inject({ url: '/api/trending' });
      expect(res.statusCode).toBe(200);
      expect(lookups()).toBe(2);
    } finally {
      query.mockRestore();
      await fresh.close();
    }
  });
});
