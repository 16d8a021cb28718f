import { readFileSync } from 'node:fs';
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
import {
  collectionBudgetMs,
  createRobloxSource,
  type RobloxSource,
  type RobloxSourceOptions,
} from './source.js';

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
    // Long enough that a loaded machine does not turn a slow answer into a retry (and a second
    // request the assertions would count); the tests of a response that never comes set 200.
    timeoutMs: 2_000,
    sessionId: () => 'session-1',
    ...options,
  });
  return source;
}

/** A hand-made fixture of ours (test/fixtures/roblox-game-passes), replayed byte for byte. */
const handMade = (name: string): Reply => ({
  status: 200,
  body: readFileSync(new URL(`../../../test/fixtures/roblox-game-passes/${name}`, import.meta.url), 'utf8'),
  headers: { 'content-type': 'application/json; charset=utf-8' },
});

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
    const built = createPlatformSource({
      platformSource: 'roblox',
      simulationSeed: 1,
      simulationGames: 5000,
      collectIntervalSec: 300,
    });
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
    const s = makeSource({ timeoutMs: 200 });
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
  /** A pass of the legacy games.roblox.com list (shape from its swagger, as RoZod generates it). */
  const pass = (id: number, price: number | null) => ({
    id,
    name: `Pass ${id}`,
    displayName: `Pass ${id}`,
    productId: id * 10,
    price,
    sellerName: 'MightyPart Games',
    sellerId: 5850082,
  });
  const legacy = '/v1/games/1685831367/game-passes';
  const current = '/game-passes/v1/universes/1685831367/game-passes';
  const queries = (path: string) => server.requests.filter((r) => r.path === path).map((r) => [...r.query]);
  /** Our hand-made pages of the current endpoint (test/fixtures/roblox-game-passes/README.md): not recordings. */
  const page1 = handMade('universe-passes.page1.json');
  const page2 = handMade('universe-passes.page2.json');
  const fromFixtures = [
    { id: 700000101, name: 'VIP', price: 250 },
    { id: 700000102, name: 'Double Coins', price: 99 },
    { id: 700000103, name: 'Founder Badge', price: null },
    { id: 700000104, name: 'Radio', price: 25 },
  ];
  const legacyList = json({
    previousPageCursor: null,
    nextPageCursor: null,
    data: [pass(1, 100), pass(2, null)],
  });
  const fromLegacy = [
    { id: 1, name: 'Pass 1', price: 100 },
    { id: 2, name: 'Pass 2', price: null },
  ];
  const pagedCurrent: Handler = (req) => (req.query.get('pageToken') === 'page-2-token' ? page2 : page1);

  it('reads the current endpoint page by page, an off-sale pass as price null, and never the legacy one', async () => {
    server.route(current, pagedCurrent);
    server.route(legacy, legacyList);
    expect(await makeSource().getGamePasses(1685831367, NOW)).toEqual(fromFixtures);
    expect(queries(current)).toEqual([
      [
        ['passView', 'Full'],
        ['pageSize', '100'],
      ],
      [
        ['passView', 'Full'],
        ['pageSize', '100'],
        ['pageToken', 'page-2-token'],
      ],
    ]);
    expect(queries(legacy)).toEqual([]);
  });

  it('takes a null nextPageToken for the last page, and an empty list for a game without passes', async () => {
    server.route(current, json({ gamePasses: [], nextPageToken: null }));
    expect(await makeSource().getGamePasses(1685831367, NOW)).toEqual([]);
    expect(queries(legacy)).toEqual([]);
  });

  const currentFaults: [string, Reply | Handler][] = [
    ['404', status(404)],
    ['500 forever', status(500)],
    ['malformed JSON', malformed],
    ['a 200 without gamePasses', json({ data: [], nextPageCursor: null })],
    ['a pass whose price is not a number', json({ gamePasses: [{ id: 5, name: 'VIP', price: 'free' }] })],
    ['a pass for sale without a price', json({ gamePasses: [{ id: 5, name: 'VIP', isForSale: true }] })],
    ['a pass without an id', json({ gamePasses: [{ name: 'VIP', price: 10 }], nextPageToken: '' })],
    ['a nextPageToken that is not a string', json({ gamePasses: [], nextPageToken: 7 })],
    ['a later page that fails', (req) => (req.query.get('pageToken') ? status(500) : page1)],
    ['a token chain that loops', json({ gamePasses: [], nextPageToken: 'same' })],
  ];

  it.each(currentFaults)('falls back to the legacy endpoint on %s', async (_, reply) => {
    server.route(current, reply);
    server.route(legacy, legacyList);
    expect(await makeSource().getGamePasses(1685831367, NOW)).toEqual(fromLegacy);
    expect(queries(current).length).toBeGreaterThan(0);
    expect(queries(legacy)).toEqual([
      [
        ['limit', '100'],
        ['sortOrder', 'Asc'],
      ],
    ]);
  });

  it('falls back to the legacy endpoint when the current host is unreachable', async () => {
    const down = await startReplayServer();
    const unreachable = down.url;
    await down.close(); // nothing listens there any more: connections are refused
    server.route(legacy, legacyList);
    const s = makeSource({ apisBaseUrl: unreachable });
    expect(await s.getGamePasses(1685831367, NOW)).toEqual(fromLegacy);
    expect(sleeps).toEqual([375]); // the current endpoint was retried once (maxAttempts 2) before the fallback
  });

  it('logs a malformed page of the current endpoint (how a changed endpoint shows) before falling back', async () => {
    const warned: { obj: Record<string, unknown>; msg: string }[] = [];
    server.route(current, json({ gamePasses: [{ id: 5, name: 'VIP', price: 'free' }], nextPageToken: '' }));
    server.route(legacy, legacyList);
    const s = makeSource({ log: { warn: (obj, msg) => warned.push({ obj, msg }) } });
    expect(await s.getGamePasses(1685831367, NOW)).toEqual(fromLegacy);
    expect(warned).toEqual([
      {
        obj: { what: 'game-passes', universeId: 1685831367, page: 0 },
        msg: 'roblox game-pass page malformed',
      },
    ]);
  });

  it('reports a gap when both endpoints fail', async () => {
    server.route(current, status(404));
    server.route(legacy, status(500));
    expect(await makeSource().getGamePasses(1685831367, NOW)).toBeUndefined();
  });

  it('follows the legacy nextPageCursor and reads a pass that is not for sale as price null', async () => {
    // Body shape from the games.roblox.com swagger (RoZod gamesv1.ts); no real recording exists.
    server.route(legacy, (req) =>
      req.query.get('cursor') === 'p2'
        ? json({ previousPageCursor: 'p1', nextPageCursor: null, data: [pass(3, 25)] })
        : json({ previousPageCursor: null, nextPageCursor: 'p2', data: [pass(1, 100), pass(2, null)] }),
    );
    expect(await makeSource().getGamePasses(1685831367, NOW)).toEqual([
      { id: 1, name: 'Pass 1', price: 100 },
      { id: 2, name: 'Pass 2', price: null },
      { id: 3, name: 'Pass 3', price: 25 },
    ]);
    expect(queries(legacy)).toEqual([
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

  it('reports a gap, not a shorter list, when a later legacy page fails', async () => {
    server.route(legacy, (req) =>
      req.query.get('cursor') ? status(500) : json({ nextPageCursor: 'p2', data: [pass(1, 100)] }),
    );
    expect(await makeSource().getGamePasses(1685831367, NOW)).toBeUndefined();
  });

  it('reports a gap when the legacy cursor chain loops', async () => {
    server.route(legacy, json({ nextPageCursor: 'same', data: [pass(1, 100)] }));
    expect(await makeSource().getGamePasses(1685831367, NOW)).toBeUndefined();
    expect(queries(legacy)).toHaveLength(2);
  });

  it('asks nothing for a universe id that cannot exist', async () => {
    expect(await makeSource().getGamePasses(-4, NOW)).toBeUndefined();
    expect(server.requests).toEqual([]);
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

describe('the time budget of a collection', () => {
  type Line = { level: 'warn'; obj: Record<string, unknown>; msg: string };
  let lines: Line[];
  const log = {
    warn: (obj: Record<string, unknown>, msg: string) => lines.push({ level: 'warn', obj, msg }),
  };
  const cutLines = () =>
    lines.filter((l) => l.msg.startsWith('roblox collection ran out of its time budget'));
  const failedLines = () => lines.filter((l) => l.msg === 'roblox request failed');
  const LATER = new Date(NOW.getTime() + 5 * 60_000);
  const charts = () =>
    server.route(
      '/explore-api/v1/get-sort-content',
      json({ games: [{ universeId: 13058 }], nextPageToken: null }),
    );

  beforeEach(() => {
    lines = [];
  });

  // Per-request timeouts (10 s here) are far longer than the budget: only the budget can end these reads.
  const budgeted = (budgetMs: number) =>
    makeSource({ collectionBudgetMs: budgetMs, timeoutMs: 10_000, log, discoverySorts: ['top-playing-now'] });

  it('returns what it has when an endpoint never answers, reports the cut games as failed, and logs the cut reads once', {
    timeout: 20_000,
  }, async () => {
    charts();
    server.route('/v1/games', hang);
    const s = budgeted(300);
    expect(await s.discover(NOW)).toEqual([13058]);
    // 60 ids: two batches, both hanging until the budget runs out.
    const games = await s.getGames(ids(1, 60), NOW);
    expect(games).toEqual({ items: new Map(), failed: ids(1, 60) });
    // After the deadline a read is refused before any request, and the pass list gets no fallback.
    expect(await s.getGamePasses(1685831367, NOW)).toBeUndefined();
    expect(server.requests.filter((r) => r.path.includes('game-passes'))).toEqual([]);
    expect(cutLines()).toEqual([]); // counted until the collection closes
    await s.close();
    source = undefined;
    expect(cutLines()).toEqual([
      {
        level: 'warn',
        obj: { collection: NOW.toISOString(), budgetMs: 300, cutReads: 3 },
        msg: 'roblox collection ran out of its time budget; the reads it cut are gaps this cycle',
      },
    ]);
    expect(failedLines()).toEqual([]); // no line per cut read
  });

  it('keeps the reads that finished before the deadline', { timeout: 20_000 }, async () => {
    charts();
    // The batch of ids 1-50 answers; the batch of 51-60 never does.
    server.route('/v1/games', (req) =>
      req.query.get('universeIds')!.startsWith('1,') ? crossroadsFor(req) : hang,
    );
    const s = budgeted(300);
    await s.discover(NOW);
    const games = await s.getGames(ids(1, 60), NOW);
    expect([...games.items.keys()]).toEqual(ids(1, 50));
    expect(games.failed).toEqual(ids(51, 10));
  });

  it('logs the cut reads of a collection when the next one opens, and refuses late reads of the old one', {
    timeout: 20_000,
  }, async () => {
    charts();
    server.route('/v1/games', hang);
    const s = budgeted(200);
    await s.discover(NOW);
    expect((await s.getGames([13058], NOW)).failed).toEqual([13058]);
    await s.discover(LATER);
    expect(cutLines().map((l) => l.obj)).toEqual([
      { collection: NOW.toISOString(), budgetMs: 200, cutReads: 1 },
    ]);
    // A straggling read of the closed collection: no new budget, no request, and a line of its own.
    server.route('/v1/games', crossroadsFor);
    const before = server.requests.length;
    expect(await s.getGames([13058], NOW)).toEqual({ items: new Map(), failed: [13058] });
    expect(server.requests).toHaveLength(before);
    expect(failedLines().map((l) => l.obj.reason)).toEqual(['aborted']);
    // The new collection has its own budget.
    expect((await s.getGames([13058], LATER)).items.get(13058)?.playing).toBe(21);
  });

  it('cuts 30 batches queued at once without a listener-leak warning from Node', {
    timeout: 20_000,
  }, async () => {
    charts();
    server.route('/v1/games', hang);
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const s = budgeted(300);
      await s.discover(NOW);
      expect((await s.getGames(ids(1, 1500), NOW)).failed).toEqual(ids(1, 1500));
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('logs nothing for a collection that finished within its budget', async () => {
    charts();
    server.route('/v1/games', crossroadsFor);
    const s = budgeted(60_000);
    await s.discover(NOW);
    expect((await s.getGames([13058], NOW)).failed).toEqual([]);
    await s.close();
    source = undefined;
    expect(lines).toEqual([]);
  });

  it('gives a read outside any collection (no discover at its now) no budget, only its timeouts', async () => {
    charts();
    server.route('/v1/games', { ...json({ data: [] }), delayMs: 150 });
    const s = budgeted(20);
    await s.discover(NOW); // NOW's collection runs out after 20 ms; LATER opened none
    const r = await s.getGames([13058], LATER);
    expect(r).toEqual({ items: new Map(), failed: [13058] }); // answered (without the game), not cut
    expect(server.requests.filter((q) => q.path === '/v1/games')).toHaveLength(1);
    expect(failedLines()).toEqual([]);
  });

  it('defaults to 80 % of the collection interval and refuses a budget that is not a positive time', () => {
    expect(collectionBudgetMs({})).toBe(240_000);
    expect(collectionBudgetMs({ collectIntervalMs: 60_000 })).toBe(48_000);
    expect(collectionBudgetMs({ collectIntervalMs: 60_000, collectionBudgetMs: 5_000 })).toBe(5_000);
    expect(() => createRobloxSource({ collectionBudgetMs: 0 })).toThrow(
      'the Roblox collection time budget must be a number of milliseconds from 1 to 2147483647; got 0',
    );
    expect(() => createRobloxSource({ collectionBudgetMs: Number.NaN })).toThrow(RangeError);
    expect(() => createRobloxSource({ collectIntervalMs: -300_000 })).toThrow(
      'the collector interval must be a positive number of milliseconds; got -300000',
    );
  });
});
