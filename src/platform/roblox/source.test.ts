import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  FIXTURES,
  fixture,
  type Handler,
  hang,
  json,
  malformed,
  needsFixtures,
  type ReplayServer,
  type Reply,
  recorded,
  sequence,
  startReplayServer,
  status,
} from '../../../test/helpers/roblox-replay.js';
import { createPlatformSource } from '../index.js';
import { createRobloxSource, type RobloxSource, type RobloxSourceOptions } from './source.js';

const NOW = new Date('2026-11-22T15:37:00Z');
let server: ReplayServer;
let source: RobloxSource | undefined;
let sleeps: number[];

beforeEach(async () => {
  server = await startReplayServer();
  sleeps = [];
});
afterEach(async () => {
  await source?.close();
  source = undefined;
  await server.close();
});

function makeSource(options: RobloxSourceOptions = {}): RobloxSource {
  source = createRobloxSource({
    gamesBaseUrl: server.url,
    apisBaseUrl: server.url,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    maxAttempts: 2,
    timeoutMs: 200,
    sessionId: () => 'session-1',
    ...options,
  });
  return source;
}

const ids = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
const asked = (path: string) =>
  server.requests
    .filter((r) => r.path === path)
    .map((r) => r.query.get('universeIds')!.split(',').map(Number));

/** /v1/games answering every requested id with the real Crossroads item under that id. */
const crossroadsFor: Handler = (req) => {
  const item = (JSON.parse(fixture(FIXTURES.crossroads)) as { data: Record<string, unknown>[] }).data[0]!;
  const requested = req.query.get('universeIds')!.split(',').map(Number);
  return json({ data: requested.map((id) => ({ ...item, id, rootPlaceId: id + 1 })) });
};

describe('Roblox source against the replay server', () => {
  it('is named roblox, cannot replay the past, and is what PLATFORM_SOURCE=roblox builds', async () => {
    const built = createPlatformSource({ platformSource: 'roblox', simulationSeed: 1 });
    expect([built.name, built.replaysPast]).toEqual(['roblox', false]);
    await (built as RobloxSource).close();
  });

  it('fetches the recorded Crossroads game with its real values', async () => {
    server.route('/v1/games', recorded(FIXTURES.crossroads));
    const r = await makeSource().getGames([13058], NOW);
    expect(r.failed).toEqual([]);
    expect(r.items.get(13058)).toMatchObject({
      rootPlaceId: 1818,
      name: 'Classic: Crossroads',
      creator: { id: 1, name: 'Roblox', type: 'User' },
      genre: 'action',
      playing: 21,
      visits: 10809119,
      favorites: 229776,
      maxPlayers: 8,
    });
    expect(asked('/v1/games')).toEqual([[13058]]);
  });

  it('splits 120 universe ids into requests of 50, 50 and 20', async () => {
    server.route('/v1/games', crossroadsFor);
    const r = await makeSource().getGames(ids(1000, 120), NOW);
    expect(asked('/v1/games').map((b) => b.length)).toEqual([50, 50, 20]);
    expect(asked('/v1/games').flat()).toEqual(ids(1000, 120));
    expect(r.items.size).toBe(120);
    expect(r.items.get(1119)?.playing).toBe(21);
    expect(r.failed).toEqual([]);
  });

  it('asks once per id even when an id is repeated, and fails ids that cannot exist', async () => {
    server.route('/v1/games', crossroadsFor);
    const r = await makeSource().getGames([7, 7, 0, -3, 1.5], NOW);
    expect(asked('/v1/games')).toEqual([[7]]);
    expect([...r.items.keys()]).toEqual([7]);
    expect(r.failed).toEqual([0, -3, 1.5]);
  });

  it('fetches the recorded votes and splits 51 ids into votes requests of 50 and 1', async () => {
    server.route('/v1/games/votes', recorded(FIXTURES.votes));
    const r = await makeSource().getVotes([5988568657, ...ids(1, 50)], NOW);
    expect(asked('/v1/games/votes').map((b) => b.length)).toEqual([50, 1]);
    expect(r.items).toEqual(
      new Map([[5988568657, { universeId: 5988568657, upVotes: 8922, downVotes: 670 }]]),
    );
    expect(r.failed).toEqual(ids(1, 50));
  });

  it('reads the recorded favourites count and fails the id whose universe does not exist', async () => {
    server.route('/v1/games/1685831367/favorites/count', recorded(FIXTURES.favoritesCount));
    server.route('/v1/games/404/favorites/count', status(404));
    const r = await makeSource().getFavoriteCounts([1685831367, 404], NOW);
    expect(r).toEqual({ items: new Map([[1685831367, 0]]), failed: [404] });
  });

  it('resolves the recorded place 1818 to universe 13058, and an unknown place to nothing', async () => {
    server.route('/universes/v1/places/1818/universe', recorded(FIXTURES.place1818));
    server.route('/universes/v1/places/5/universe', json({ universeId: null }));
    server.route('/universes/v1/places/6/universe', malformed);
    const s = makeSource();
    expect(await s.placeToUniverse(1818, NOW)).toBe(13058);
    expect(await s.placeToUniverse(5, NOW)).toBeUndefined();
    expect(await s.placeToUniverse(6, NOW)).toBeUndefined();
    expect(await s.placeToUniverse(404, NOW)).toBeUndefined();
  });

  it('caps the requests in flight across many favourite counts at the concurrency', async () => {
    for (const id of ids(1, 12)) {
      server.route(`/v1/games/${id}/favorites/count`, {
        status: 200,
        body: '{"favoritesCount":3}',
        delayMs: 25,
      });
    }
    const r = await makeSource({ concurrency: 2 }).getFavoriteCounts(ids(1, 12), NOW);
    expect(r.items.size).toBe(12);
    expect(server.maxInFlight).toBe(2);
  });
});

