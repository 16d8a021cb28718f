import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedDb, type TestDb, testEngines } from '../../../test/helpers/db.js';
import {
  FIXTURES,
  hang,
  json,
  malformed,
  type ReplayServer,
  recorded,
  startReplayServer,
  status,
} from '../../../test/helpers/roblox-replay.js';
import { collectOnce } from '../../market/index.js';
import { createRobloxSource, type RobloxSource } from './source.js';

const log = { info() {}, warn() {} };
const T1 = new Date('2026-11-22T15:35:00Z');
const MIN = 60_000;

describe.each(testEngines())('the collector reading the Roblox source on %s', (engine) => {
  let t: TestDb;
  let server: ReplayServer;
  let source: RobloxSource;

  beforeAll(async () => {
    t = await migratedDb(engine);
    server = await startReplayServer();
    source = createRobloxSource({
      gamesBaseUrl: server.url,
      apisBaseUrl: server.url,
      sleep: async () => {},
      random: () => 0.5,
      maxAttempts: 2,
      timeoutMs: 500,
    });
  });
  afterAll(async () => {
    await source.close();
    await server.close();
    await t.dispose();
  });

  const game = async () =>
    (
      await t.db.query<Record<string, unknown>>(
        `SELECT place_id, name, creator_name, creator_type, genre, max_players, ccu, visits, favorites,
                up_votes, gamepass_count, observed_at
           FROM games WHERE universe_id = 13058`,
      )
    ).rows[0];
  const samples = async () =>
    (
      await t.db.query<{ ts: Date; ccu: number; visits: number }>(
        'SELECT ts, ccu, visits::int AS visits FROM ccu_samples WHERE universe_id = 13058 ORDER BY ts',
      )
    ).rows;

  it('stores the recorded game, then keeps its reading untouched while the API answers 500 or malformed JSON', async () => {
    server.route(
      '/explore-api/v1/get-sort-content',
      json({ games: [{ universeId: 13058 }], nextPageToken: null }),
    );
    server.route('/v1/games', recorded(FIXTURES.crossroads));
    server.route('/v1/games/votes', recorded(FIXTURES.votes)); // has no entry for 13058: a votes gap
    server.route(
      '/v1/games/13058/game-passes',
      json({ previousPageCursor: null, nextPageCursor: null, data: [{ id: 9, name: 'Gear', price: null }] }),
    );

    const first = await collectOnce({ db: t.db, platform: source, log }, T1);
    expect(first).toEqual({ requested: 1, stored: 1, failed: 0, passesRefreshed: 1, genreSnapshot: true });
    const stored = {
      place_id: 1818,
      name: 'Classic: Crossroads',
      creator_name: 'Roblox',
      creator_type: 'User',
      genre: 'action',
      max_players: 8,
      ccu: 21,
      visits: 10809119,
      favorites: 229776,
      up_votes: null,
      gamepass_count: 1,
      observed_at: T1,
    };
    expect(await game()).toEqual(stored);
    expect(await samples()).toEqual([{ ts: T1, ccu: 21, visits: 10809119 }]);

    // The charts and the details API both fail: the known game is still asked for, and gets a gap.
    server.route('/explore-api/v1/get-sort-content', status(500));
    server.route('/v1/games', status(500));
    const second = await collectOnce({ db: t.db, platform: source, log }, new Date(T1.getTime() + 5 * MIN));
    expect(second).toMatchObject({ requested: 1, stored: 0, failed: 1 });

    server.route('/v1/games', malformed);
    const third = await collectOnce({ db: t.db, platform: source, log }, new Date(T1.getTime() + 10 * MIN));
    expect(third).toMatchObject({ requested: 1, stored: 0, failed: 1 });

    expect(await game()).toEqual(stored);
    expect(await samples()).toEqual([{ ts: T1, ccu: 21, visits: 10809119 }]);
  });

  it('ends a collection whose details API never answers within its time budget, with the games as gaps', {
    timeout: 30_000,
  }, async () => {
    const warnings: { obj: Record<string, unknown>; msg: string }[] = [];
    const collected: Record<string, unknown>[] = [];
    // Per-request timeouts of 10 s (two attempts) would hold this collection for 20 s; the budget ends it at 300 ms.
    const budgeted = createRobloxSource({
      gamesBaseUrl: server.url,
      apisBaseUrl: server.url,
      sleep: async () => {},
      random: () => 0.5,
      maxAttempts: 2,
      timeoutMs: 10_000,
      collectionBudgetMs: 300,
      discoverySorts: ['top-playing-now'],
      log: { warn: (obj, msg) => warnings.push({ obj, msg }) },
    });
    const at = new Date(T1.getTime() + 15 * MIN);
    server.route(
      '/explore-api/v1/get-sort-content',
      json({ games: [{ universeId: 13058 }, { universeId: 4242 }], nextPageToken: null }),
    );
    server.route('/v1/games', hang);
    const before = await samples();
    try {
      const stats = await collectOnce(
        {
          db: t.db,
          platform: budgeted,
          log: { info: (obj: Record<string, unknown>) => collected.push(obj), warn() {} },
        },
        at,
      );
      expect(stats).toMatchObject({ requested: 2, stored: 0, failed: 2, passesRefreshed: 0 });
      expect(collected).toMatchObject([{ requested: 2, stored: 0, failed: 2 }]);
      expect(await samples()).toEqual(before); // no sample at `at`: a gap, never a zero
    } finally {
      await budgeted.close();
    }
    expect(warnings).toEqual([
      {
        obj: { collection: at.toISOString(), budgetMs: 300, cutReads: 1 },
        msg: 'roblox collection ran out of its time budget; the reads it cut are gaps this cycle',
      },
    ]);
  });
});
