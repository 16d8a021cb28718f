/**
 * Clone detection arithmetic: how copycat names are normalised, how two games are compared, and how
 * the matches are ranked. Pure, so every rule is tested without a database; clones.repo.ts finds
 * the candidates, clones.service.ts puts the two together.
 */
import { normaliseSearch } from '../market/index.js';

/** Similarity from which two games of a genre count as clones (DECISIONS §5). */
export const CLONE_THRESHOLD = 0.8;
export const MAX_CLONES = 10;
/**
 * Descriptions are compared only when, with the game's own name taken out, at least this many words
 * remain. Short descriptions are mostly templates ("<name>: a simulation experience. Join the
 * community…" fits every game of a genre), so sharing one proves nothing; a long shared text does.
 */
export const MIN_DESCRIPTION_WORDS = 20;

/** Tags copycats put before a name ("NEW Adopt Me", "FREE UGC …"). */
const LEADING_MARKERS = new Set(['new', 'free', 'update', 'updated', 'beta', 'alpha', 'official']);
/** Tags after a name ("Adopt Me X", "… BETA"); trailing version numbers are handled apart. */
const TRAILING_MARKERS = new Set([
  'new',
  'free',
  'update',
  'updated',
  'beta',
  'alpha',
  'x',
  'remastered',
  'remake',
  'ii',
  'iii',
  'iv',
]);
const VERSION = /^v?\d+$/;
const BRACKETED = /[[({【「][^\])}】」]*[\])}】」]/gu;

/** Lower case, accents stripped (é → e), every run of non letters/digits one space: search's rule. */
export const normaliseText = normaliseSearch;

/**
 * A name as copycats vary it, reduced to what they keep: bracketed or parenthesised tags dropped,
 * then update/new/free/beta/x markers and version numbers peeled off both ends ("NEW Adopt Me! X",
 * "adopt me 2" and "Adopt Me! [UPDATE]" all give "adopt me"). Markers inside a name stay ("Escape the
 * New World"), and a name made only of markers keeps them rather than becoming empty.
 */
export function cloneKey(name: string): string {
  const words = normaliseText(name.replace(BRACKETED, ' ')).split(' ').filter(Boolean);
  let start = 0;
  let end = words.length;
  while (start < end && LEADING_MARKERS.has(words[start]!)) start++;
  while (end > start && (TRAILING_MARKERS.has(words[end - 1]!) || VERSION.test(words[end - 1]!))) end--;
  const kept = words.slice(start, end);
  return (kept.length > 0 ? kept : words).join(' ');
}

