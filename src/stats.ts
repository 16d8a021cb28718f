/**
 * The one statistics kit (Dev Lens patterns, forecasts and whatever comes next): summaries (mean,
 * variance, median, MAD, percentiles), the standard normal CDF and quantile, Student's t two-sided
 * p-value, Welch's t-test, the Mann–Kendall trend test, the Theil–Sen slope and the Wilson score
 * interval. Pure and neutral: it imports no domain.
 *
 * Special functions come from stdlib (@stdlib/stats-base-dists-normal-cdf, -normal-quantile and
 * -t-cdf): ports of the Cephes/Boost algorithms, accurate to 1e-12 relative or better (the
 * hand-written ones they replace: 1.5e-7 (A&S 7.1.26), 1.2e-7 (Numerical Recipes erfc), 1.2e-9 (Acklam)),
 * typed, actively released, Apache-2.0, plain JavaScript with no native code at run time. jStat was
 * the other candidate: one package, but no type declarations, its Student t is the same Numerical
 * Recipes continued fraction this kit had, and it has not been released since 2022. stdlib's price
 * is a wide tree of tiny packages (about 220, 25 MB in node_modules), paid at install time only.
 * The rest (ranks, medians, slopes, test statistics) is plain arithmetic written here.
 */
import normalCdfAt from '@stdlib/stats-base-dists-normal-cdf';
import normalQuantileAt from '@stdlib/stats-base-dists-normal-quantile';
import tCdf from '@stdlib/stats-base-dists-t-cdf';

export function mean(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return xs.length === 0 ? Number.NaN : s / xs.length;
}

/** Sample variance (n − 1); NaN under two values. */
export function variance(xs: readonly number[]): number {
  if (xs.length < 2) return Number.NaN;
  const m = mean(xs);
  let s = 0;
  for (const x of xs) s += (x - m) * (x - m);
  return s / (xs.length - 1);
}

export function median(xs: ArrayLike<number>): number {
  if (xs.length === 0) return Number.NaN;
  // A typed array sorts numerically in native code: several times faster than a comparator sort,
  // which matters for Theil–Sen's ~n²/2 slopes.
  const s = Float64Array.from(xs).sort();
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Median absolute deviation (unscaled); robust z = 0.6745 × (x − median) / MAD (Iglewicz–Hoaglin). */
export function mad(xs: readonly number[], centre = median(xs)): number {
  return median(xs.map((x) => Math.abs(x - centre)));
}

/**
 * The q-quantile (0 ≤ q ≤ 1) by linear interpolation between order statistics (Hyndman–Fan type 7,
 * NumPy's and R's default); NaN for an empty list.
 */
export function percentile(xs: ArrayLike<number>, q: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = Float64Array.from(xs).sort();
  const i = (s.length - 1) * Math.min(1, Math.max(0, q));
  const lo = Math.floor(i);
  return s[lo]! + (s[Math.min(lo + 1, s.length - 1)]! - s[lo]!) * (i - lo);
}

/** Φ(z), the standard normal CDF. */
export function normalCdf(z: number): number {
  return normalCdfAt(z, 0, 1);
}

/** Φ⁻¹(p) for 0 < p < 1 (a RangeError otherwise: an interval at level 0 or 1 is a caller's bug). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile needs 0 < p < 1 (got ${p})`);
  return normalQuantileAt(p, 0, 1);
}

/** Two-sided p-value of Student's t with df degrees of freedom (df may be fractional, as Welch's). */
export function studentTwoSidedP(t: number, df: number): number {
  if (!Number.isFinite(t)) return 0;
  return Math.min(1, Math.max(0, 2 * tCdf(-Math.abs(t), df)));
}

/** Theil–Sen slope: the median of pairwise slopes, robust to up to ~29% outliers. O(n²): callers cap n. */
export function theilSen(ts: readonly number[], ys: readonly number[]): { slope: number; intercept: number } {
  const n = ts.length;
  const slopes = new Float64Array((n * (n - 1)) / 2);
  let k = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dt = ts[j]! - ts[i]!;
      if (dt !== 0) slopes[k++] = (ys[j]! - ys[i]!) / dt;
    }
  }
  const slope = k === 0 ? 0 : median(slopes.subarray(0, k));
  const intercept = median(ys.map((y, i) => y - slope * ts[i]!));
  return { slope, intercept };
}

/** Mann–Kendall monotonic-trend test (normal approximation with tie correction); two-sided p. */
export function mannKendall(ys: readonly number[]): { s: number; z: number; p: number } {
  const n = ys.length;
  if (n < 3) return { s: 0, z: 0, p: 1 };
  let s = 0;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) s += Math.sign(ys[j]! - ys[i]!);
  let tieTerm = 0;
  const sorted = [...ys].sort((a, b) => a - b);
  for (let i = 0; i < n; ) {
    let j = i;
    while (j < n && sorted[j] === sorted[i]) j++;
    const t = j - i;
    tieTerm += t * (t - 1) * (2 * t + 5);
    i = j;
  }
  const v = (n * (n - 1) * (2 * n + 5) - tieTerm) / 18;
  if (v <= 0) return { s, z: 0, p: 1 };
  const z = s === 0 ? 0 : (s - Math.sign(s)) / Math.sqrt(v);
  return { s, z, p: Math.min(1, 2 * normalCdf(-Math.abs(z))) };
}

/** Welch's unequal-variance t-test of mean(a) − mean(b); two-sided p (NaN-free: p = 1 when undefined). */
export function welch(a: readonly number[], b: readonly number[]): { t: number; df: number; p: number } {
  if (a.length < 2 || b.length < 2) return { t: 0, df: 0, p: 1 };
  const va = variance(a) / a.length;
  const vb = variance(b) / b.length;
  const se2 = va + vb;
  if (!(se2 > 0)) return { t: 0, df: 0, p: 1 };
  const t = (mean(a) - mean(b)) / Math.sqrt(se2);
  const df = (se2 * se2) / ((va * va) / (a.length - 1) + (vb * vb) / (b.length - 1));
  return { t, df, p: studentTwoSidedP(t, df) };
}

/**
 * Wilson score interval for a proportion (successes out of n) at a two-sided confidence level
 * (0.95 by default); [0, 1] when n is 0.
 */
export function wilson(successes: number, n: number, level = 0.95): { low: number; high: number } {
  if (n <= 0) return { low: 0, high: 1 };
  const z = normalQuantile((1 + level) / 2);
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return {
    low: successes <= 0 ? 0 : Math.max(0, centre - half),
    high: successes >= n ? 1 : Math.min(1, centre + half),
  };
}
