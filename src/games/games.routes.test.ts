import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { bearer, type LoggedIn, signedIn } from '../../test/helpers/auth.js';
import { testEngines } from '../../test/helpers/db.js';
import { forgetReadings, type GameSeed, seedGames, seedHourly } from '../../test/helpers/games.js';
import { testMarket } from '../../test/helpers/market.js';
import { fixedClock } from '../clock.js';
import { backfill, collectorDeps } from '../market/index.js';
import { insertRollups, replacePasses } from '../market/market.repo.js';

const NOW = new Date('2026-11-22T15:05:00Z');
const OBSERVED = new Date('2026-11-22T15:00:00Z');
const HOUR = 3_600_000;

const GAMES: GameSeed[] = [
  {
    universeId: 1001,
    placeId: 5001,
    name: 'Pokémon Legends',
    creatorName: 'NintendoFan',
    genre: 'rpg',
    ccu: 500,
  },
  { universeId: 1002, placeId: 5002, name: 'Pokemon Tycoon', creatorName: 'BigGames', ccu: 800 },
  {
    universeId: 1003,
    placeId: 5003,
    name: 'Adopt Me!',
    description: 'Raise and trade pets.',
    creatorName: 'DreamCraft',
    creatorType: 'Group',
    creatorId: 295182,
    genre: 'roleplay_avatar_sim',
    maxPlayers: 48,
    createdAt: new Date('2017-07-14T00:00:00Z'),
    updatedAt: new Date('2026-11-20T10:30:00Z'),
    ccu: 100_000,
    visits: 40_000_000_000,
    favorites: 25_000_000,
    upVotes: 900,
    downVotes: 100,
  },
  { universeId: 1004, placeId: 5004, name: 'Pet Simulator 99', creatorName: 'BigGames', ccu: 300_000 },
  { universeId: 1005, placeId: 5005, name: 'Adopt Me Tycoon', creatorName: 'TycoonKing', ccu: 200_000 },
  { universeId: 4242, placeId: 5006, name: 'Tiny Obby', creatorName: 'Nobody', genre: 'obby_platformer' },
  { universeId: 1007, placeId: 5007, name: 'Tower 4242', creatorName: 'Builderman', ccu: 50 },
];
const byUniverse = new Map(GAMES.map((g) => [g.universeId, g]));
/** The search summary of a seeded game, as the API should show it. */
const summary = (universeId: number) => {
  const g = byUniverse.get(universeId)!;
  return {
    place_id: g.placeId,
    universe_id: g.universeId,
    name: g.name,
    creator: g.creatorName,
    genre: g.genre ?? 'simulation',
    ccu: g.ccu ?? 0,
  };
};

