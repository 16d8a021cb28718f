/**
 * The one statistics kit (Dev Lens patterns, forecasts and whatever comes next): summaries (mean,
 * variance, median, MAD, percentiles), the standard normal CDF and quantile, Student's t two-sided
 * p-value, Welch's t-test (from samples or from their moments), the Mann–Kendall trend test, the
 * Theil–Sen slope, the Wilson score interval, and for comparing two groups (brand lift,
 * experiments): Newcombe's hybrid score interval for a difference of proportions, the pooled
 * two-proportion z-test, Pearson's chi-square goodness of fit (sample-ratio mismatch) and the
 * sample size per group that detects a given effect. Pure and neutral: it imports no domain.
 *
 * Special functions come from stdlib (@stdlib/stats-base-dists-normal-cdf, -normal-quantile,
 * -t-cdf and -chisquare-cdf): ports of the Cephes/Boost algorithms, accurate to 1e-12 relative or better (the
 * hand-written ones they replace: 1.5e-7 (A&S 7.1.26), 1.2e-7 (Numerical Recipes erfc), 1.2e-9 (Acklam)),
 * typed, actively released, Apache-2.0, plain JavaScript with no native code at run time. jStat was
 * the other candidate: one package, but no type declarations, its Student t is the same Numerical
 * Recipes continued fraction this kit had, and it has not been released since 2022. stdlib's price
 * is a wide tree of tiny packages (about 220, 25 MB in node_modules), paid at install time only.
 * The rest (ranks, medians, slopes, test statistics) is plain arithmetic written here.
 */
import chiSquareCdf from '@stdlib/stats-base-dists-chisquare-cdf';
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

/** A sample summarised: its size, mean and unbiased variance (what a rollup can keep). */
export interface Moments {
  n: number;
  mean: number;
  variance: number;
}

/** The moments of a sample (variance 0 below two values). */
export function moments(xs: readonly number[]): Moments {
  return { n: xs.length, mean: xs.length === 0 ? 0 : mean(xs), variance: xs.length < 2 ? 0 : variance(xs) };
}

/** Welch's unequal-variance t-test of mean(a) − mean(b); two-sided p (NaN-free: p = 1 when undefined). */
export function welch(a: readonly number[], b: readonly number[]): { t: number; df: number; p: number } {
  return welchMoments(moments(a), moments(b));
}

