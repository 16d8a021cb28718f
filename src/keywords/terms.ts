/**
 * Keyword extraction: the words and two-word phrases of a game's title and description, as the
 * keyword lists count them. Pure, so every rule is tested without a database.
 *
 * Text is normalised as search does (lower case, accents stripped, every run of other characters one
 * space), then split into words; an apostrophe inside a word joins it ("don't" is "dont"). A word is dropped when it is a stop word, platform filler (roblox,
 * game, update, free, …), a number, one character long or over 30. Phrases are two words that stood
 * next to each other in the text with both kept and no punctuation between ("pet simulator"; "survive
 * the zombies" gives no phrase, since "the" stood between, nor "tycoon. Hatch").
 */
import { normaliseSearch } from '../market/index.js';

/** Bumped when a rule here changes: every game's keywords are extracted again. */
export const TERMS_VERSION = 1;
/** Description characters read (the opening is what a player sees; the rest is mostly tags). */
export const DESCRIPTION_CHARS = 1000;
/** Distinct keywords a description adds at most (title keywords are always kept). */
export const MAX_DESCRIPTION_TERMS = 30;
const MAX_WORD_LENGTH = 30;

const STOP_WORDS = (
  'a about after again all also am an and any are as at be been before being but by can could ' +
  'did do does doing down each even ever every for from get gets got had has have he her here ' +
  'him his how i if im in into is it its just let lets like make many me more most much must my ' +
  'no not now of off on once only or other our out over own so some still such than that the ' +
  'their them then there these they this those to too try up us very was way we were what when ' +
  'where which while who why will with would you youll your yours yourself dont cant wont isnt ' +
  'amp etc via per'
).split(' ');

/** Words every platform title or description carries that say nothing about the game. */
const PLATFORM_FILLER = (
  'roblox rblx game games play playing played plays player players experience experiences ' +
  'update updated updates upd new free best official beta alpha release released version join ' +
  'community friends friend group favorite favourite favorites favourites thumbs please enjoy ' +
  'fun welcome thanks thank discord youtube twitter tiktok code codes server servers vip ' +
  'private credits credit lol omg hd remastered remake edition ii iii iv v1 v2 v3 soon coming ' +
  'today'
).split(' ');

const DROPPED = new Set([...STOP_WORDS, ...PLATFORM_FILLER]);
const NUMBER = /^\d+$/;

/** Whether a normalised word counts as a keyword on its own. */
export function isKeywordWord(word: string): boolean {
  return word.length > 1 && word.length <= MAX_WORD_LENGTH && !NUMBER.test(word) && !DROPPED.has(word);
}

/** Punctuation that ends a phrase: two words either side of it never make a phrase. */
const PHRASE_BREAK = /[.,!?;:|/\\()[\]{}<>"“”«»—–•·…\n\r\t]+|\s[-~*+]+\s/u;
/** An apostrophe inside a word ("don't", "Joe's") joins it rather than splitting it. */
const INNER_APOSTROPHE = /(\p{L})['’](\p{L})/gu;

/** The keywords of one text in order of first appearance: each word, then each phrase it starts. */
export function textTerms(text: string): string[] {
  const out = new Set<string>();
  for (const segment of text.replace(INNER_APOSTROPHE, '$1$2').split(PHRASE_BREAK)) {
    const words = normaliseSearch(segment).split(' ');
    for (let i = 0; i < words.length; i++) {
      const word = words[i]!;
      if (!isKeywordWord(word)) continue;
      out.add(word);
      const next = words[i + 1];
      if (next !== undefined && isKeywordWord(next)) out.add(`${word} ${next}`);
    }
  }
  return [...out];
}

export interface GameTerm {
  keyword: string;
  inTitle: boolean;
}

/** A game's keywords: every keyword of its title, then up to MAX_DESCRIPTION_TERMS more from its description. */
export function gameTerms(name: string, description: string): GameTerm[] {
  const title = textTerms(name);
  const inTitle = new Set(title);
  const fromDescription = textTerms(description.slice(0, DESCRIPTION_CHARS))
    .filter((k) => !inTitle.has(k))
    .slice(0, MAX_DESCRIPTION_TERMS);
  return [
    ...title.map((keyword) => ({ keyword, inTitle: true })),
    ...fromDescription.map((keyword) => ({ keyword, inTitle: false })),
  ];
}

/**
 * A keyword as a caller typed it, normalised; null when it is not one the lists could hold (empty
 * after normalising, more than two words, or a word that is dropped).
 */
export function parseKeyword(input: string): string | null {
  const words = normaliseSearch(input).split(' ').filter(Boolean);
  if (words.length === 0 || words.length > 2 || !words.every(isKeywordWord)) return null;
  return words.join(' ');
}