describe.each(testEngines())('games routes on %s', (engine) => {
  let t: TestApp;
  let explorer: LoggedIn;

  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock(NOW) });
    const db = t.testDb.db;
    await seedGames(db, GAMES, OBSERVED);
    await forgetReadings(db, 4242);
    await replacePasses(
      db,
      1003,
      [
        { id: 1, name: 'VIP', price: 400 },
        { id: 2, name: 'Pet pack', price: 199 },
      ],
      OBSERVED,
    );
    // Adopt Me!: the 24 hours before the window (mean 100.5), the window itself (200.25 … 223.25,
    // mean 211.75), and one older hour that must not count.
    const previousStart = new Date('2026-11-20T16:00:00Z');
    await seedHourly(db, 1003, new Date(previousStart.getTime() - HOUR), [99_999]);
    await seedHourly(
      db,
      1003,
      previousStart,
      Array.from({ length: 24 }, (_, i) => 100 + (i % 2)),
    );
    await seedHourly(
      db,
      1003,
      new Date('2026-11-21T16:00:00Z'),
      Array.from({ length: 24 }, (_, i) => 200.25 + i),
    );
    explorer = await signedIn(t, { plan: 'Explorer' });
  });
  afterAll(async () => {
    await t.close();
  });

  const search = async (query: string, who: Record<string, string> = bearer(explorer)) =>
    t.app.inject({ method: 'GET', url: `/api/search?${query}`, headers: who });
  const results = async (query: string) => {
    const res = await search(query);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { results: { universe_id: number }[]; total: number };
    return { ids: body.results.map((r) => r.universe_id), total: body.total, body };
  };

  describe('GET /api/search', () => {
    it('finds both Pokémon games whatever the case and accents, busiest first', async () => {
      const expected = { results: [summary(1002), summary(1001)], total: 2 };
      for (const q of ['pokemon', 'POKÉMON', '  Pokemon ']) {
        expect((await results(`q=${encodeURIComponent(q)}`)).body).toEqual(expected);
      }
    });

    it('ranks the whole name above a busier game whose name only starts with the query', async () => {
      expect(await results('q=adopt%20me')).toMatchObject({ ids: [1003, 1005], total: 2 });
      expect(await results('q=adopt')).toMatchObject({ ids: [1005, 1003], total: 2 });
    });

    it('tolerates typos, ranking fuzzy matches after literal ones', async () => {
      expect(await results('q=adpot%20me')).toMatchObject({ ids: [1005, 1003], total: 2 });
      expect(await results('q=pokmon')).toMatchObject({ ids: [1002, 1001], total: 2 });
      // "pokemon legends" is the whole name of one game and a near miss of the other.
      expect(await results('q=pok%C3%A9mon%20legends')).toMatchObject({ ids: [1001, 1002], total: 2 });
    });

    it('matches creators', async () => {
      expect(await results('q=biggames')).toMatchObject({ ids: [1004, 1002], total: 2 });
    });

    it('matches a numeric query to a universe or place id first, then to names', async () => {
      const { body } = await results('q=4242');
      expect(body).toEqual({ results: [summary(4242), summary(1007)], total: 2 });
      // The never-read game is listed with ccu 0 rather than left out.
      expect(body.results[0]).toMatchObject({ name: 'Tiny Obby', ccu: 0 });
      expect(await results('q=5003')).toMatchObject({ ids: [1003], total: 1 });
    });

    it('pages through the matches with limit and offset, total counting them all', async () => {
      expect(await results('q=pokemon&limit=1')).toMatchObject({ ids: [1002], total: 2 });
      expect(await results('q=pokemon&limit=1&offset=1')).toMatchObject({ ids: [1001], total: 2 });
      expect(await results('q=pokemon&offset=5')).toMatchObject({ ids: [], total: 2 });
      expect(await results('q=zzzzqqqq')).toMatchObject({ ids: [], total: 0 });
      expect(await results('q=%21%21%21')).toMatchObject({ ids: [], total: 0 });
    });

    it.each([
      ['q=', 'query.q'],
      ['q=%20%20%20', 'query.q'],
      ['limit=5', 'query.q'],
      [`q=${'a'.repeat(101)}`, 'query.q'],
      ['q=pokemon&limit=0', 'query.limit'],
      ['q=pokemon&limit=101', 'query.limit'],
      ['q=pokemon&offset=-1', 'query.offset'],
    ])('refuses %s with 422 naming %s', async (query, field) => {
      const res = await search(query);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'validation_failed', field });
    });

    it('refuses anonymous callers and ingest-only keys, and serves read keys', async () => {
      const anonymous = await search('q=pokemon', {});
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toMatchObject({ code: 'not_authenticated' });
      const key = async (scopes: string[]) => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/keys',
          headers: bearer(explorer),
          payload: { name: scopes.join('+'), scopes },
        });
        return { 'x-api-key': (res.json() as { key: string }).key };
      };
      const read = await search('q=pokemon', await key(['read']));
      expect(read.statusCode).toBe(200);
      expect(read.json()).toMatchObject({ total: 2 });
      const ingest = await search('q=pokemon', await key(['sdk:ingest']));
      expect(ingest.statusCode).toBe(403);
      expect(ingest.json()).toMatchObject({ code: 'insufficient_scope' });
    });
  });

  describe('GET /api/game/{place_id}', () => {
    const detail = async (placeId: number | string, who: Record<string, string> = bearer(explorer)) =>
      t.app.inject({ method: 'GET', url: `/api/game/${placeId}`, headers: who });

    it('answers every field of a collected game, with 24 hourly points and the 24 h trend', async () => {
      const res = await detail(5003);
      expect(res.statusCode).toBe(200);
      const history = Array.from({ length: 24 }, (_, i) => ({
        ts: new Date(Date.parse('2026-11-21T16:00:00Z') + i * HOUR).toISOString(),
        ccu: 200 + i,
      }));
      expect(res.json()).toEqual({
        place_id: 5003,
        universe_id: 1003,
        name: 'Adopt Me!',
        description: 'Raise and trade pets.',
        creator: 'DreamCraft',
        creator_type: 'Group',
        creator_id: 295182,
        genre: 'roleplay_avatar_sim',
        ccu: 100_000,
        visits: 40_000_000_000,
        likes: 900,
        dislikes: 100,
        favorites: 25_000_000,
        like_ratio: 0.9,
        max_players: 48,
        created: '2017-07-14T00:00:00.000Z',
        updated: '2026-11-20T10:30:00.000Z',
        gamepass_count: 2,
        observed_at: '2026-11-22T15:00:00.000Z',
        ccu_history: history,
        // 100·tanh(ln((211.75 + 1) / (100.5 + 1))) = 62.918…
        ml_prediction: { trend_score: 62.92, growth_probability: null },
        clones: [],
      });
    });

    it('shows a game never read as zeros and nulls, with no history and no trend', async () => {
      const res = await detail(5006);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        universe_id: 4242,
        ccu: 0,
        visits: 0,
        likes: 0,
        dislikes: 0,
        favorites: 0,
        like_ratio: null,
        max_players: null,
        created: null,
        updated: null,
        gamepass_count: null,
        observed_at: null,
        ccu_history: [],
        ml_prediction: { trend_score: null, growth_probability: null },
        clones: [],
      });
    });

    it('answers the daily means of the last 30 UTC days with history=daily, oldest first', async () => {
      // 2026-10-23 is 30 days before NOW's day (too old); 10-24 .. 11-22 count, with a gap on 11-01.
      const day = (d: string) => new Date(`${d}T00:00:00Z`);
      await insertRollups(
        t.testDb.db,
        'daily',
        [
          ['2026-10-23', 999],
          ['2026-10-24', 150.4],
          ['2026-10-31', 170.6],
          ['2026-11-22', 205],
        ].map(([d, v]) => ({
          universeId: 1003,
          at: day(d as string),
          ccuAvg: v as number,
          ccuMax: 300,
          samples: 288,
          visits: 0,
        })),
      );
      const res = await t.app.inject({ url: '/api/game/5003?history=daily', headers: bearer(explorer) });
      expect(res.statusCode).toBe(200);
      expect(res.json().ccu_history).toEqual([
        { ts: '2026-10-24T00:00:00.000Z', ccu: 150 },
        { ts: '2026-10-31T00:00:00.000Z', ccu: 171 },
        { ts: '2026-11-22T00:00:00.000Z', ccu: 205 },
      ]);
      const hourly = await t.app.inject({ url: '/api/game/5003?history=hourly', headers: bearer(explorer) });
      expect(hourly.json().ccu_history).toHaveLength(24);
      const bad = await t.app.inject({ url: '/api/game/5003?history=weekly', headers: bearer(explorer) });
      expect(bad.statusCode).toBe(422);
      expect(bad.json()).toEqual({
        detail: 'query.history must be one of: hourly, daily',
        code: 'validation_failed',
        field: 'query.history',
      });
    });

    it('answers 404 for a place it does not collect and 422 for a malformed id', async () => {
      const missing = await detail(999_999);
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ detail: 'No game with place id 999999 is known.', code: 'not_found' });
      for (const bad of ['abc', '0', '1.5']) {
        const res = await detail(bad);
        expect(res.statusCode).toBe(422);
        expect(res.json()).toMatchObject({ code: 'validation_failed', field: 'path.place_id' });
      }
      expect((await detail(5003, {})).statusCode).toBe(401);
    });

    it('gives Explorer and Builder the same shape while no forecast exists', async () => {
      const builder = await signedIn(t, { plan: 'Builder' });
      const a = await detail(5003);
      const b = await detail(5003, bearer(builder));
      expect(b.statusCode).toBe(200);
      expect(b.json()).toEqual(a.json());
      expect((b.json() as { ml_prediction: unknown }).ml_prediction).toEqual({
        trend_score: 62.92,
        growth_probability: null,
      });
    });
  });

  it('describes both routes in /openapi.json', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json?prefix=/api' })).json() as {
      paths: Record<string, { get: { responses: Record<string, unknown> } }>;
      components: { schemas: Record<string, unknown> };
    };
    expect(Object.keys(doc.paths['/api/search']!.get.responses).sort()).toEqual([
      '200',
      '401',
      '403',
      '422',
      '429',
      '500',
      '503',
    ]);
    expect(Object.keys(doc.paths['/api/game/{place_id}']!.get.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '414',
      '422',
      '429',
      '500',
      '503',
    ]);
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['GameDetail', 'GameSearchResult']),
    );
  });
});

