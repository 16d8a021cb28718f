import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { bearer, type LoggedIn, signedIn } from '../../test/helpers/auth.js';
import { testEngines } from '../../test/helpers/db.js';
import { type GameSeed, seedGames } from '../../test/helpers/games.js';
import { fixedClock } from '../clock.js';
import { replacePasses } from '../market/market.repo.js';

const NOW = new Date('2026-11-22T15:05:00Z');
const OBSERVED = new Date('2026-11-22T15:00:00Z');

/**
 * 25 simulation games: game i has CCU 10·i and i mod 5 passes priced 100, 200, …, so the genre's
 * CCU runs 10..250 (p10 34, median 130, p90 226), pass counts 0..4 (p10 0, median 2, p90 4) and
 * the 20 median prices 100..250 (p10 100, median 175, p90 250).
 */
const GAMES: GameSeed[] = Array.from({ length: 25 }, (_, k) => ({
  universeId: 3000 + k + 1,
  placeId: 7000 + k + 1,
  name: `Sim ${k + 1}`,
  creatorName: 'Maker',
  genre: 'simulation',
  ccu: 10 * (k + 1),
}));

const body = (overrides: Record<string, unknown> = {}) => ({
  avg_ccu: 100,
  gamepass_count: 3,
  avg_gamepass_price: 150,
  genre: 'simulation',
  ...overrides,
});

describe.each(testEngines())('POST /api/revenue-simulator on %s', (engine) => {
  let t: TestApp;
  let user: LoggedIn;

  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock(NOW) });
    const db = t.testDb.db;
    await seedGames(db, GAMES, OBSERVED);
    for (const g of GAMES) {
      const n = (g.universeId - 3000) % 5;
      const passes = Array.from({ length: n }, (_, j) => ({
        id: j + 1,
        name: `P${j}`,
        price: 100 * (j + 1),
      }));
      await replacePasses(db, g.universeId, passes, OBSERVED);
    }
    user = await signedIn(t, { plan: 'Explorer' });
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (payload: object, headers: Record<string, string> = bearer(user)) =>
    t.app.inject({ method: 'POST', url: '/api/revenue-simulator', headers, payload });

  it('estimates with the documented model and says every constant it used', async () => {
    const res = await post(body());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      // DAU 100·24/0.55 = 4,363.64; × 0.045 = 196.36 payers; × min(2, 3) × 150 R$ = 58,909.09 R$;
      // × 0.7 × 0.0038 = 156.70 USD.
      monthly_estimate: 156.7,
      yearly_estimate: 1880.4,
      confidence: 'high',
      // The median game: 130 CCU, 2 passes, 175 R$ → 237.66 USD.
      genre_avg_revenue: 237.66,
      currency: 'USD',
      genre: 'simulation',
      typicality: { avg_ccu: 'typical', gamepass_count: 'typical', avg_gamepass_price: 'typical' },
      assumptions: {
        session_hours: 0.55,
        payers_per_dau: 0.045,
        passes_per_payer: 2,
        hours_per_day: 24,
        creator_share: 0.7,
        devex_usd_per_robux: 0.0038,
        months_per_year: 12,
      },
      breakdown: {
        dau: expect.closeTo(4363.636, 3),
        monthly_payers: expect.closeTo(196.364, 3),
        purchases_per_payer: 2,
        robux_spent: expect.closeTo(58_909.09, 2),
        creator_robux: expect.closeTo(41_236.36, 2),
      },
    });
  });

  it('is less confident as the inputs leave what the genre shows', async () => {
    const unusual = (await post(body({ avg_ccu: 240 }))).json();
    expect(unusual).toMatchObject({
      confidence: 'medium',
      monthly_estimate: 376.08,
      typicality: { avg_ccu: 'unusual', gamepass_count: 'typical', avg_gamepass_price: 'typical' },
    });
    const beyond = (await post(body({ avg_ccu: 100, avg_gamepass_price: 5000 }))).json();
    expect(beyond).toMatchObject({ confidence: 'low', typicality: { avg_gamepass_price: 'outside_range' } });
    // Without passes the price plays no part.
    const none = (await post(body({ gamepass_count: 0, avg_gamepass_price: 5000 }))).json();
    expect(none).toMatchObject({ confidence: 'high', monthly_estimate: 0, yearly_estimate: 0 });
  });

  it('has low confidence and no genre figure for a genre without stored games', async () => {
    const res = await post(body({ genre: 'rpg' }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      confidence: 'low',
      genre_avg_revenue: null,
      typicality: { avg_ccu: 'outside_range', gamepass_count: 'outside_range' },
      assumptions: { session_hours: 0.75, payers_per_dau: 0.04, passes_per_payer: 2.2 },
    });
  });

  it.each([
    [{ avg_ccu: -1 }, 'body.avg_ccu'],
    [{ avg_ccu: 1.5 }, 'body.avg_ccu'],
    [{ avg_ccu: 'many' }, 'body.avg_ccu'],
    [{ gamepass_count: -2 }, 'body.gamepass_count'],
    [{ avg_gamepass_price: -0.01 }, 'body.avg_gamepass_price'],
    [{ genre: 'tycoon' }, 'body.genre'],
    [{ genre: undefined }, 'body.genre'],
  ])('refuses %o with 422 naming %s', async (overrides, field) => {
    const res = await post(body(overrides));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'validation_failed', field });
  });

  it('serves signed-in users only', async () => {
    expect((await post(body(), {})).statusCode).toBe(401);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/keys',
      headers: bearer(user),
      payload: { name: 'read', scopes: ['read'] },
    });
    const keyed = await post(body(), { 'x-api-key': (created.json() as { key: string }).key });
    expect(keyed.statusCode).toBe(403);
    expect(keyed.json()).toMatchObject({ code: 'api_key_read_only' });
  });

  it('describes both intelligence endpoints in /openapi.json', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json?prefix=/api' })).json() as {
      paths: Record<string, { post: { description: string; responses: Record<string, unknown> } }>;
      components: { schemas: Record<string, unknown> };
    };
    const revenue = doc.paths['/api/revenue-simulator']!.post;
    expect(Object.keys(revenue.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '413',
      '415',
      '422',
      '429',
      '500',
      '503',
    ]);
    expect(revenue.description).toContain('median |ln(estimate/truth)| ≤ 0.65');
    const benchmark = doc.paths['/api/benchmark']!.post;
    expect(Object.keys(benchmark.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '413',
      '415',
      '422',
      '429',
      '500',
      '503',
    ]);
    expect(benchmark.description).toContain('mid-ranks');
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['BenchmarkResult', 'RevenueEstimate']),
    );
  });
});
