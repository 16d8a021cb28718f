import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { bearer, type LoggedIn, signedIn } from '../../test/helpers/auth.js';
import { testEngines } from '../../test/helpers/db.js';
import { type GameSeed, seedGames } from '../../test/helpers/games.js';
import { fixedClock } from '../clock.js';
import { cloneEvidence, cloneProfile } from '../games/index.js';

const NOW = new Date('2026-12-02T12:00:00Z');
/** The first detection run, a later one (a new game), and one after a rename. */
const T1 = new Date('2026-12-01T10:00:00Z');
const T2 = new Date('2026-12-02T10:00:00Z');
const T3 = new Date('2026-12-02T11:00:00Z');

/** Long enough (33 words) for descriptions to be compared. */
const TOWER =
  'Defend your tower against endless waves of monsters. Build walls, hire archers, upgrade cannons and unlock ' +
  'powerful heroes. Team up with friends to survive the night and climb the global leaderboard every season.';

const at = (iso: string) => new Date(iso);
const GAMES: GameSeed[] = [
  {
    universeId: 1,
    placeId: 11,
    name: 'Adopt Me!',
    creatorName: 'Uplift',
    creatorId: 10,
    ccu: 500,
    createdAt: at('2024-01-01T00:00:00Z'),
  },
  {
    universeId: 2,
    placeId: 12,
    name: 'NEW Adopt Me! [UPDATE]',
    creatorName: 'Copycat',
    creatorId: 20,
    ccu: 300,
    createdAt: at('2024-03-01T00:00:00Z'),
  },
  {
    universeId: 3,
    placeId: 13,
    name: 'Brookhaven RP',
    creatorName: 'Wolfpaq',
    creatorId: 30,
    ccu: 400,
    createdAt: at('2023-05-01T00:00:00Z'),
  },
  {
    universeId: 4,
    placeId: 14,
    name: 'Brookhaven RPG',
    creatorName: 'Wolfpaq',
    creatorId: 30,
    ccu: 40,
    createdAt: at('2023-05-11T12:00:00Z'),
  },
  {
    universeId: 5,
    placeId: 15,
    name: 'Tower Defense Legends',
    description: TOWER,
    creatorName: 'Towers Inc',
    creatorId: 50,
    ccu: 100,
    createdAt: at('2025-06-01T00:00:00Z'),
  },
  {
    universeId: 6,
    placeId: 16,
    name: 'Castle Guard Heroes',
    description: TOWER.replace('monsters', 'zombies'),
    creatorName: 'Guards',
    creatorId: 60,
    ccu: 60,
    createdAt: at('2025-06-15T00:00:00Z'),
  },
  // The same name in another genre is no clone: the detector compares within a genre.
  {
    universeId: 7,
    placeId: 17,
    name: 'Adopt Me!',
    creatorName: 'Elsewhere',
    creatorId: 70,
    genre: 'rpg',
    ccu: 20,
  },
  // No creation date: after every dated game, so never the original of a dated one.
  {
    universeId: 8,
    placeId: 18,
    name: 'Adopt Me 2',
    creatorName: 'Undated',
    creatorId: 80,
    ccu: 50,
  },
  { universeId: 10, placeId: 20, name: 'Pet Simulator', creatorName: 'Pets', creatorId: 100, ccu: 900 },
];
/** Its creation date is cleared after seeding (the collector has not read it). */
const UNDATED = 8;
const NEWCOMER: GameSeed = {
  universeId: 9,
  placeId: 19,
  name: 'Brookhaven RP!',
  creatorName: 'Newbie',
  creatorId: 90,
  ccu: 5,
  createdAt: at('2026-11-30T00:00:00Z'),
};

const game = (s: GameSeed) => ({
  place_id: s.placeId,
  universe_id: s.universeId,
  name: s.name,
  creator: s.creatorName,
  genre: s.genre ?? 'simulation',
  ccu: s.ccu ?? 0,
  created_at:
    s.universeId === UNDATED ? null : (s.createdAt ?? new Date('2025-01-01T00:00:00Z')).toISOString(),
});
const evidenceOf = (a: GameSeed, b: GameSeed) =>
  cloneEvidence(
    cloneProfile({ name: a.name, description: a.description ?? '' }),
    cloneProfile({ name: b.name, description: b.description ?? '' }),
  );
