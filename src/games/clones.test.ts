import { describe, expect, it } from 'vitest';
import {
  type CloneCandidate,
  cloneKey,
  cloneProfile,
  cloneSimilarity,
  descriptionText,
  jaccard,
  rankClones,
  scoreClones,
  trigrams,
} from './clones.js';
import { clonesWithin } from './clones-genre.js';

const similarity = (a: string, b: string, da = '', db = '') =>
  cloneSimilarity(cloneProfile({ name: a, description: da }), cloneProfile({ name: b, description: db }));

/** A long, distinctive description (over 20 words once the name is out). */
const LONG = (name: string) =>
  `Welcome to ${name}! Raise adorable pets, decorate your dream house, trade rare eggs with friends, ` +
  'earn bucks at your job, ride a neon unicorn around Adoption Island and join weekly events for limited items.';

describe('clone keys', () => {
  it.each([
    ['Adopt Me!', 'adopt me'],
    ['Adopt Me! [UPDATE]', 'adopt me'],
    ['adopt me 2', 'adopt me'],
    ['NEW Adopt Me X', 'adopt me'],
    ['🔥 Adópt Me!! (BETA) v2', 'adopt me'],
    ['[UPDATE] Dragon Obby 2 2', 'dragon obby'],
    ['FREE UGC Hangout 【EVENT】', 'ugc hangout'],
  ])('reduces %s to "%s"', (name, key) => {
    expect(cloneKey(name)).toBe(key);
  });

  it('keeps markers inside a name and a name made only of markers', () => {
    expect(cloneKey('Escape the New World')).toBe('escape the new world');
    expect(cloneKey('99 Nights in the Forest')).toBe('99 nights in the forest');
    expect(cloneKey('NEW!')).toBe('new');
    expect(cloneKey('🔥🔥')).toBe('');
  });
});

describe('similarity', () => {
  it('makes pg_trgm-style trigrams and their Jaccard index', () => {
    expect([...trigrams('me')].sort()).toEqual(['  m', ' me', 'me ']);
    expect(jaccard(trigrams('adopt me'), trigrams('adopt me'))).toBe(1);
    // "me" against "mee": 8 shared trigrams of 11 in all.
    expect(jaccard(trigrams('adopt me'), trigrams('adopt mee'))).toBeCloseTo(8 / 11, 10);
    expect(jaccard(new Set(), new Set())).toBe(0);
  });

  it('scores the copycat variants of a name 1 and a different game far below 0.8', () => {
    for (const v of ['Adopt Me! [UPDATE]', 'adopt me 2', 'NEW Adopt Me X'])
      expect(similarity('Adopt Me!', v)).toBe(1);
    expect(similarity('Adopt Me!', 'Adoptable Pets')).toBeCloseTo(5 / 19, 10);
    expect(similarity('Dragon Simulator', 'Candy Simulator')).toBeLessThan(0.5);
  });

  it('counts a long description copied under another name', () => {
    const s = similarity('Pet Paradise', 'Animal Haven', LONG('Pet Paradise'), LONG('Animal Haven'));
    expect(s).toBe(1);
  });

  it('never counts a templated short description, whatever the names', () => {
    const template = (name: string) =>
      `${name}: a simulation experience. Join the community and play with friends!`;
    expect(descriptionText(template('Dragon Simulator'), 'Dragon Simulator')).toBe('');
    expect(
      similarity('Dragon Simulator', 'Candy Tycoon', template('Dragon Simulator'), template('Candy Tycoon')),
    ).toBe(similarity('Dragon Simulator', 'Candy Tycoon'));
    expect(similarity('Dragon Simulator', 'Candy Tycoon', template('Same'), template('Same'))).toBeLessThan(
      0.8,
    );
  });

  it('takes the game’s own name out of its description before comparing', () => {
    expect(descriptionText(LONG('Adopt Me!'), 'NEW Adopt Me X')).toBe(
      descriptionText(LONG('Adopt Me'), 'Adopt Me'),
    );
    expect(descriptionText(LONG('Adopt Me'), 'Adopt Me').split(' ')).not.toContain('adopt');
  });
});

describe('ranking', () => {
  const c = (universeId: number, name: string, ccu: number, description = ''): CloneCandidate => ({
    universeId,
    placeId: universeId + 100,
    name,
    creator: `creator${universeId}`,
    description,
    ccu,
  });

  it('keeps matches from 0.8, most similar then busiest first, never the game itself, at most the limit', () => {
    const game = { universeId: 1, name: 'Adopt Me!', description: '' };
    const candidates = [
      c(1, 'Adopt Me!', 999),
      c(2, 'adopt me 2', 10),
      c(3, 'NEW Adopt Me X', 50),
      c(4, 'Adoptable Pets', 5000),
      c(5, 'Adopt Mee', 7000),
      c(3, 'NEW Adopt Me X', 50),
      c(6, 'Adopt Me Tycoon Remastered', 10_000),
    ];
    expect(rankClones(game, candidates)).toEqual([
      { place_id: 103, name: 'NEW Adopt Me X', creator: 'creator3', similarity: 1 },
      { place_id: 102, name: 'adopt me 2', creator: 'creator2', similarity: 1 },
    ]);
    expect(rankClones(game, candidates, 1)).toHaveLength(1);
    const many = Array.from({ length: 15 }, (_, i) => c(10 + i, `Adopt Me ${i}`, i));
    expect(rankClones(game, many).map((m) => m.place_id)).toEqual(
      Array.from({ length: 10 }, (_, i) => 124 - i),
    );
  });
});

describe('clones within a genre', () => {
  const games = [
    { universeId: 1, name: 'Adopt Me!', description: LONG('Adopt Me!') },
    { universeId: 2, name: 'NEW Adopt Me! [UPDATE]', description: '' },
    { universeId: 3, name: 'Pet Paradise', description: LONG('Pet Paradise') },
    { universeId: 4, name: 'Brookhaven RP', description: '' },
    { universeId: 5, name: 'Brookhaven RPG', description: '' },
    { universeId: 6, name: 'Zombie Tycoon', description: '' },
    { universeId: 7, name: 'adopt me 2', description: '' },
  ];
  const key = (a: number, b: number) => `${Math.min(a, b)}-${Math.max(a, b)}`;

  it('finds each pair once, with the evidence scoreClones gives against every other game', () => {
    const within = clonesWithin(games, () => true);
    const expected = games.flatMap((g) =>
      scoreClones(g, games)
        .filter(({ candidate }) => candidate.universeId > g.universeId)
        .map(({ candidate, evidence }) => ({ pair: key(g.universeId, candidate.universeId), evidence })),
    );
    // Adopt Me and Pet Paradise share only their long description (names out).
    expect(expected.map((e) => e.pair).sort()).toEqual(['1-2', '1-3', '1-7', '2-7', '4-5']);
    expect(within.map(({ a, b, evidence }) => ({ pair: key(a.universeId, b.universeId), evidence }))).toEqual(
      expect.arrayContaining(expected),
    );
    expect(within).toHaveLength(expected.length);
  });

  it('leaves out pairs of two games that are not subjects', () => {
    const pairs = clonesWithin(games, (g) => g.universeId === 5).map(({ a, b }) =>
      key(a.universeId, b.universeId),
    );
    expect(pairs).toEqual(['4-5']);
  });
});
