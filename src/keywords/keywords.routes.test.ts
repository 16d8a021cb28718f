import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { bearer, type LoggedIn, signedIn } from '../../test/helpers/auth.js';
import { testEngines } from '../../test/helpers/db.js';
import { seedGames } from '../../test/helpers/games.js';
import { fixedClock } from '../clock.js';
import { dayKey } from '../games/index.js';
import { insertRollups } from '../market/market.repo.js';

const NOW = new Date('2026-12-02T12:00:00Z');
const DAY = 86_400_000;
/** The 7-day period: 2026-11-25 to 2026-12-01; the 30-day one: 2026-11-02 to 2026-12-01. */
const WEEK_START = Date.UTC(2026, 10, 25);

interface Fixture {
  universeId: number;
  placeId: number;
  name: string;
  description?: string;
  genre: string;
  createdAt?: Date;
  /** Daily mean CCU before WEEK_START (from 2026-08-01; null: no readings) and from it on. */
  before: number | null;
  week: number;
}

const GAMES: Fixture[] = [
  { universeId: 1, placeId: 11, name: 'Pet Simulator', genre: 'simulation', before: 100, week: 200 },
  { universeId: 2, placeId: 12, name: 'Pet Tycoon', genre: 'simulation', before: 50, week: 50 },
  {
    universeId: 3,
    placeId: 13,
    name: 'Mega Pet Simulator',
    genre: 'simulation',
    createdAt: new Date('2026-10-01T00:00:00Z'),
    before: null,
    week: 30,
  },
  { universeId: 4, placeId: 14, name: 'Pet Hospital', genre: 'rpg', before: 20, week: 20 },
  { universeId: 5, placeId: 15, name: 'Zombie Tycoon', genre: 'simulation', before: 10, week: 10 },
  {
    universeId: 6,
    placeId: 16,
    name: 'Tycoon Island',
    description: 'Build your island. Sell fish!',
    genre: 'simulation',
    before: 5,
    week: 5,
  },
];

function rollups(f: Fixture) {
  const rows = [];
  for (let t = Date.UTC(2026, 7, 1); t < Date.UTC(2026, 11, 2); t += DAY) {
    const ccu = t >= WEEK_START ? f.week : f.before;
    if (ccu === null) continue;
    rows.push({ universeId: f.universeId, at: dayKey(t), ccuAvg: ccu, ccuMax: ccu, samples: 288, visits: 0 });
  }
  return rows;
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-8 * x));