/** Welch's t-test from the two samples' moments (same answer as `welch` on the samples). */
export function welchMoments(a: Moments, b: Moments): { t: number; df: number; p: number } {
  if (a.n < 2 || b.n < 2) return { t: 0, df: 0, p: 1 };
  const va = a.variance / a.n;
  const vb = b.variance / b.n;
  const se2 = va + vb;
  if (!(se2 > 0)) return { t: 0, df: 0, p: 1 };
  const t = (a.mean - b.mean) / Math.sqrt(se2);
  const df = (se2 * se2) / ((va * va) / (a.n - 1) + (vb * vb) / (b.n - 1));
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

/**
 * Newcombe's hybrid score interval (1998, method 10) for p1 − p2 = x1/n1 − x2/n2: built from each
 * proportion's Wilson interval, so it stays inside [−1, 1] and behaves at 0 and 100%. Null when a
 * group is empty.
 */
export function newcombeDifference(
  x1: number,
  n1: number,
  x2: number,
  n2: number,
  level = 0.95,
): { low: number; high: number } | null {
  if (n1 <= 0 || n2 <= 0) return null;
  const p1 = x1 / n1;
  const p2 = x2 / n2;
  const a = wilson(x1, n1, level);
  const b = wilson(x2, n2, level);
  const d = p1 - p2;
  return {
    low: d - Math.sqrt((p1 - a.low) ** 2 + (b.high - p2) ** 2),
    high: d + Math.sqrt((a.high - p1) ** 2 + (p2 - b.low) ** 2),
  };
}

/** The pooled two-proportion z-test of x1/n1 against x2/n2; two-sided p (1 when undefined). */
export function twoProportionTest(x1: number, n1: number, x2: number, n2: number): { z: number; p: number } {
  if (n1 <= 0 || n2 <= 0) return { z: 0, p: 1 };
  const pooled = (x1 + x2) / (n1 + n2);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  if (!(se > 0)) return { z: 0, p: 1 };
  const z = (x1 / n1 - x2 / n2) / se;
  return { z, p: Math.min(1, 2 * normalCdf(-Math.abs(z))) };
}

/**
 * Pearson's chi-square goodness of fit of `observed` counts to `shares` (weights, normalised here):
 * the statistic, its degrees of freedom (groups − 1) and the upper-tail p-value. p = 1 with no
 * observations or a single group.
 */
export function chiSquareGoodnessOfFit(
  observed: readonly number[],
  shares: readonly number[],
): { statistic: number; df: number; p: number } {
  const total = observed.reduce((s, x) => s + x, 0);
  const weight = shares.reduce((s, x) => s + x, 0);
  const df = observed.length - 1;
  if (total <= 0 || df < 1 || !(weight > 0)) return { statistic: 0, df: Math.max(0, df), p: 1 };
  let statistic = 0;
  for (const [i, o] of observed.entries()) {
    const expected = (total * shares[i]!) / weight;
    if (expected > 0) statistic += (o - expected) ** 2 / expected;
    else if (o > 0) return { statistic: Number.POSITIVE_INFINITY, df, p: 0 };
  }
  return { statistic, df, p: Math.min(1, Math.max(0, 1 - chiSquareCdf(statistic, df))) };
}

/**
 * Players per group for a two-sided test at `alpha` with `power` to detect a change of a rate from
 * `base` to `base + effect` (absolute): the normal-approximation formula of Fleiss (unpooled
 * variance under the alternative), rounded up. Null when the rates leave (0, 1) or effect is 0.
 */
export function sampleSizeTwoProportions(
  base: number,
  effect: number,
  alpha = 0.05,
  power = 0.8,
): number | null {
  const other = base + effect;
  if (!(base > 0 && base < 1 && other > 0 && other < 1) || effect === 0) return null;
  const za = normalQuantile(1 - alpha / 2);
  const zb = normalQuantile(power);
  const mid = (base + other) / 2;
  const n =
    (za * Math.sqrt(2 * mid * (1 - mid)) + zb * Math.sqrt(base * (1 - base) + other * (1 - other))) ** 2 /
    effect ** 2;
  return Math.ceil(n);
}

/** Players per group to detect a difference of `effect` in a mean whose standard deviation is `sd`
 * (two-sided, normal approximation): 2 (z₁₋α/₂ + z_power)² sd² / effect², rounded up. */
export function sampleSizeTwoMeans(sd: number, effect: number, alpha = 0.05, power = 0.8): number | null {
  if (!(sd > 0) || effect === 0 || !Number.isFinite(effect)) return null;
  const z = normalQuantile(1 - alpha / 2) + normalQuantile(power);
  return Math.ceil((2 * z * z * sd * sd) / (effect * effect));
}

/**
 * The p-quantile of Student's t with df degrees of freedom (df may be fractional, as Welch's), for
 * 0 < p < 1: found by bisection on the t CDF to 1e-12 (stdlib's t quantile is not a dependency;
 * the CDF is). df = ∞ or above 1e7: the normal quantile.
 */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`studentTQuantile needs 0 < p < 1 (got ${p})`);
  if (!(df > 0)) throw new RangeError(`studentTQuantile needs df > 0 (got ${df})`);
  if (df > 1e7) return normalQuantile(p);
  if (p === 0.5) return 0;
  let lo = 0;
  let hi = 1;
  const upper = Math.max(p, 1 - p);
  while (tCdf(hi, df) < upper) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-12 * Math.max(1, hi); i++) {
    const mid = (lo + hi) / 2;
    if (tCdf(mid, df) < upper) lo = mid;
    else hi = mid;
  }
  const q = (lo + hi) / 2;
  return p > 0.5 ? q : -q;
}

