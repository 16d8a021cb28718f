import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FIXTURES, fixture, needsFixtures } from '../../../test/helpers/roblox-replay.js';
import {
  genreOf,
  mapBatch,
  mapFavoritesCount,
  mapGameDetail,
  mapGamePassPage,
  mapPlaceUniverse,
  mapSortContent,
  mapUniverseGamePass,
  mapUniverseGamePassPage,
  mapVotes,
} from './mapping.js';

const body = (name: string): unknown => JSON.parse(fixture(name));
const firstItem = (name: string): Record<string, unknown> => {
  const parsed = body(name) as { data: Record<string, unknown>[] };
  return parsed.data[0]!;
};
const games = (name: string, ids: number[]) => mapBatch(body(name), ids, mapGameDetail, (g) => g.universeId);

describe('mapping of real recorded Roblox responses', () => {
  it('maps the alcubierre Crossroads game, whose genre_l1 "Action" becomes genre action', () => {
    const r = games(FIXTURES.crossroads, [13058]);
    expect(r.failed).toEqual([]);
    expect(r.items.get(13058)).toEqual({
      universeId: 13058,
      rootPlaceId: 1818,
      name: 'Classic: Crossroads',
      description: 'The classic ROBLOX level is back!',
      creator: { id: 1, name: 'Roblox', type: 'User' },
      genre: 'action',
      playing: 21,
      visits: 10809119,
      favorites: 229776,
      maxPlayers: 8,
      created: new Date('2007-05-01T01:07:04.780Z'),
      updated: new Date('2024-01-29T22:05:10.417Z'),
    });
  });

  it('maps the openblox RoCamping game, which has no genre_l1, to its legacy genre Adventure', () => {
    const r = games(FIXTURES.rocamping, [1685831367]);
    expect(r.items.get(1685831367)).toEqual({
      universeId: 1685831367,
      rootPlaceId: 4922741943,
      name: 'RoCamping',
      description:
        "RoCamping is a fun adventure game where the end-goal is to create the best camp ever. Gather resources, chop down trees, go down caves and much more! Start your journey today!\r\n\r\nNOTE: RoCamping is still in BETA so expect there to be glitches, if you find a glitch then don't hesitate to join our group and report it there.\r\n\r\nCurrent Version: BETA v3,0\r\n\r\nalvinblox",
      creator: { id: 5850082, name: 'MightyPart Games', type: 'Group' },
      genre: 'adventure',
      playing: 0,
      visits: 2718,
      favorites: 97,
      maxPlayers: 4,
      created: new Date('2020-04-20T15:36:20.927Z'),
      updated: new Date('2024-05-23T20:51:29.867Z'),
    });
  });

  it(
    'maps the recorded Selfie Mode game, whose only genre is the legacy "All", to genre unknown',
    needsFixtures(FIXTURES.selfieMode),
    () => {
      const r = games(FIXTURES.selfieMode, [3531439676]);
      expect(r.items.get(3531439676)).toMatchObject({
        rootPlaceId: 9468764549,
        name: 'Selfie Mode Demo',
        creator: { id: 7384468, name: 'Roblox Arena Events', type: 'Group' },
        genre: 'unknown',
        playing: 0,
        visits: 6863,
        favorites: 241,
        maxPlayers: 20,
        created: new Date('2022-04-25T23:33:11.960Z'),
        updated: new Date('2022-12-01T21:14:18.023Z'),
      });
    },
  );

  it('maps the recorded votes of universe 5988568657', () => {
    const r = mapBatch(body(FIXTURES.votes), [5988568657], mapVotes, (v) => v.universeId);
    expect(r).toEqual({
      items: new Map([[5988568657, { universeId: 5988568657, upVotes: 8922, downVotes: 670 }]]),
      failed: [],
    });
  });

  it('reads the recorded favourites count and the place 1818 → universe 13058 answer', () => {
    expect(mapFavoritesCount(body(FIXTURES.favoritesCount))).toBe(0);
    expect(mapPlaceUniverse(body(FIXTURES.place1818))).toBe(13058);
  });

  it(
    'fails every requested id of the recorded 400 body and never reads it as zeros',
    needsFixtures(FIXTURES.badIds400),
    () => {
      expect(games(FIXTURES.badIds400, [13058, 42])).toEqual({ items: new Map(), failed: [13058, 42] });
    },
  );

  it('fails a requested id that a 200 answer leaves out and ignores ids nobody asked for', () => {
    const r = games(FIXTURES.crossroads, [77, 99]);
    expect(r).toEqual({ items: new Map(), failed: [77, 99] });
  });
});