describe('faults make failed ids, never zeros', () => {
  const faults: [string, Reply | Handler][] = [
    ['500 forever', status(500)],
    ['malformed JSON', malformed],
    ['a response that never comes', hang],
    ['a 200 without data', json({ errors: [] })],
  ];

  async function failsEveryId(reply: Reply | Handler): Promise<void> {
    server.route('/v1/games', reply);
    server.route('/v1/games/votes', reply);
    const s = makeSource();
    expect(await s.getGames([13058, 1685831367], NOW)).toEqual({
      items: new Map(),
      failed: [13058, 1685831367],
    });
    expect(await s.getVotes([5988568657], NOW)).toEqual({ items: new Map(), failed: [5988568657] });
  }

  it.each(faults)('fails every id of the batch on %s', (_, reply) => failsEveryId(reply));

  it('fails every id of the batch on the recorded 400', needsFixtures(FIXTURES.badIds400), () =>
    failsEveryId(recorded(FIXTURES.badIds400, 400)),
  );

  it('succeeds after a 429 with Retry-After, having waited what it said', async () => {
    server.route('/v1/games', sequence(status(429, { 'retry-after': '2' }), recorded(FIXTURES.crossroads)));
    const r = await makeSource().getGames([13058], NOW);
    expect(r.items.get(13058)?.visits).toBe(10809119);
    expect(sleeps).toEqual([2000]);
  });

  it('succeeds after one 500', async () => {
    server.route('/v1/games', sequence(status(500), recorded(FIXTURES.crossroads)));
    const r = await makeSource().getGames([13058], NOW);
    expect([[...r.items.keys()], r.failed]).toEqual([[13058], []]);
    expect(server.requests).toHaveLength(2);
  });

  it('fails only the batch that failed and keeps the others', async () => {
    let n = 0;
    server.route('/v1/games', (req) => (n++ === 1 ? status(400) : crossroadsFor(req)));
    const r = await makeSource({ concurrency: 1 }).getGames(ids(1, 60), NOW);
    expect(r.failed).toEqual(ids(51, 10));
    expect(r.items.size).toBe(50);
  });
});

describe('game passes', () => {
  const pass = (id: number, price: number | null) => ({
    id,
    name: `Pass ${id}`,
    displayName: `Pass ${id}`,
    productId: id * 10,
    price,
    sellerName: 'MightyPart Games',
    sellerId: 5850082,
  });
  const path = '/v1/games/1685831367/game-passes';

  it('follows nextPageCursor and reads a pass that is not for sale as price null', async () => {
    // Body shape from the games.roblox.com swagger (RoZod gamesv1.ts); no real recording exists.
    server.route(path, (req) =>
      req.query.get('cursor') === 'p2'
        ? json({ previousPageCursor: 'p1', nextPageCursor: null, data: [pass(3, 25)] })
        : json({ previousPageCursor: null, nextPageCursor: 'p2', data: [pass(1, 100), pass(2, null)] }),
    );
    expect(await makeSource().getGamePasses(1685831367, NOW)).toEqual([
      { id: 1, name: 'Pass 1', price: 100 },
      { id: 2, name: 'Pass 2', price: null },
      { id: 3, name: 'Pass 3', price: 25 },
    ]);
    expect(server.requests.map((r) => [...r.query])).toEqual([
      [
        ['limit', '100'],
        ['sortOrder', 'Asc'],
      ],
      [
        ['limit', '100'],
        ['sortOrder', 'Asc'],
        ['cursor', 'p2'],
      ],
    ]);
  });

  it('reports a gap, not a shorter list, when a later page fails', async () => {
    server.route(path, (req) =>
      req.query.get('cursor') ? status(500) : json({ nextPageCursor: 'p2', data: [pass(1, 100)] }),
    );
    expect(await makeSource().getGamePasses(1685831367, NOW)).toBeUndefined();
  });

  it('reports a gap when the cursor chain loops', async () => {
    server.route(path, json({ nextPageCursor: 'same', data: [pass(1, 100)] }));
    expect(await makeSource().getGamePasses(1685831367, NOW)).toBeUndefined();
    expect(server.requests).toHaveLength(2);
  });
});

describe('discovery', () => {
  const tiles = () =>
    (JSON.parse(fixture(FIXTURES.recommendations)) as { games: Record<string, unknown>[] }).games;

  it('collects the universe ids of every chart, page by page, once each', async () => {
    // Real game tiles (the recommendations recording has the same tile fields) in the explore envelope.
    const [a, b, c, d] = tiles();
    server.route('/explore-api/v1/get-sort-content', (req) => {
      const sort = req.query.get('sortId');
      if (sort === 'top-playing-now') {
        return req.query.get('pageToken') === 't2'
          ? json({ games: [c], nextPageToken: '' })
          : json({ games: [a, b], nextPageToken: 't2' });
      }
      if (sort === 'top-trending') return json({ games: [b, d], nextPageToken: null });
      return status(500);
    });
    const found = await makeSource().discover(NOW);
    expect(found).toEqual([2711375305, 4778845442, 4777817887, 1686885941]);
    expect(server.requests.every((r) => r.query.get('sessionId') === 'session-1')).toBe(true);
  });

  it('stops after discoveryPages pages of one chart', async () => {
    let page = 0;
    server.route('/explore-api/v1/get-sort-content', () =>
      json({ games: [{ universeId: ++page }], nextPageToken: 'more' }),
    );
    const found = await makeSource({ discoverySorts: ['top-playing-now'], discoveryPages: 2 }).discover(NOW);
    expect(found).toEqual([1, 2]);
  });
});
