import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { bearer, type LoggedIn, signedIn } from '../../test/helpers/auth.js';
import { testEngines } from '../../test/helpers/db.js';
import { type GameSeed, seedGames } from '../../test/helpers/games.js';
import { fixedClock } from '../clock.js';
import { insertRollups } from '../market/market.repo.js';

const T1 = new Date('2026-12-02T12:00:00Z');
const T2 = new Date('2026-12-02T12:05:00Z');

const game = (s: Partial<GameSeed> & Pick<GameSeed, 'universeId' | 'name'>): GameSeed => ({
  placeId: s.universeId * 10,
  creatorName: 'Maker',
  creatorId: 7,
  creatorType: 'User',
  genre: 'simulation',
  createdAt: new Date('2025-01-01T00:00:00Z'),
  ...s,
});

const ALPHA = game({ universeId: 1, name: 'Alpha Obby', ccu: 1000 });
const BETA = game({
  universeId: 2,
  name: 'Beta Tycoon',
  ccu: 50,
  createdAt: new Date('2026-11-20T00:00:00Z'),
});
const GAMMA = game({
  universeId: 3,
  name: 'Gamma Quest',
  ccu: 300,
  genre: 'rpg',
  creatorName: 'Guild',
  creatorId: 9,
  creatorType: 'Group',
  createdAt: new Date('2025-06-01T00:00:00Z'),
});
const COPY = game({
  universeId: 4,
  name: 'Alpha Obby X',
  ccu: 20,
  creatorName: 'Copier',
  creatorId: 8,
  createdAt: new Date('2026-11-25T00:00:00Z'),
});
/** Small rpg games of other creators (targets for the follow cap). */
const FILLERS = Array.from({ length: 8 }, (_, i) =>
  game({
    universeId: 100 + i,
    name: `Filler ${i}`,
    ccu: i + 1,
    genre: 'rpg',
    creatorId: 200 + i,
    creatorName: `F${i}`,
  }),
);
/** Launched between the two collections, by the followed creator, straight to #1. */
const DELTA = game({
  universeId: 5,
  name: 'Delta Simulator',
  ccu: 5000,
  createdAt: new Date('2026-12-01T00:00:00Z'),
});