describe('validation of a game detail item', () => {
  const crossroads = () => firstItem(FIXTURES.crossroads);
  /** What to change in a real item; `undefined` removes the field. */
  const broken: [string, Record<string, unknown>][] = [
    ['a negative playing count', { playing: -1 }],
    ['a playing count sent as a string', { playing: '21' }],
    ['a fractional visit count', { visits: 10.5 }],
    ['an infinite visit count (JSON 1e400)', { visits: JSON.parse('1e400') }],
    ['a missing favourite count', { favoritedCount: undefined }],
    ['a missing maxPlayers', { maxPlayers: undefined }],
    ['a missing name', { name: undefined }],
    ['a zero universe id', { id: 0 }],
    ['a creator of an unknown type', { creator: { id: 1, name: 'Roblox', type: 'Robot' } }],
    ['a creator without a name', { creator: { id: 1, type: 'User' } }],
    ['an unparseable created date', { created: 'yesterday' }],
    ['a description that is not text', { description: 5 }],
  ];

  it.each(broken)('fails the id of an item with %s, and keeps the valid item next to it', (_, patch) => {
    const bad: Record<string, unknown> = { ...crossroads(), id: 500 };
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) delete bad[key];
      else bad[key] = value;
    }
    const r = mapBatch({ data: [bad, crossroads()] }, [500, 13058], mapGameDetail, (g) => g.universeId);
    expect(r.failed).toEqual([500]);
    expect([...r.items.keys()]).toEqual([13058]);
  });

  it('reads a null description as empty text, because games without one are common', () => {
    expect(mapGameDetail({ ...crossroads(), description: null })?.description).toBe('');
  });

  it('fails votes that are negative or missing', () => {
    expect(mapVotes({ id: 1, upVotes: -1, downVotes: 0 })).toBeUndefined();
    expect(mapVotes({ id: 1, upVotes: 3 })).toBeUndefined();
  });
});

describe('genre of a game detail', () => {
  it('prefers the untranslated genre_l1 over a localised genre_l1', () => {
    expect(genreOf({ genre_l1: 'Acción', untranslated_genre_l1: 'action' })).toBe('action');
  });

  it('turns "Roleplay & Avatar Sim" into roleplay_avatar_sim', () => {
    expect(genreOf({ genre_l1: 'Roleplay & Avatar Sim', genre: 'Town and City' })).toBe(
      'roleplay_avatar_sim',
    );
  });

  it('keeps a legacy genre only when it also names a genre_l1 genre', () => {
    expect(genreOf({ genre: 'RPG' })).toBe('rpg');
    expect(genreOf({ genre: 'Fighting' })).toBe('unknown');
    expect(genreOf({ genre: 'Town and City' })).toBe('unknown');
    expect(genreOf({ genre_l1: '', genre: 'Adventure' })).toBe('adventure');
    expect(genreOf({})).toBe('unknown');
  });
});