/** Cliff's δ of two samples with its confidence interval (see `cliffsDelta`). */
export interface CliffsDelta {
  /** P(a > b) − P(a < b) over every pair, −1..1 (ties count half each way, so add nothing). */
  delta: number;
  /** The estimate's standard error (Cliff's consistent estimator, floored; see `cliffsDelta`). */
  se: number;
  low: number;
  high: number;
}

/** How many values of `sorted` are below `x` and how many above it (binary search). */
function belowAbove(x: number, sorted: Float64Array): { below: number; above: number } {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  const below = lo;
  hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return { below, above: sorted.length - lo };
}

/**
 * Cliff's δ (dominance) of `a` over `b`: the share of pairs where a's value is the larger minus the
 * share where it is the smaller. Rank-based, so it ignores scale, skew and any monotone transform
 * (log or not, the same δ), and it is the difference of proportions for 0/1 data. Its standard error
 * is Cliff's (1993) consistent estimator
 *   s² = [n_b² Σᵢ(δᵢ. − δ)² + n_a² Σⱼ(δ.ⱼ − δ)² − ΣᵢΣⱼ(dᵢⱼ − δ)²] / [n_a n_b (n_a − 1)(n_b − 1)],
 * floored at (1 − δ²)/(n_a n_b − 1) so that ties alone never give a zero-width interval, and the
 * interval is Cliff's asymmetric one, (δ − δ³ ± z s √((1 − δ²)² + z² s²)) / (1 − δ² + z² s²), which
 * stays inside [−1, 1]. When the groups do not overlap at all (|δ| = 1, s = 0) it runs from
 * ±(2W − 1) to ±1, W the Wilson lower limit of m successes out of m, m the smaller group.
 * O((n_a + n_b) log n_b): every pair's sign comes from binary searches. Null under two values a group.
 */
export function cliffsDelta(a: readonly number[], b: readonly number[], level = 0.95): CliffsDelta | null {
  const na = a.length;
  const nb = b.length;
  if (na < 2 || nb < 2) return null;
  const sortedA = Float64Array.from(a).sort();
  const sortedB = Float64Array.from(b).sort();
  // dᵢ. = (#b below aᵢ − #b above aᵢ) / n_b; d.ⱼ = (#a above bⱼ − #a below bⱼ) / n_a.
  let untied = 0;
  const rows = a.map((x) => {
    const { below, above } = belowAbove(x, sortedB);
    untied += below + above;
    return (below - above) / nb;
  });
  const cols = b.map((y) => {
    const { below, above } = belowAbove(y, sortedA);
    return (above - below) / na;
  });
  const pairs = na * nb;
  const delta = mean(rows);
  let rowSs = 0;
  for (const r of rows) rowSs += (r - delta) ** 2;
  let colSs = 0;
  for (const c of cols) colSs += (c - delta) ** 2;
  // Σ(dᵢⱼ − δ)² = Σdᵢⱼ² − n_a n_b δ², and dᵢⱼ² is 1 for every untied pair.
  const pairSs = untied - pairs * delta * delta;
  const estimate = (nb * nb * rowSs + na * na * colSs - pairSs) / (pairs * (na - 1) * (nb - 1));
  const variance = Math.max(estimate, (1 - delta * delta) / (pairs - 1));
  const se = Math.sqrt(Math.max(0, variance));
  const z = normalQuantile((1 + level) / 2);
  if (Math.abs(delta) >= 1 && !(se > 0)) {
    const m = Math.min(na, nb);
    const edge = 2 * wilson(m, m, level).low - 1;
    return delta > 0 ? { delta, se: 0, low: edge, high: 1 } : { delta, se: 0, low: -1, high: -edge };
  }
  const d2 = 1 - delta * delta;
  const zs2 = z * z * variance;
  const root = z * se * Math.sqrt(d2 * d2 + zs2);
  const denominator = d2 + zs2;
  return {
    delta,
    se,
    low: Math.max(-1, (delta - delta ** 3 - root) / denominator),
    high: Math.min(1, (delta - delta ** 3 + root) / denominator),
  };
}