describe.each(testEngines())('intelligence follows, feed and creators on %s', (engine) => {
  let t: TestApp;
  let clock: ReturnType<typeof fixedClock>;
  let user: LoggedIn;
  let explorer: LoggedIn;

  beforeAll(async () => {
    clock = fixedClock(T1);
    t = await buildTestApp({ engine, clock });
    const db = t.testDb.db;
    await seedGames(db, [ALPHA, BETA, GAMMA, COPY, ...FILLERS], T1);
    // Alpha's best day so far peaked at 800: its record is seeded at its 1,000 reading.
    await insertRollups(
      db,
      'daily',
      ['2026-11-29', '2026-11-30', '2026-12-01'].map((day, i) => ({
        universeId: 1,
        at: day,
        ccuAvg: 600 + 50 * i,
        ccuMax: 700 + 50 * i,
        samples: 288,
        visits: 0,
      })),
    );
    user = await signedIn(t, { plan: 'Builder' });
    explorer = await signedIn(t, { plan: 'Explorer' });
  });
  afterAll(() => t.close());

  const as = (who: LoggedIn) => ({ ...bearer(who), 'content-type': 'application/json' });
  const follow = (who: LoggedIn, body: object) =>
    t.app.inject({ method: 'POST', url: '/api/intelligence/follows', headers: as(who), payload: body });
  const get = (url: string, who: LoggedIn = user) => t.app.inject({ url, headers: bearer(who) });

  it('follows a creator or a game once, and refuses what the service does not collect', async () => {
    const creator = await follow(user, { kind: 'creator', creator_type: 'user', creator_id: 7 });
    expect(creator.statusCode).toBe(201);
    expect(creator.json()).toEqual({
      kind: 'creator',
      creator_type: 'user',
      creator_id: 7,
      name: 'Maker',
      since: '2026-12-02T12:00:00.000Z',
    });
    expect((await follow(user, { kind: 'creator', creator_type: 'user', creator_id: 7 })).statusCode).toBe(
      200,
    );
    const gamma = await follow(user, { kind: 'game', place_id: 30 });
    expect(gamma.statusCode).toBe(201);
    expect(gamma.json()).toMatchObject({ kind: 'game', place_id: 30, universe_id: 3, name: 'Gamma Quest' });
    const missing = await follow(user, { kind: 'game', place_id: 999 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'The service does not collect this game.', code: 'not_found' });
    const nobody = await follow(user, { kind: 'creator', creator_type: 'group', creator_id: 7 });
    expect(nobody.statusCode).toBe(404);
    const bad = await follow(user, { kind: 'creator', creator_id: 7 });
    expect(bad.statusCode).toBe(422);
    expect((await t.app.inject({ url: '/api/intelligence/feed' })).statusCode).toBe(401);

    const list = (await get('/api/intelligence/follows')).json();
    expect(list.limit).toBe(50);
    expect(list.follows.map((f: { kind: string; name: string }) => [f.kind, f.name])).toEqual([
      ['game', 'Gamma Quest'],
      ['creator', 'Maker'],
    ]);
  });

  it('caps follows at the plan: Explorer follows 10', async () => {
    const targets = [ALPHA, BETA, GAMMA, COPY, ...FILLERS].slice(0, 11);
    const codes = [];
    for (const g of targets)
      codes.push((await follow(explorer, { kind: 'game', place_id: g.placeId })).statusCode);
    expect(codes).toEqual([...Array(10).fill(201), 409]);
    // Following one already followed stays 200 at the cap.
    expect((await follow(explorer, { kind: 'game', place_id: ALPHA.placeId })).statusCode).toBe(200);
  });

  it('feeds launches, updates, CCU records, rank entries and clones of tracked games, newest first', async () => {
    const { feed } = t.services.intelligence;
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/track/1', headers: bearer(user) })).statusCode,
    ).toBe(200);
    // First collection: clone detection pairs the copy with Alpha ("X" is a copycat marker: the same
    // key) and the eight fillers ("Filler 3": version numbers peeled off); launches of Beta and the
    // copy; records seeded; ranks learnt (no entry yet).
    await t.services.intelligence.clones.detect(T1);
    expect(await feed.produce(T1)).toEqual({ launches: 2, clones: 29, records: 0, entries: 0 });
    await feed.recordUpdates(t.testDb.db, [
      {
        universeId: 3,
        releasedAt: new Date('2026-12-02T11:00:00Z'),
        previousAt: null,
        detectedAt: new Date('2026-12-02T12:00:00Z'),
      },
    ]);
    // Second collection: Delta launches at #1; Alpha sets a record (1,200 ≥ 1.1 × 1,000 and + 50).
    await seedGames(t.testDb.db, [DELTA, { ...ALPHA, ccu: 1200 }], T2);
    clock.set(T2);
    expect(await feed.produce(T2)).toEqual({ launches: 1, clones: 0, records: 1, entries: 2 });
    expect(await feed.produce(T2)).toEqual({ launches: 0, clones: 0, records: 0, entries: 0 });

    const res = await get('/api/intelligence/feed');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ next_cursor: null, limit_cap: 50 });
    expect(body.method).toContain('ccu_record');
    expect(
      body.items.map((i: { kind: string; game: { name: string }; reasons: string[]; message: string }) => [
        i.kind,
        i.game.name,
        i.reasons,
        i.message,
      ]),
    ).toEqual([
      [
        'genre_top10_entry',
        'Delta Simulator',
        ['follows_creator'],
        'Delta Simulator entered the simulation top 10 at #1.',
      ],
      ['top100_entry', 'Delta Simulator', ['follows_creator'], 'Delta Simulator entered the top 100 at #1.'],
      [
        'ccu_record',
        'Alpha Obby',
        ['follows_creator'],
        'Alpha Obby set a CCU record: 1,200 (previous 1,000).',
      ],
      ['launch', 'Delta Simulator', ['follows_creator'], 'Maker launched Delta Simulator (simulation).'],
      ['update', 'Gamma Quest', ['follows_game'], 'Gamma Quest was updated.'],
      [
        'clone',
        'Alpha Obby X',
        ['clone_of_tracked_game'],
        'Alpha Obby X by Copier looks like a clone of Alpha Obby.',
      ],
      ['launch', 'Beta Tycoon', ['follows_creator'], 'Maker launched Beta Tycoon (simulation).'],
    ]);
    const clone = body.items[5];
    expect(clone.details).toEqual({
      ccu: null,
      previous_record: null,
      rank: null,
      similarity: 1,
      original: { place_id: 10, name: 'Alpha Obby' },
    });
    expect(body.items[2].details).toMatchObject({ ccu: 1200, previous_record: 1000 });
    expect(body.items[4].occurred_at).toBe('2026-12-02T11:00:00.000Z');

    const first = (await get('/api/intelligence/feed?limit=3')).json();
    expect(first.items.map((i: { kind: string }) => i.kind)).toEqual([
      'genre_top10_entry',
      'top100_entry',
      'ccu_record',
    ]);
    const second = (await get(`/api/intelligence/feed?limit=3&cursor=${first.next_cursor}`)).json();
    expect(second.items.map((i: { kind: string }) => i.kind)).toEqual(['launch', 'update', 'clone']);

    // Unfollowing the game drops its update; unfollowing twice is fine.
    for (let i = 0; i < 2; i++) {
      const del = await t.app.inject({
        method: 'DELETE',
        url: '/api/intelligence/follows?kind=game&place_id=30',
        headers: bearer(user),
      });
      expect(del.statusCode).toBe(204);
    }
    const after = (await get('/api/intelligence/feed')).json();
    expect(after.items.map((i: { kind: string }) => i.kind)).not.toContain('update');
    const incomplete = await t.app.inject({
      method: 'DELETE',
      url: '/api/intelligence/follows?kind=creator&creator_id=7',
      headers: bearer(user),
    });
    expect(incomplete.statusCode).toBe(422);
    expect(incomplete.json()).toMatchObject({ field: 'query.creator_type' });
  });

  it("shows a creator's games, history, launches and updates", async () => {
    const res = await get('/api/intelligence/creators/7?days=30&limit=2');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      creator: { id: 7, type: 'User', name: 'Maker' },
      since: '2026-11-02',
      games_total: 3,
      total_ccu: 6250,
      limit_cap: 50,
    });
    expect(body.games.map((g: { name: string; share_of_ccu: number }) => [g.name, g.share_of_ccu])).toEqual([
      ['Delta Simulator', 0.8],
      ['Alpha Obby', 0.192],
    ]);
    const rest = (
      await get(`/api/intelligence/creators/7?days=30&limit=2&cursor=${body.next_cursor}`)
    ).json();
    expect(rest.games.map((g: { name: string }) => g.name)).toEqual(['Beta Tycoon']);
    expect(rest.next_cursor).toBeNull();
    expect(body.history).toEqual([
      { day: '2026-11-29', ccu: 600, games: 1 },
      { day: '2026-11-30', ccu: 650, games: 1 },
      { day: '2026-12-01', ccu: 700, games: 1 },
    ]);
    expect(body.game_history.map((g: { name: string; days: unknown[] }) => [g.name, g.days.length])).toEqual([
      ['Delta Simulator', 0],
      ['Alpha Obby', 3],
      ['Beta Tycoon', 0],
    ]);
    expect(body.launches.map((l: { name: string }) => l.name)).toEqual(['Delta Simulator', 'Beta Tycoon']);
    expect(body.updates).toEqual([]);
    const group = (await get('/api/intelligence/creators/9?type=group')).json();
    expect(group.games.map((g: { name: string }) => g.name)).toEqual(['Gamma Quest']);
    const none = await get('/api/intelligence/creators/9');
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ detail: 'The service collects no game of user 9.', code: 'not_found' });
  });
});
