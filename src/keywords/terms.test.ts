import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { findRealdata, needsRealdata } from '../../test/helpers/realdata.js';
import { gameTerms, isKeywordWord, MAX_DESCRIPTION_TERMS, parseKeyword, textTerms } from './terms.js';

describe('keyword terms', () => {
  it('keeps words and the two-word phrases of kept neighbours, in order of appearance', () => {
    expect(textTerms('Pet Simulator 99!')).toEqual(['pet', 'pet simulator', 'simulator']);
    expect(textTerms('Survive the Zombie Apocalypse')).toEqual([
      'survive',
      'zombie',
      'zombie apocalypse',
      'apocalypse',
    ]);
    expect(textTerms('[UPDATE] Blox Fruits')).toEqual(['blox', 'blox fruits', 'fruits']);
    expect(textTerms('Café Tycoon — Café Tycoon')).toEqual(['cafe', 'cafe tycoon', 'tycoon']);
  });

  it('drops stop words, platform filler, numbers and one-letter words', () => {
    expect(textTerms('NEW Roblox Game: play with your friends! 2x')).toEqual(['2x']);
    expect(textTerms('The 99 Nights in a Forest')).toEqual(['nights', 'forest']);
    expect(textTerms('X')).toEqual([]);
    expect(textTerms("Don't stop: Joe's Diner")).toEqual(['stop', 'joes', 'joes diner', 'diner']);
    expect(isKeywordWord('obby')).toBe(true);
    expect(isKeywordWord('update')).toBe(false);
    expect(isKeywordWord('a'.repeat(31))).toBe(false);
  });

  it('a game: every title keyword, then new description keywords up to the cap', () => {
    expect(gameTerms('Pet Tycoon', 'Build a pet tycoon. Hatch rare pets!')).toEqual([
      { keyword: 'pet', inTitle: true },
      { keyword: 'pet tycoon', inTitle: true },
      { keyword: 'tycoon', inTitle: true },
      { keyword: 'build', inTitle: false },
      { keyword: 'hatch', inTitle: false },
      { keyword: 'hatch rare', inTitle: false },
      { keyword: 'rare', inTitle: false },
      { keyword: 'rare pets', inTitle: false },
      { keyword: 'pets', inTitle: false },
    ]);
    const long = Array.from({ length: 40 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${i}`).join(
      ' ',
    );
    const terms = gameTerms('Obby', long);
    expect(terms.filter((t) => !t.inTitle)).toHaveLength(MAX_DESCRIPTION_TERMS);
    expect(terms[0]).toEqual({ keyword: 'obby', inTitle: true });
  });

  it('parses a keyword a caller typed, or refuses it', () => {
    expect(parseKeyword('  Pet   SIMULATOR ')).toBe('pet simulator');
    expect(parseKeyword('Café')).toBe('cafe');
    expect(parseKeyword('the')).toBeNull();
    expect(parseKeyword('pet the simulator')).toBeNull();
    expect(parseKeyword('99')).toBeNull();
    expect(parseKeyword('!!!')).toBeNull();
  });

  const TOP1000 = 'ccu-history/top1000_snapshot_2024-09-29__biggiefats-romonitor.csv';
  it('finds the keywords of the real top 1,000 games', needsRealdata(TOP1000), () => {
    const rows: { Name: string }[] = parse(readFileSync(findRealdata(TOP1000)!), { columns: true });
    expect(rows).toHaveLength(1000);
    expect(textTerms('Brookhaven 🏡RP')).toEqual(['brookhaven', 'brookhaven rp', 'rp']);
    const counts = new Map<string, number>();
    for (const r of rows) for (const k of textTerms(r.Name)) counts.set(k, (counts.get(k) ?? 0) + 1);
    const top = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 8);
    expect(top).toEqual([
      ['simulator', 76],
      ['obby', 62],
      ['tycoon', 52],
      ['rp', 42],
      ['anime', 21],
      ['escape', 21],
      ['tower', 21],
      ['world', 19],
    ]);
  });
});