describe.each(testEngines())('keywords on %s', (engine) => {
  let t: TestApp;
  let builder: LoggedIn;
  let explorer: LoggedIn;

  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock(NOW) });
    const db = t.testDb.db;
    await seedGames(
      db,
      GAMES.map((f) => ({
        universeId: f.universeId,
        placeId: f.placeId,
        name: f.name,
        description: f.description ?? '',
        creatorName: 'Maker',
        genre: f.genre,
        ccu: f.week,
        ...(f.createdAt ? { createdAt: f.createdAt } : {}),
      })),
      NOW,
    );
    for (const f of GAMES) await insertRollups(db, 'daily', rollups(f));
    builder = await signedIn(t, { plan: 'Builder' });
    explorer = await signedIn(t, { plan: 'Explorer' });
  });
  afterAll(() => t.close());

  const get = (url: string, who: LoggedIn = builder) => t.app.inject({ url, headers: bearer(who) });

  it('extracts keywords once per text and computes the lists once per rolled-up day', async () => {
    expect(await t.services.keywords.refresh(NOW)).toEqual({ extracted: 6, listsThrough: '2026-12-01' });
    expect(await t.services.keywords.refresh(NOW)).toEqual({ extracted: 0, listsThrough: '2026-12-01' });
  });

  it('needs a signed-in caller and refuses unknown genres and cursors', async () => {
    expect((await t.app.inject({ url: '/api/keywords/trending' })).statusCode).toBe(401);
    const genre = await get('/api/keywords/trending?genre=nope');
    expect(genre.statusCode).toBe(422);
    expect(genre.json()).toMatchObject({ code: 'validation_failed', field: 'query.genre' });
    const cursor = await get('/api/keywords/trending?cursor=bm90LWEtbnVtYmVy');
    expect(cursor.statusCode).toBe(422);
    expect(cursor.json()).toMatchObject({ code: 'validation_failed', field: 'query.cursor' });
  });

  it('lists the keywords with at least 3 games, scored as the genre score', async () => {
    const res = await get('/api/keywords/trending');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    // pet: 4 games, demand 200 + 50 + 30 + 20 = 300 against 100 + 50 + 0 + 20 = 170 the week before;
    // its 3 busiest hold 280; the newcomer (Mega Pet Simulator, created 2026-10-01) 30 of 300.
    const petScore = Math.round(
      100 * (0.4 * 1 + 0.35 * sigmoid(300 / 170 - 1) + 0.25 * 0.1 * Math.sqrt(1 - 0.9333)),
    );
    expect(petScore).toBe(76);
    expect(body).toMatchObject({
      period: '7d',
      genre: null,
      through_day: '2026-12-01',
      sort: 'opportunity',
      total: 2,
      next_cursor: null,
      limit_cap: 50,
    });
    expect(body.method).toContain('opportunity_score');
    expect(body.items).toEqual([
      {
        rank: 1,
        trend: {
          keyword: 'pet',
          games: 4,
          title_games: 4,
          demand: 300,
          previous_demand: 170,
          growth: 0.7647,
          demand_per_game: 75,
          top3_share: 0.9333,
          newcomer_share: 0.1,
          opportunity_score: 76,
        },
      },
      {
        // 50 + 10 + 5 both weeks: no growth (score 0.35 · 0.5), one list, so lowest demand_pct 0.
        rank: 2,
        trend: {
          keyword: 'tycoon',
          games: 3,
          title_games: 3,
          demand: 65,
          previous_demand: 65,
          growth: 0,
          demand_per_game: 21.67,
          top3_share: 1,
          newcomer_share: 0,
          opportunity_score: 18,
        },
      },
    ]);
  });

  it('pages with a cursor, sorts by demand or growth, filters by genre and clamps to the plan cap', async () => {
    const first = (await get('/api/keywords/trending?limit=1')).json();
    expect(first.items.map((i: { trend: { keyword: string } }) => i.trend.keyword)).toEqual(['pet']);
    const second = (await get(`/api/keywords/trending?limit=1&cursor=${first.next_cursor}`)).json();
    expect(second.items.map((i: { rank: number }) => i.rank)).toEqual([2]);
    expect(second.next_cursor).toBeNull();

    const growth = (await get('/api/keywords/trending?sort=growth&period=30d&genre=simulation')).json();
    // Simulation only: pet has 3 games (Pet Hospital is rpg). 30 days: Pet Simulator 23 days at 100
    // and 7 at 200; Mega Pet Simulator 7 days at 30 (its mean over the days it has readings).
    expect(growth).toMatchObject({ period: '30d', genre: 'simulation', sort: 'growth', total: 2 });
    expect(
      growth.items.map((i: { rank: number; trend: { keyword: string; games: number; demand: number } }) => [
        i.rank,
        i.trend.keyword,
        i.trend.games,
        i.trend.demand,
      ]),
    ).toEqual([
      [1, 'pet', 3, 203.33],
      [2, 'tycoon', 3, 65],
    ]);

    const capped = (await get('/api/keywords/trending?limit=200', explorer)).json();
    expect(capped.limit_cap).toBe(10);
  });

  it('shows one keyword: its games busiest first, its history and related keywords', async () => {
    const res = await get('/api/keywords/Pet?limit=2');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      keyword: 'pet',
      period: '7d',
      genre: null,
      through_day: '2026-12-01',
      games_total: 4,
      title_games_total: 4,
      limit_cap: 50,
    });
    expect(body.trend.opportunity_score).toBe(76);
    expect(body.games).toEqual([
      {
        place_id: 11,
        universe_id: 1,
        name: 'Pet Simulator',
        creator: 'Maker',
        genre: 'simulation',
        ccu: 200,
        in_title: true,
      },
      {
        place_id: 12,
        universe_id: 2,
        name: 'Pet Tycoon',
        creator: 'Maker',
        genre: 'simulation',
        ccu: 50,
        in_title: true,
      },
    ]);
    const next = (await get(`/api/keywords/pet?limit=2&cursor=${body.next_cursor}`)).json();
    expect(next.games.map((g: { place_id: number }) => g.place_id)).toEqual([13, 14]);
    expect(next.next_cursor).toBeNull();
    // 90 days up to 2026-12-01: the first day 2026-09-03 has 3 games (100 + 50 + 20).
    expect(body.history).toHaveLength(90);
    expect(body.history[0]).toEqual({ day: '2026-09-03', games: 3, demand: 170 });
    expect(body.history.at(-1)).toEqual({ day: '2026-12-01', games: 4, demand: 300 });
    // Phrases holding "pet" are left out; simulator shares 2 of its 2 games: 2 / (4 + 2 − 2).
    expect(body.related).toEqual([
      { keyword: 'simulator', shared_games: 2, games: 2, jaccard: 0.5 },
      { keyword: 'hospital', shared_games: 1, games: 1, jaccard: 0.25 },
      { keyword: 'mega', shared_games: 1, games: 1, jaccard: 0.25 },
      { keyword: 'tycoon', shared_games: 1, games: 3, jaccard: 0.1667 },
    ]);
  });

  it('refuses a non-keyword and answers 404 for a keyword no game carries', async () => {
    const stop = await get('/api/keywords/the');
    expect(stop.statusCode).toBe(422);
    expect(stop.json()).toMatchObject({ code: 'validation_failed', field: 'params.keyword' });
    expect((await get('/api/keywords/one%20two%20three')).statusCode).toBe(422);
    const missing = await get('/api/keywords/dragon');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      detail: 'No game the service collects uses the keyword "dragon".',
      code: 'not_found',
    });
    // Description keywords count: "fish" is in Tycoon Island's description only.
    const fish = (await get('/api/keywords/fish')).json();
    expect(fish).toMatchObject({ games_total: 1, title_games_total: 0, trend: null });
    expect(fish.games[0]).toMatchObject({ place_id: 16, in_title: false });
  });

  it("scores a draft title: its keywords' demand and competition, closest titles and clone risk", async () => {
    const res = await get(
      `/api/keywords/score-title?title=${encodeURIComponent('Pet Simulator X')}&genre=simulation`,
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(
      body.keywords.map((k: { keyword: string; games: number; title_games: number }) => [
        k.keyword,
        k.games,
        k.title_games,
      ]),
    ).toEqual([
      ['pet', 3, 3],
      ['pet simulator', 2, 2],
      ['simulator', 2, 2],
    ]);
    expect(body.keywords[0].trend).toMatchObject({ keyword: 'pet', games: 3 });
    expect(body.keywords[1].trend).toBeNull();
    expect(body.mean_opportunity_score).toBe(body.keywords[0].trend.opportunity_score);
    // "X" is a copycat marker: the key is "pet simulator", the same as Pet Simulator's; Mega Pet
    // Simulator shares its 14 trigrams of 19.
    expect(body.closest_titles).toEqual([
      { place_id: 11, name: 'Pet Simulator', creator: 'Maker', ccu: 200, similarity: 1 },
      { place_id: 13, name: 'Mega Pet Simulator', creator: 'Maker', ccu: 30, similarity: 0.7368 },
    ]);
    expect(body.clone_risk).toBe(true);

    const fresh = (await get('/api/keywords/score-title?title=Volcano%20Bakery&genre=rpg')).json();
    expect(fresh).toMatchObject({ mean_opportunity_score: null, closest_titles: [], clone_risk: false });
    expect(fresh.keywords.map((k: { keyword: string; games: number }) => [k.keyword, k.games])).toEqual([
      ['volcano', 0],
      ['volcano bakery', 0],
      ['bakery', 0],
    ]);
    const noGenre = await get('/api/keywords/score-title?title=Pet');
    expect(noGenre.statusCode).toBe(422);
  });
});
