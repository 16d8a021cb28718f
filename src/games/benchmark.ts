/**
 * Benchmark arithmetic: where one value sits among the other games of its genre. Pure, so the
 * definition is tested without a database; the counts come from benchmark.repo.ts.
 */

/** How many other games of the genre hold a value, and how many of them lie below or level with it. */
export interface RankCounts {
  others: number;
  below: number;
  equal: number;
}

/**
 * Mid-rank percentile among the other games: 100 × (others below + ½ × others equal) / others,
 * rounded to an integer (halves up). The best game of its genre scores 100, the worst 0, a game
 * level with every other 50. null when no other game has a value to compare with.
 */
export function midRankPercentile(c: RankCounts): number | null {
  if (c.others <= 0) return null;
  return Math.round((100 * (c.below + c.equal / 2)) / c.others);
}

/** A mean rounded to `digits` decimals; null stays null. */
export function roundOrNull(value: number | null, digits: number): number | null {
  if (value === null) return null;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
