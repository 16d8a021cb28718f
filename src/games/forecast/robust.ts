/**
 * Robust helpers on log series: a Hampel filter (daily means carry one-day spikes from updates,
 * events and outages that would drag an exponential-smoothing level) and the median. Pure.
 */

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Replaces each value further than `threshold` scaled MADs from the median of its ±`halfWidth`
 * neighbourhood by that median. The last days are judged on a one-sided window, so a real jump at
 * the end survives only once it lasts.
 */
export function hampel(y: readonly number[], halfWidth: number, threshold: number): number[] {
  return y.map((v, i) => {
    const w = y.slice(Math.max(0, i - halfWidth), i + halfWidth + 1);
    const med = median(w);
    const mad = 1.4826 * median(w.map((x) => Math.abs(x - med)));
    return Math.abs(v - med) > threshold * mad ? med : v;
  });
}
