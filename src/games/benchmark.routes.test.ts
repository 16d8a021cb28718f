import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { bearer, cookieHeader, type LoggedIn, signedIn } from '../../test/helpers/auth.js';
import { testEngines } from '../../test/helpers/db.js';
import { forgetReadings, type GameSeed, seedGames } from '../../test/helpers/games.js';
import { fixedClock } from '../clock.js';
import { replacePasses } from '../market/market.repo.js';

const NOW = new Date('2026-11-22T15:05:00Z');
const OBSERVED = new Date('2026-11-22T15:00:00Z');

/**
 * A hand-built RPG genre (every expected figure below follows from it), one shooter that must not
 * count, and a genre with a single game.
 */
const rpg = (n: number, seed: Partial<GameSeed>): GameSeed => ({
  universeId: 2000 + n,
  placeId: 6000 + n,
  name: `Realm ${n}`,
  creatorName: 'Maker',
  genre: 'rpg',
  ...seed,
});
const GAMES: GameSeed[] = [
  rpg(1, { ccu: 100, visits: 1000, upVotes: 90, downVotes: 10 }), // ratio 0.9, 3 passes
  rpg(2, { ccu: 200, visits: 5000, upVotes: 80, downVotes: 20 }), // ratio 0.8, 5 passes
  rpg(3, { ccu: 100, visits: 2000, upVotes: 45, downVotes: 5 }), // ratio 0.9, no passes
  rpg(4, { ccu: 50, visits: 500 }), // no votes, pass list never read
  rpg(5, { ccu: 0, visits: 0 }), // never read at all (forgetReadings)
  {
    universeId: 2100,
    placeId: 6100,
    name: 'Big Shooter',
    creatorName: 'X',
    genre: 'shooter',
    ccu: 9e5,
    visits: 9e9,
  },
  {
    universeId: 2200,
    placeId: 6200,
    name: 'Lone School',
    creatorName: 'Y',
    genre: 'education',
    ccu: 7,
    visits: 70,
  },
];
const passes = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i + 1, name: `P${i}`, price: 100 }));

describe.each(testEngines())('POST /api/benchmark on %s', (engine) => {
  let t: TestApp;
  let user: LoggedIn;

  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock(NOW) });
    const db = t.testDb.db;
    await seedGames(db, GAMES, OBSERVED);
    await forgetReadings(db, 2005);
    await replacePasses(db, 2001, passes(3), OBSERVED);
    await replacePasses(db, 2002, passes(5), OBSERVED);
    await replacePasses(db, 2003, [], OBSERVED);
    user = await signedIn(t, { plan: 'Explorer' });
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (payload: unknown, headers: Record<string, string> = bearer(user)) =>
    t.app.inject({ method: 'POST', url: '/api/benchmark', headers, payload: payload as object });

  it('places a game among the other games of its genre, with the genre means', async () => {
    const res = await post({ place_id: 6001 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      game: 'Realm 1',
      place_id: 6001,
      universe_id: 2001,
      genre: 'rpg',
      genre_games: 5,
      metrics: {
        // Others with a reading: 200, 100, 50 → (1 below + ½ · 1 level) / 3 = 50%.
        ccu_percentile: 50,
        // 5000, 2000, 500 → 1 below of 3.
        visits_percentile: 33,
        // Others with votes: 0.8 and 0.9 → (1 + ½) / 2.
        like_ratio_percentile: 75,
        // Others with a pass list: 5 and 0 → 1 below of 2.
        gamepass_count_percentile: 50,
      },
      // Means over the four games with a reading, and over the three with votes: 2.6 / 3.
      genre_averages: { avg_ccu: 112.5, avg_visits: 2125, avg_like_ratio: 0.8667 },
    });
  });

  it('scores the best game 100 and the worst 0', async () => {
    expect((await post({ place_id: 6002 })).json()).toMatchObject({
      metrics: {
        ccu_percentile: 100,
        visits_percentile: 100,
        like_ratio_percentile: 0,
        gamepass_count_percentile: 100,
      },
    });
    expect((await post({ place_id: 6004 })).json()).toMatchObject({
      metrics: { ccu_percentile: 0, visits_percentile: 0 },
    });
  });

  it('answers null where the game has no votes or no pass list, and compares a never-read game as zeros', async () => {
    expect((await post({ place_id: 6004 })).json().metrics).toMatchObject({
      like_ratio_percentile: null,
      gamepass_count_percentile: null,
    });
    expect((await post({ place_id: 6005 })).json().metrics).toEqual({
      ccu_percentile: 0,
      visits_percentile: 0,
      like_ratio_percentile: null,
      gamepass_count_percentile: null,
    });
  });

  it('has no percentile for the only game of a genre', async () => {
    expect((await post({ place_id: 6200 })).json()).toMatchObject({
      genre: 'education',
      genre_games: 1,
      metrics: { ccu_percentile: null, visits_percentile: null },
      genre_averages: { avg_ccu: 7, avg_visits: 70, avg_like_ratio: null },
    });
  });

  it('answers 404 for a place it does not collect and 422 for a bad body', async () => {
    const missing = await post({ place_id: 999_999 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'No game with place id 999999 is known.', code: 'not_found' });
    for (const body of [{}, { place_id: 'abc' }, { place_id: 0 }, { place_id: 1.5 }]) {
      const res = await post(body);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'validation_failed', field: 'body.place_id' });
    }
  });

  it('serves signed-in users only: anonymous 401, API keys 403, cookies need the CSRF header', async () => {
    expect((await post({ place_id: 6001 }, {})).json()).toMatchObject({ code: 'not_authenticated' });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/keys',
      headers: bearer(user),
      payload: { name: 'read', scopes: ['read'] },
    });
    const keyed = await post({ place_id: 6001 }, { 'x-api-key': (created.json() as { key: string }).key });
    expect(keyed.statusCode).toBe(403);
    expect(keyed.json()).toMatchObject({ code: 'api_key_read_only' });
    const cookie = cookieHeader({ svc_access: user.cookies.svc_access, svc_csrf: user.cookies.svc_csrf });
    expect((await post({ place_id: 6001 }, { cookie })).json()).toMatchObject({ code: 'csrf_invalid' });
    const ok = await post({ place_id: 6001 }, { cookie, 'x-csrf-token': user.cookies.svc_csrf });
    expect(ok.statusCode).toBe(200);
  });
});