const byId = (id: number) => [...GAMES, NEWCOMER].find((g) => g.universeId === id)!;
function pair(
  o: number,
  c: number,
  extra: { same_creator: boolean; creation_gap_days: number | null },
  detected: Date,
) {
  const e = evidenceOf(byId(o), byId(c));
  return {
    original: game(byId(o)),
    clone: game(byId(c)),
    evidence: {
      similarity: e.similarity,
      name_similarity: e.name,
      description_similarity: e.description,
      ...extra,
    },
    detected_at: detected.toISOString(),
  };
}

describe.each(testEngines())('clone pairs on %s', (engine) => {
  let t: TestApp;
  let builder: LoggedIn;
  let explorer: LoggedIn;

  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock(NOW) });
    await seedGames(t.testDb.db, GAMES, T1);
    await t.testDb.db.query('UPDATE games SET created_at = NULL WHERE universe_id = $1', [UNDATED]);
    builder = await signedIn(t, { plan: 'Builder' });
    explorer = await signedIn(t, { plan: 'Explorer' });
  });
  afterAll(() => t.close());

  const get = (url: string, who: LoggedIn = builder) => t.app.inject({ url, headers: bearer(who) });

  it('computes the evidence with the game-detail detector', () => {
    // "brookhaven rp" has 11 + 3 trigrams, "brookhaven rpg" 11 + 4; they share 13: 13 / (14 + 15 − 13).
    expect(evidenceOf(byId(3), byId(4))).toEqual({ name: 0.8125, description: null, similarity: 0.8125 });
    // Every Adopt Me variant reduces to the key "adopt me".
    expect(evidenceOf(byId(1), byId(2))).toEqual({ name: 1, description: null, similarity: 1 });
    expect(evidenceOf(byId(1), byId(8)).similarity).toBe(1);
    // The tower games share only their description (one word swapped).
    const tower = evidenceOf(byId(5), byId(6));
    expect(tower.name).toBeLessThan(0.3);
    expect(tower.description).toBeGreaterThanOrEqual(0.8);
    expect(tower.similarity).toBe(tower.description);
  });

  it('stores each pair once: re-running finds nothing new', async () => {
    expect(await t.services.intelligence.clones.detect(T1)).toEqual({ checked: 9, detected: 5 });
    expect(await t.services.intelligence.clones.detect(T1)).toEqual({ checked: 0, detected: 0 });
    const rows = await t.testDb.db.query<{ o: number; c: number }>(
      'SELECT original_universe_id AS o, clone_universe_id AS c FROM clone_pairs ORDER BY 1, 2',
    );
    expect(rows.rows).toEqual([
      { o: 1, c: 2 },
      { o: 1, c: 8 },
      { o: 2, c: 8 },
      { o: 3, c: 4 },
      { o: 5, c: 6 },
    ]);
  });

  it('needs a signed-in caller and refuses unknown games, genres and cursors', async () => {
    expect((await t.app.inject({ url: '/api/intelligence/clones?place_id=11' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/intelligence/clones/recent' })).statusCode).toBe(401);
    const missing = await get('/api/intelligence/clones?place_id=999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'not_found' });
    expect((await get('/api/intelligence/clones')).statusCode).toBe(422);
    const genre = await get('/api/intelligence/clones/recent?genre=nope');
    expect(genre.statusCode).toBe(422);
    expect(genre.json()).toMatchObject({ code: 'validation_failed', field: 'query.genre' });
    for (const url of ['/api/intelligence/clones/recent', '/api/intelligence/clones?place_id=11']) {
      const cursor = await get(`${url}${url.includes('?') ? '&' : '?'}cursor=bm90LWEtbnVtYmVy`);
      expect(cursor.statusCode).toBe(422);
      expect(cursor.json()).toMatchObject({ code: 'validation_failed', field: 'query.cursor' });
    }
  });

  it("lists a game's pairs, as original or clone, most similar first, with the evidence", async () => {
    const res = await get('/api/intelligence/clones?place_id=12');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ game: game(byId(2)), total: 2, next_cursor: null, limit_cap: 50 });
    expect(body.method).toContain('similarity ≥ 0.8');
    expect(body.pairs).toEqual([
      // Adopt Me! (2024-01-01) came 60 days before its copy.
      pair(1, 2, { same_creator: false, creation_gap_days: 60 }, T1),
      // Adopt Me 2 has no creation date: the copy, with no gap.
      pair(2, 8, { same_creator: false, creation_gap_days: null }, T1),
    ]);
    const brook = (await get('/api/intelligence/clones?place_id=14')).json();
    expect(brook.pairs).toEqual([pair(3, 4, { same_creator: true, creation_gap_days: 10.5 }, T1)]);
    const tower = (await get('/api/intelligence/clones?place_id=15')).json();
    expect(tower.pairs).toEqual([pair(5, 6, { same_creator: false, creation_gap_days: 14 }, T1)]);
    const alone = (await get('/api/intelligence/clones?place_id=17')).json();
    expect(alone).toMatchObject({ total: 0, pairs: [], next_cursor: null });
  });

  it('lists the newest pairs first, by genre, in pages, clamped to the plan cap', async () => {
    const all = (await get('/api/intelligence/clones/recent')).json();
    expect(all).toMatchObject({
      genre: null,
      since: '2026-11-02T12:00:00.000Z',
      next_cursor: null,
      limit_cap: 50,
    });
    // One run: the same detected_at, newest stored first.
    const ids = (b: { pairs: { original: { universe_id: number }; clone: { universe_id: number } }[] }) =>
      b.pairs.map((p) => `${p.original.universe_id}-${p.clone.universe_id}`);
    expect(ids(all)).toEqual(['5-6', '3-4', '2-8', '1-8', '1-2']);
    expect(ids((await get('/api/intelligence/clones/recent?genre=rpg')).json())).toEqual([]);
    expect(ids((await get('/api/intelligence/clones/recent?genre=simulation')).json())).toHaveLength(5);
    // A day back from NOW excludes the run of T1 (26 hours ago).
    expect(ids((await get('/api/intelligence/clones/recent?days=1')).json())).toEqual([]);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await get(`/api/intelligence/clones/recent?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      seen.push(...ids(body));
      cursor = body.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(ids(all));

    const first = (await get('/api/intelligence/clones?place_id=11&limit=1')).json();
    expect(ids(first)).toEqual(['1-2']);
    const second = (
      await get(`/api/intelligence/clones?place_id=11&limit=1&cursor=${first.next_cursor}`)
    ).json();
    expect(ids(second)).toEqual(['1-8']);
    expect(second.next_cursor).toBeNull();

    const capped = await get('/api/intelligence/clones/recent?limit=200', explorer);
    expect(capped.statusCode).toBe(200);
    expect(capped.json()).toMatchObject({ limit_cap: 10 });
    expect(capped.json().pairs).toHaveLength(5);
  });

  it('detects the clones of a new game and hands the feed what appeared since a time', async () => {
    await seedGames(t.testDb.db, [NEWCOMER], T2);
    expect(await t.services.intelligence.clones.detect(T2)).toEqual({ checked: 1, detected: 2 });
    const recent = (await get('/api/intelligence/clones/recent?days=1')).json();
    expect(recent.pairs).toEqual([
      pair(4, 9, { same_creator: false, creation_gap_days: 1298.5 }, T2),
      pair(3, 9, { same_creator: false, creation_gap_days: 1309 }, T2),
    ]);
    const clones = t.services.intelligence.clones;
    expect((await clones.newPairs(T1, [3])).map((p) => p.clone.universe_id)).toEqual([9]);
    expect(await clones.newPairs(T2, [3, 4, 9])).toEqual([]);
    expect(await clones.newPairs(T1, [10])).toEqual([]);
  });

  it('checks a renamed game again: a pair it no longer matches goes, the others keep their detection time', async () => {
    await seedGames(t.testDb.db, [{ ...byId(4), name: 'Zombie Farm' }], T3);
    await seedGames(t.testDb.db, [{ ...byId(6), name: 'Castle Guard Heroes II' }], T3);
    expect(await t.services.intelligence.clones.detect(T3)).toEqual({ checked: 2, detected: 0 });
    const brook = (await get('/api/intelligence/clones?place_id=13')).json();
    expect(brook.pairs.map((p: { clone: { universe_id: number } }) => p.clone.universe_id)).toEqual([9]);
    const tower = (await get('/api/intelligence/clones?place_id=16')).json();
    expect(tower.pairs).toHaveLength(1);
    expect(tower.pairs[0]).toMatchObject({
      clone: { name: 'Castle Guard Heroes II' },
      detected_at: T1.toISOString(),
    });
  });
});
