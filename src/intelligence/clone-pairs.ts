/**
 * Clone pairs: which of two look-alike games is the original, and the evidence beyond text
 * similarity (same creator, creation gap). Pure; the similarity figures come from the games
 * domain's detector (games/clones.ts), unchanged.
 */
import { CLONE_THRESHOLD, MIN_DESCRIPTION_WORDS } from '../games/index.js';

const DAY_MS = 86_400_000;

/** What a pair's ordering and evidence need of each game. */
export interface PairGame {
  universe_id: number;
  creator_id: number | null;
  creator_type: string;
  creator_name: string;
  created_at: Date | null;
  ccu: number | null;
}

/**
 * [original, clone]: the game created first is the original; a game without a creation date comes
 * after every dated one; on a tie the busier (latest CCU, none counting as 0), then the lower
 * universe id.
 */
export function orderPair<G extends PairGame>(a: G, b: G): [G, G] {
  const ca = a.created_at?.getTime() ?? Number.POSITIVE_INFINITY;
  const cb = b.created_at?.getTime() ?? Number.POSITIVE_INFINITY;
  if (ca !== cb) return ca < cb ? [a, b] : [b, a];
  return tieBreak(a, b);
}

function tieBreak<G extends PairGame>(a: G, b: G): [G, G] {
  const busier = (b.ccu ?? 0) - (a.ccu ?? 0);
  if (busier !== 0) return busier < 0 ? [a, b] : [b, a];
  return a.universe_id <= b.universe_id ? [a, b] : [b, a];
}

/** Same Roblox user or group (id and type); by name only when either id is unknown. */
export function sameCreator(a: PairGame, b: PairGame): boolean {
  if (a.creator_id === null || b.creator_id === null) {
    return a.creator_name.toLowerCase() === b.creator_name.toLowerCase();
  }
  return a.creator_id === b.creator_id && a.creator_type === b.creator_type;
}

/** Days from the original's creation to the clone's, one decimal; null when either date is unknown. */
export function creationGapDays(original: PairGame, clone: PairGame): number | null {
  if (original.created_at === null || clone.created_at === null) return null;
  return Math.round(((clone.created_at.getTime() - original.created_at.getTime()) / DAY_MS) * 10) / 10;
}

/** How the lists' figures are made (every response and the OpenAPI description state it). */
export const CLONES_METHOD =
  'Pairs of games of the same genre that the game-detail clone detector matches, stored when the collector ' +
  'first sees either game (or its name, description or genre change) and checked again on every such change. ' +
  'Names are reduced to their clone key (lower case, accents stripped, bracketed tags, NEW/FREE/UPDATE/BETA/X ' +
  'markers and version numbers peeled off); name_similarity is the Jaccard similarity of the two keys’ ' +
  'character trigrams (as pg_trgm makes them). description_similarity is the same of the descriptions with each ' +
  `game’s own name taken out, null when either keeps fewer than ${MIN_DESCRIPTION_WORDS} words (templates prove ` +
  `nothing). similarity is the higher of the two, four decimals; a pair needs similarity ≥ ${CLONE_THRESHOLD}. ` +
  'The original is the game created first (undated games after dated ones; on a tie the busier, then the lower ' +
  'universe id). same_creator: the same Roblox user or group id. creation_gap_days: days from the original’s ' +
  'creation to the clone’s, one decimal. detected_at: when a detection run first found the pair.';