describe('pages', () => {
  it('maps a game-pass page with a pass that is not for sale as price null', () => {
    const page = {
      previousPageCursor: null,
      nextPageCursor: 'abc',
      data: [
        { id: 11, name: 'VIP', displayName: 'VIP', productId: 1, price: 250, sellerName: 'x', sellerId: 1 },
        {
          id: 12,
          name: 'Old pass',
          displayName: 'Old pass',
          productId: 2,
          price: null,
          sellerName: 'x',
          sellerId: 1,
        },
      ],
    };
    expect(mapGamePassPage(page)).toEqual({
      values: [
        { id: 11, name: 'VIP', price: 250 },
        { id: 12, name: 'Old pass', price: null },
      ],
      next: 'abc',
    });
  });

  it('fails a whole game-pass page when one pass has no price field at all', () => {
    expect(mapGamePassPage({ nextPageCursor: null, data: [{ id: 11, name: 'VIP' }] })).toBeUndefined();
  });

  it('maps a page of the current game-passes endpoint (hand-made from the documented shape)', () => {
    // Not a recording: no recorded response of this endpoint exists (test/fixtures/roblox-game-passes/README.md).
    const page = JSON.parse(
      readFileSync(
        new URL('../../../test/fixtures/roblox-game-passes/universe-passes.page1.json', import.meta.url),
        'utf8',
      ),
    ) as unknown;
    expect(mapUniverseGamePassPage(page)).toEqual({
      values: [
        { id: 700000101, name: 'VIP', price: 250 },
        { id: 700000102, name: 'Double Coins', price: 99 },
        { id: 700000103, name: 'Founder Badge', price: null },
      ],
      next: 'page-2-token',
    });
  });

  it('reads a current pass as off sale when isForSale is false or the price is null', () => {
    expect(mapUniverseGamePass({ id: 5, name: 'VIP', price: 300, isForSale: false })).toEqual({
      id: 5,
      name: 'VIP',
      price: null,
    });
    expect(mapUniverseGamePass({ id: 5, name: 'VIP', price: null })).toEqual({
      id: 5,
      name: 'VIP',
      price: null,
    });
    expect(mapUniverseGamePass({ id: 5, name: 'VIP', isForSale: false })).toEqual({
      id: 5,
      name: 'VIP',
      price: null,
    });
    expect(mapUniverseGamePass({ id: 5, name: 'VIP', price: 0, isForSale: true })).toEqual({
      id: 5,
      name: 'VIP',
      price: 0,
    });
  });

  it.each([
    ['a pass for sale without a price', { id: 5, name: 'VIP', isForSale: true }],
    ['a pass with no price and no sale flag', { id: 5, name: 'VIP' }],
    ['a negative price', { id: 5, name: 'VIP', price: -1 }],
    ['a fractional price', { id: 5, name: 'VIP', price: 9.5 }],
    ['a price given as text, even off sale', { id: 5, name: 'VIP', price: '100', isForSale: false }],
    ['an isForSale that is not a boolean', { id: 5, name: 'VIP', price: 100, isForSale: 'yes' }],
    ['an id of 0', { id: 0, name: 'VIP', price: 100 }],
    ['an id given as text', { id: '5', name: 'VIP', price: 100 }],
    ['no name', { id: 5, price: 100 }],
    ['not an object', [5, 'VIP', 100]],
  ])('refuses a current pass with %s, and so its whole page', (_, item) => {
    expect(mapUniverseGamePass(item)).toBeUndefined();
    const ok = { id: 6, name: 'Radio', price: 25 };
    expect(mapUniverseGamePassPage({ gamePasses: [ok, item], nextPageToken: '' })).toBeUndefined();
  });

  it('reads an empty or null nextPageToken as the last page and refuses a page without gamePasses', () => {
    expect(mapUniverseGamePassPage({ gamePasses: [], nextPageToken: '' })).toEqual({
      values: [],
      next: null,
    });
    expect(mapUniverseGamePassPage({ gamePasses: [], nextPageToken: null })).toEqual({
      values: [],
      next: null,
    });
    expect(mapUniverseGamePassPage({ gamePasses: [] })).toEqual({ values: [], next: null });
    expect(mapUniverseGamePassPage({ gamePasses: [], nextPageToken: 3 })).toBeUndefined();
    expect(mapUniverseGamePassPage({ data: [], nextPageCursor: null })).toBeUndefined();
    expect(mapUniverseGamePassPage(null)).toBeUndefined();
  });

  it('reads universe ids from real chart tiles and skips sponsored and malformed ones', () => {
    const tiles = (body(FIXTURES.recommendations) as { games: Record<string, unknown>[] }).games;
    const content = {
      games: [...tiles, { ...tiles[0], universeId: 999, isSponsored: true }, { name: 'no id' }],
      nextPageToken: '',
    };
    expect(mapSortContent(content)).toEqual({
      values: [2711375305, 4778845442, 4777817887, 1686885941, 3317771874, 3808081382],
      next: null,
    });
  });
});
