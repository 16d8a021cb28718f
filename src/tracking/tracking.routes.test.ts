import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { bearer, cookieHeader, type LoggedIn, signedIn } from '../../test/helpers/auth.js';
import { testEngines } from '../../test/helpers/db.js';
import { type GameSeed, seedGames } from '../../test/helpers/games.js';
import { testMarket } from '../../test/helpers/market.js';
import { fixedClock } from '../clock.js';
import { DEFAULT_ENTITLEMENTS } from '../plans.js';
import type { PlatformSource } from '../platform/index.js';
import { TrackingService } from './tracking.service.js';

const NOW = new Date('2026-11-22T15:05:00Z');
const GAMES: GameSeed[] = Array.from({ length: 6 }, (_, i) => ({
  universeId: 501 + i,
  placeId: 7501 + i,
  name: `Tracked ${i + 1}`,
  creatorName: 'Maker',
  ccu: 1000 * (i + 1),
}));

describe.each(testEngines())('tracking routes on %s', (engine) => {
  let t: TestApp;
  const market = testMarket();

  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock(NOW), platform: market });
    await seedGames(t.testDb.db, GAMES, NOW);
  });
  afterAll(async () => {
    await t.close();
  });

  const track = (id: number | string, headers: Record<string, string>, method: 'POST' | 'DELETE' = 'POST') =>
    t.app.inject({ method, url: `/api/track/${id}`, headers });
  const me = async (s: LoggedIn) =>
    (await t.app.inject({ url: '/api/auth/me', headers: bearer(s) })).json().tracked_games as number[];

  it('tracks a game once: tracking it again gives the same answer', async () => {
    const s = await signedIn(t, { plan: 'Builder' });
    const expected = { status: 'tracked', universe_id: 501, tracked_count: 1, limit: 25 };
    for (let i = 0; i < 2; i += 1) {
      const res = await track(501, bearer(s));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(expected);
    }
    expect(await me(s)).toEqual([501]);
  });

  it('refuses a game past the plan cap with 409 limit_reached, but still answers for one already tracked', async () => {
    const s = await signedIn(t, { plan: 'Explorer' });
    for (const g of GAMES.slice(0, 5)) expect((await track(g.universeId, bearer(s))).statusCode).toBe(200);
    const refused = await track(506, bearer(s));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: 'limit_reached',
      detail: 'Your Explorer plan tracks up to 5 games; untrack one or upgrade to track more.',
    });
    expect((await track(503, bearer(s))).json()).toEqual({
      status: 'tracked',
      universe_id: 503,
      tracked_count: 5,
      limit: 5,
    });
    expect(await me(s)).toEqual([501, 502, 503, 504, 505]);
  });

  it('fetches a universe the catalogue lacks from the platform and stores it', async () => {
    const s = await signedIn(t, { plan: 'Explorer' });
    const spec = market.catalogue.find((g) => market.gameAt(g.universeId, NOW) !== undefined)!;
    const reading = market.gameAt(spec.universeId, NOW)!;
    const res = await track(spec.universeId, bearer(s));
    expect(res.json()).toEqual({
      status: 'tracked',
      universe_id: spec.universeId,
      tracked_count: 1,
      limit: 5,
    });
    const stored = await t.testDb.db.query(
      'SELECT place_id, name, genre, ccu FROM games WHERE universe_id = $1',
      [spec.universeId],
    );
    expect(stored.rows).toEqual([
      { place_id: reading.rootPlaceId, name: reading.name, genre: reading.genre, ccu: reading.playing },
    ]);
    expect(await me(s)).toEqual([spec.universeId]);
  });

  it('answers 404 for a universe neither the catalogue nor the platform knows', async () => {
    const s = await signedIn(t);
    const res = await track(42, bearer(s));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'not_found', detail: 'No game with universe id 42 is known.' });
    expect(await me(s)).toEqual([]);
  });

  it('untracks idempotently', async () => {
    const s = await signedIn(t);
    await track(502, bearer(s));
    for (let i = 0; i < 2; i += 1) {
      const res = await track(502, bearer(s), 'DELETE');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'untracked', universe_id: 502 });
    }
    expect(await me(s)).toEqual([]);
  });

  it('refuses a universe id that is not a positive integer with 422 naming the path field', async () => {
    const s = await signedIn(t);
    for (const id of ['abc', '0', '-3']) {
      const res = await track(id, bearer(s));
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'validation_failed', field: 'path.universe_id' });
    }
  });

  it('serves signed-in users only: 401 anonymous, 403 for API keys and for cookies without CSRF', async () => {
    const s = await signedIn(t);
    expect((await track(501, {})).statusCode).toBe(401);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/keys',
      headers: bearer(s),
      payload: { name: 'read', scopes: ['read'] },
    });
    const keyed = await track(501, { 'x-api-key': (created.json() as { key: string }).key });
    expect(keyed.statusCode).toBe(403);
    expect(keyed.json()).toMatchObject({ code: 'api_key_read_only' });
    const cookie = cookieHeader(s.cookies);
    expect((await track(501, { cookie })).json()).toMatchObject({ code: 'csrf_invalid' });
    const withCsrf = await track(501, { cookie, 'x-csrf-token': s.cookies.svc_csrf });
    expect(withCsrf.json()).toEqual({ status: 'tracked', universe_id: 501, tracked_count: 1, limit: 5 });
  });

  it('answers 503 when the platform cannot be reached for an unknown universe', async () => {
    const down: PlatformSource = {
      ...market,
      getGames: async () => {
        throw new Error('connect ECONNREFUSED');
      },
    };
    const service = new TrackingService({
      db: t.testDb.db,
      clock: fixedClock(NOW),
      entitlements: DEFAULT_ENTITLEMENTS,
      platform: down,
    });
    await expect(service.ensureInCatalogue(43)).rejects.toMatchObject({
      status: 503,
      code: 'temporarily_unavailable',
    });
  });
});