/** A long description (over 20 words once the name is out) that a copycat took and renamed. */
const petStory = (name: string) =>
  `Welcome to ${name}! Raise adorable pets, decorate your dream house, trade rare eggs with friends, ` +
  'earn bucks at your job, ride a neon unicorn around Adoption Island and join weekly events for limited items.';
const template = (name: string) =>
  `${name}: a roleplay experience. Join the community and play with friends!`;

describe.each(testEngines())('clones in game detail on %s', (engine) => {
  let t: TestApp;
  const roleplay = (universeId: number, name: string, ccu: number, description = ''): GameSeed => ({
    universeId,
    placeId: universeId + 10_000,
    name,
    creatorName: `Creator ${universeId}`,
    genre: 'roleplay_avatar_sim',
    ccu,
    description,
  });
  const CLONE_GAMES: GameSeed[] = [
    roleplay(1, 'Adopt Me!', 100_000, template('Adopt Me!')),
    roleplay(2, 'Adopt Me! [UPDATE]', 50, template('Adopt Me!')),
    roleplay(3, 'adopt me 2', 500, template('adopt me 2')),
    roleplay(4, 'NEW Adopt Me X', 5),
    roleplay(5, 'Adoptable Pets', 90_000, template('Adoptable Pets')),
    roleplay(6, 'Adopt Mee', 80_000),
    { ...roleplay(7, 'Adopt Me!', 70_000), genre: 'rpg' },
    roleplay(8, 'Pet Paradise', 3000, petStory('Pet Paradise')),
    roleplay(9, 'Animal Haven', 2000, petStory('Animal Haven')),
    roleplay(10, 'Berry Avenue RP', 4000, template('Berry Avenue RP')),
  ];

  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock(NOW) });
    await seedGames(t.testDb.db, CLONE_GAMES, OBSERVED);
  });
  afterAll(async () => {
    await t.close();
  });

  const clonesOf = async (universeId: number) => {
    const user = await signedIn(t, { plan: 'Explorer' });
    const res = await t.app.inject({ url: `/api/game/${universeId + 10_000}`, headers: bearer(user) });
    expect(res.statusCode).toBe(200);
    return (res.json() as { clones: unknown[] }).clones;
  };

  it('lists the copycat variants of a name, most similar then busiest first, and not a different game', async () => {
    expect(await clonesOf(1)).toEqual([
      { place_id: 10_003, name: 'adopt me 2', creator: 'Creator 3', similarity: 1 },
      { place_id: 10_002, name: 'Adopt Me! [UPDATE]', creator: 'Creator 2', similarity: 1 },
      { place_id: 10_004, name: 'NEW Adopt Me X', creator: 'Creator 4', similarity: 1 },
    ]);
    // From the copycat's side the original comes first (busiest), never the copycat itself.
    expect(await clonesOf(4)).toEqual([
      expect.objectContaining({ place_id: 10_001, similarity: 1 }),
      expect.objectContaining({ place_id: 10_003 }),
      expect.objectContaining({ place_id: 10_002 }),
    ]);
  });

  it('ignores a same-name game of another genre and a merely similar name', async () => {
    expect(await clonesOf(7)).toEqual([]);
    expect(await clonesOf(5)).toEqual([]);
    expect(await clonesOf(6)).toEqual([]);
  });

  it('finds a long description copied under another name, but not a shared short template', async () => {
    expect(await clonesOf(8)).toEqual([
      { place_id: 10_009, name: 'Animal Haven', creator: 'Creator 9', similarity: 1 },
    ]);
    expect(await clonesOf(10)).toEqual([]);
  });
});

