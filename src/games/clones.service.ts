/**
 * Clone detection for game detail (DECISIONS §5): same-genre games whose normalised names or
 * descriptions are near-duplicates. Candidates come from market's clone-candidates.repo.ts, the
 * rules from clones.ts.
 */
import type { Db } from '../db/index.js';
import { type CandidateRow, descriptionCandidates, nameCandidates } from '../market/index.js';
import {
  type CloneCandidate,
  type CloneEvidence,
  type CloneMatch,
  cloneKey,
  closestNames,
  descriptionText,
  type NameMatch,
  rankClones,
  scoreClones,
} from './clones.js';

export interface CloneSubject {
  universeId: number;
  genre: string;
  name: string;
  description: string;
}

const toCandidate = (r: CandidateRow): CloneCandidate => ({
  universeId: r.universe_id,
  placeId: r.place_id,
  name: r.name,
  creator: r.creator_name,
  description: r.description,
  ccu: r.ccu ?? 0,
});

/** The game's look-alike candidates within its genre (a loose superset of its clones). */
async function candidatesOf(db: Db, game: CloneSubject): Promise<CandidateRow[]> {
  const key = cloneKey(game.name);
  const scope = { genre: game.genre, universeId: game.universeId };
  const byName = key === '' ? [] : await nameCandidates(db, { ...scope, key });
  // Short descriptions are never compared (clones.ts, MIN_DESCRIPTION_WORDS): skip the genre scan.
  const byDescription =
    descriptionText(game.description, game.name) === ''
      ? []
      : await descriptionCandidates(db, { ...scope, description: game.description });
  return [...byName, ...byDescription];
}

/** The game's clones, most similar first (at most 10); never the game itself. */
export async function findClones(db: Db, game: CloneSubject): Promise<CloneMatch[]> {
  return rankClones(game, (await candidatesOf(db, game)).map(toCandidate));
}

/**
 * Every clone of the game (not only the 10 most similar), as its catalogue row with the evidence:
 * the same candidates and rule as findClones. What the intelligence domain stores as clone pairs.
 */
export async function findCloneEvidence(
  db: Db,
  game: CloneSubject,
): Promise<{ candidate: CandidateRow; evidence: CloneEvidence }[]> {
  const rows = await candidatesOf(db, game);
  const byId = new Map(rows.map((r) => [r.universe_id, r]));
  return scoreClones(game, rows.map(toCandidate)).map(({ candidate, evidence }) => ({
    candidate: byId.get(candidate.universeId)!,
    evidence,
  }));
}

/**
 * The games of `genre` whose names are closest to a draft `title` (closestNames over the name
 * candidates search finds: word similarity ≥ NAME_CANDIDATE_THRESHOLD), at most `limit`.
 */
export async function findClosestNames(
  db: Db,
  p: { genre: string; title: string },
  limit: number,
): Promise<NameMatch[]> {
  const key = cloneKey(p.title);
  if (key === '') return [];
  const candidates = await nameCandidates(db, { genre: p.genre, universeId: 0, key });
  return closestNames(p.title, candidates.map(toCandidate), limit);
}
