/**
 * A Hampel filter on log series (daily means carry one-day spikes from updates, events and outages
 * that would drag an exponential-smoothing level). Pure; the median comes from the stats kit.
 */
import { median } from '../../stats.js';

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