/** Character trigrams as pg_trgm makes them: each word padded with two spaces before and one after. */
export function trigrams(text: string): Set<string> {
  const out = new Set<string>();
  for (const word of text.split(' ')) {
    if (word === '') continue;
    const padded = `  ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  }
  return out;
}

/** |A ∩ B| / |A ∪ B|; 0 when both are empty (nothing to compare is no evidence). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const t of small) if (large.has(t)) shared++;
  return shared / (a.size + b.size - shared);
}

/**
 * A description ready for comparison: normalised, every mention of the game's own name (its clone
 * key and its full normalised name) taken out, so a copy that only swapped the name still matches;
 * '' when fewer than MIN_DESCRIPTION_WORDS words remain (too short to be evidence).
 */
export function descriptionText(description: string, name: string): string {
  let text = ` ${normaliseText(description)} `;
  for (const phrase of new Set([normaliseText(name), cloneKey(name)])) {
    if (phrase !== '') text = text.split(` ${phrase} `).join(' ');
  }
  const words = text.split(' ').filter(Boolean);
  return words.length >= MIN_DESCRIPTION_WORDS ? words.join(' ') : '';
}

/** What clone detection compares of a game, computed once per game. */
export interface CloneProfile {
  nameGrams: Set<string>;
  /** Trigrams of descriptionText(); empty when the description is too short to compare. */
  descriptionGrams: Set<string>;
}

/** `withDescription: false` skips the description (when the other side has none worth comparing). */
export function cloneProfile(
  game: { name: string; description: string },
  withDescription = true,
): CloneProfile {
  return {
    nameGrams: trigrams(cloneKey(game.name)),
    descriptionGrams: withDescription ? trigrams(descriptionText(game.description, game.name)) : new Set(),
  };
}

/** The higher of the name and the description similarity (descriptions only when both are long enough). */
export function cloneSimilarity(a: CloneProfile, b: CloneProfile): number {
  const names = jaccard(a.nameGrams, b.nameGrams);
  if (a.descriptionGrams.size === 0 || b.descriptionGrams.size === 0) return names;
  return Math.max(names, jaccard(a.descriptionGrams, b.descriptionGrams));
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** What a similarity is made of: each figure rounded to four decimals. */
export interface CloneEvidence {
  /** Jaccard similarity of the clone keys' trigrams. */
  name: number;
  /** Jaccard similarity of the descriptionText() trigrams; null when either is too short to compare. */
  description: number | null;
  /** The higher of the two: what CLONE_THRESHOLD applies to. */
  similarity: number;
}

/** The name and description similarity of two games, and the overall similarity they give. */
export function cloneEvidence(a: CloneProfile, b: CloneProfile): CloneEvidence {
  const name = jaccard(a.nameGrams, b.nameGrams);
  if (a.descriptionGrams.size === 0 || b.descriptionGrams.size === 0) {
    return { name: round4(name), description: null, similarity: round4(name) };
  }
  const description = jaccard(a.descriptionGrams, b.descriptionGrams);
  return {
    name: round4(name),
    description: round4(description),
    similarity: round4(Math.max(name, description)),
  };
}

export interface CloneCandidate {
  universeId: number;
  placeId: number;
  name: string;
  creator: string;
  description: string;
  ccu: number;
}

export interface CloneMatch {
  place_id: number;
  name: string;
  creator: string;
  similarity: number;
}

/**
 * The clones of `game` among `candidates`: similarity ≥ CLONE_THRESHOLD (four decimals), never the
 * game itself, most similar first, then busiest, then lowest place id; at most `limit`.
 */
export function rankClones(
  game: { universeId: number; name: string; description: string },
  candidates: readonly CloneCandidate[],
  limit = MAX_CLONES,
): CloneMatch[] {
  const scored = scoreClones(game, candidates).map(({ candidate: c, evidence }) => ({
    place_id: c.placeId,
    name: c.name,
    creator: c.creator,
    similarity: evidence.similarity,
    ccu: c.ccu,
  }));
  scored.sort((x, y) => y.similarity - x.similarity || y.ccu - x.ccu || x.place_id - y.place_id);
  return scored.slice(0, limit).map(({ ccu: _ccu, ...match }) => match);
}

/**
 * Every candidate that is a clone of `game` (similarity ≥ CLONE_THRESHOLD, four decimals), with its
 * evidence, in candidate order; never the game itself, each candidate once. rankClones ranks these.
 */
export function scoreClones<C extends { universeId: number; name: string; description: string }>(
  game: { universeId: number; name: string; description: string },
  candidates: readonly C[],
): { candidate: C; evidence: CloneEvidence }[] {
  const own = cloneProfile(game);
  const seen = new Set<number>([game.universeId]);
  const out: { candidate: C; evidence: CloneEvidence }[] = [];
  for (const c of candidates) {
    if (seen.has(c.universeId)) continue;
    seen.add(c.universeId);
    const evidence = cloneEvidence(own, cloneProfile(c, own.descriptionGrams.size > 0));
    if (evidence.similarity >= CLONE_THRESHOLD) out.push({ candidate: c, evidence });
  }
  return out;
}

export interface NameMatch extends CloneMatch {
  ccu: number;
}

/**
 * `candidates` scored by name alone (the Jaccard similarity of their clone keys' trigrams, four
 * decimals), most similar first, then busiest, then lowest place id; at most `limit`, with no
 * threshold: what a draft title is closest to.
 */
export function closestNames(
  title: string,
  candidates: readonly CloneCandidate[],
  limit: number,
): NameMatch[] {
  const own = trigrams(cloneKey(title));
  const seen = new Set<number>();
  const scored: NameMatch[] = [];
  for (const c of candidates) {
    if (seen.has(c.universeId)) continue;
    seen.add(c.universeId);
    const similarity = Math.round(jaccard(own, trigrams(cloneKey(c.name))) * 10_000) / 10_000;
    scored.push({ place_id: c.placeId, name: c.name, creator: c.creator, similarity, ccu: c.ccu });
  }
  scored.sort((x, y) => y.similarity - x.similarity || y.ccu - x.ccu || x.place_id - y.place_id);
  return scored.slice(0, limit);
}