describe('game detail after a real backfill', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ clock: fixedClock(NOW) });
    // With the market views refreshed afterwards, so /api/trending can be compared with game detail.
    await backfill(collectorDeps(t.testDb.db, testMarket(), { info() {}, warn() {} }), 3, NOW);
  });
  afterAll(async () => {
    await t.close();
  });

  it('has 24 hourly points ending with the current hour for the busiest game', async () => {
    const market = testMarket();
    const busiest = (await market.discover(NOW))
      .map((id) => market.gameAt(id, NOW)!)
      .sort((a, b) => b.playing - a.playing)[0]!;
    const res = await t.app.inject({
      url: `/api/game/${busiest.rootPlaceId}`,
      headers: bearer(await signedIn(t, { plan: 'Builder' })),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as {
      ccu: number;
      ccu_history: { ts: string }[];
      ml_prediction: { trend_score: number | null };
    };
    expect(body.ccu).toBe(busiest.playing);
    expect(body.ccu_history).toHaveLength(24);
    expect(body.ccu_history[0]!.ts).toBe('2026-11-21T16:00:00.000Z');
    expect(body.ccu_history[23]!.ts).toBe('2026-11-22T15:00:00.000Z');
    expect(body.ml_prediction.trend_score).toEqual(expect.any(Number));
  });

  it('gives each game the trend score of GET /api/trending?period=24h', async () => {
    const who = bearer(await signedIn(t, { plan: 'Builder' }));
    const trending = await t.app.inject({ url: '/api/trending?period=24h&limit=5', headers: who });
    expect(trending.statusCode).toBe(200);
    const games = (trending.json() as { games: { place_id: number; trend_score: number | null }[] }).games;
    expect(games).toHaveLength(5);
    for (const g of games) {
      const res = await t.app.inject({ url: `/api/game/${g.place_id}`, headers: who });
      expect(g.trend_score).toEqual(expect.any(Number));
      expect((res.json() as { ml_prediction: { trend_score: number } }).ml_prediction.trend_score).toBe(
        g.trend_score,
      );
    }
  });
});
