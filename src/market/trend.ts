/**
 * The trend score of spec/DECISIONS.md §4, one formula for trending, game detail and alerts:
 * 100·tanh(ln((mean CCU over the latest period + 1) / (mean CCU over the preceding period + 1))),
 * in −100..100. A game with no reading in the preceding period has no baseline: its score is null
 * rather than a made-up surge.
 */
export function trendScore(recentMean: number, previousMean: number | null): number | null {
  if (previousMean === null || !Number.isFinite(previousMean) || !Number.isFinite(recentMean)) return null;
  const s = 100 * Math.tanh(Math.log((Math.max(0, recentMean) + 1) / (Math.max(0, previousMean) + 1)));
  return Math.round(s * 100) / 100;
}

/**
 * `n` evenly spaced values across a period from bucket means (bucket i of n, oldest first; a missing
 * bucket is undefined). Gaps are filled from the nearest earlier bucket (the latest known reading),
 * leading gaps from the first known one; an all-empty series gives [].
 */
export function fillBuckets(buckets: readonly (number | undefined)[]): number[] {
  const first = buckets.find((v) => v !== undefined);
  if (first === undefined) return [];
  let last = first;
  return buckets.map((v) => {
    if (v !== undefined) last = v;
    return Math.round(last);
  });
}
