/**
 * Clone detection over a whole genre at once (a first run over a catalogue): the rule of clones.ts
 * applied to every pair of the genre that could reach the threshold, found by set sizes instead of
 * the candidate search game detail uses. Pure.
 */
import {
  CLONE_THRESHOLD,
  type CloneEvidence,
  type CloneProfile,
  cloneEvidence,
  cloneProfile,
  jaccard,
} from './clones.js';

/**
 * A Jaccard similarity of at least CLONE_THRESHOLD (after rounding) needs the smaller set to hold at
 * least this share of the larger one's size: pairs outside it are never compared.
 */
const SIZE_WINDOW = 0.79;

/** Game indices by ascending set size (empty sets left out), to find a size's window by bisection. */
function bySize(sizes: readonly number[]): { order: number[]; sizes: number[] } {
  const order = sizes
    .map((_, i) => i)
    .filter((i) => sizes[i]! > 0)
    .sort((a, b) => sizes[a]! - sizes[b]!);
  return { order, sizes: order.map((i) => sizes[i]!) };
}

/** The first position in ascending `sizes` whose size is ≥ `min`. */
function lowerBound(sizes: readonly number[], min: number): number {
  let lo = 0;
  let hi = sizes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sizes[mid]! < min) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The unrounded similarity from which a rounded one reaches CLONE_THRESHOLD. */
const RAW_THRESHOLD = CLONE_THRESHOLD - 0.00005;

/**
 * Clone pairs within one genre, for checking many games at once: scoreClones' rule applied to every
 * game of the genre rather than to searched candidates. `pairsOf(i)` gives the pairs game i is in
 * with a game that is not an earlier subject (call it for subjects in ascending order, in as many
 * slices as suits, and each pair comes once).
 */
export class GenreClones<C extends { universeId: number; name: string; description: string }> {
  private readonly profiles: CloneProfile[];
  private readonly names: { order: number[]; sizes: number[] };
  private readonly descriptions: { order: number[]; sizes: number[] };

  constructor(
    private readonly games: readonly C[],
    private readonly subject: readonly boolean[],
  ) {
    this.profiles = games.map((g) => cloneProfile(g));
    this.names = bySize(this.profiles.map((p) => p.nameGrams.size));
    this.descriptions = bySize(this.profiles.map((p) => p.descriptionGrams.size));
  }

  pairsOf(i: number): { a: C; b: C; evidence: CloneEvidence }[] {
    const out: { a: C; b: C; evidence: CloneEvidence }[] = [];
    const own = this.profiles[i]!;
    const skip = (j: number) =>
      j === i || (this.subject[j] && j < i) || this.games[j]!.universeId === this.games[i]!.universeId;
    const names = (j: number) => jaccard(own.nameGrams, this.profiles[j]!.nameGrams);
    const keep = (j: number) => {
      const evidence = cloneEvidence(own, this.profiles[j]!);
      if (evidence.similarity >= CLONE_THRESHOLD)
        out.push({ a: this.games[i]!, b: this.games[j]!, evidence });
    };
    // A Jaccard similarity ≥ 0.8 needs the smaller set to hold ≥ 0.8 of the larger's size.
    const window = (
      index: { order: number[]; sizes: number[] },
      size: number,
      visit: (j: number) => void,
    ) => {
      if (size === 0) return;
      const end = lowerBound(index.sizes, Math.floor(size / SIZE_WINDOW) + 1);
      for (let p = lowerBound(index.sizes, Math.ceil(size * SIZE_WINDOW)); p < end; p++) {
        const j = index.order[p]!;
        if (!skip(j)) visit(j);
      }
    };
    window(this.names, own.nameGrams.size, (j) => {
      if (names(j) >= RAW_THRESHOLD) keep(j);
    });
    // Pairs alike by description only (their names did not already make them clones).
    window(this.descriptions, own.descriptionGrams.size, (j) => {
      if (names(j) >= RAW_THRESHOLD) return;
      if (jaccard(own.descriptionGrams, this.profiles[j]!.descriptionGrams) >= RAW_THRESHOLD) keep(j);
    });
    return out;
  }
}

/** Every clone pair within one genre that involves a game `isSubject` accepts, each once. */
export function clonesWithin<C extends { universeId: number; name: string; description: string }>(
  games: readonly C[],
  isSubject: (game: C) => boolean,
): { a: C; b: C; evidence: CloneEvidence }[] {
  const subject = games.map(isSubject);
  const genre = new GenreClones(games, subject);
  return games.flatMap((_, i) => (subject[i] ? genre.pairsOf(i) : []));
}
