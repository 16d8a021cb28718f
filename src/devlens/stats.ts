/**
 * Small, dependency-free statistics for Dev Lens patterns: robust location/scale, Theil–Sen slope,
 * Mann–Kendall trend test, Welch's t-test. Closed forms (incomplete beta, erf) are the textbook ones
 * (Numerical Recipes §6.1–6.4; Abramowitz & Stegun 7.1.26), accurate far beyond what a label needs.
 */

export function mean(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return xs.length === 0 ? Number.NaN : s / xs.length;
}

export function variance(xs: readonly number[]): number {
  if (xs.length < 2) return Number.NaN;
  const m = mean(xs);
  let s = 0;
  for (const x of xs) s += (x - m) * (x - m);
  return s / (xs.length - 1);
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Median absolute deviation (unscaled); robust z = 0.6745 × (x − median) / MAD (Iglewicz–Hoaglin). */
export function mad(xs: readonly number[], centre = median(xs)): number {
  return median(xs.map((x) => Math.abs(x - centre)));
}

/** Theil–Sen slope: the median of pairwise slopes, robust to up to ~29% outliers. O(n²): callers cap n. */
export function theilSen(ts: readonly number[], ys: readonly number[]): { slope: number; intercept: number } {
  const slopes: number[] = [];
  for (let i = 0; i < ts.length; i++) {
    for (let j = i + 1; j < ts.length; j++) {
      const dt = ts[j]! - ts[i]!;
      if (dt !== 0) slopes.push((ys[j]! - ys[i]!) / dt);
    }
  }
  const slope = slopes.length === 0 ? 0 : median(slopes);
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
  return { s, z, p: 2 * (1 - normalCdf(Math.abs(z))) };
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

export function studentTwoSidedP(t: number, df: number): number {
  if (!Number.isFinite(t)) return 0;
  return Math.min(1, Math.max(0, incompleteBeta(df / (df + t * t), df / 2, 0.5)));
}

/** Standard normal CDF via erf (A&S 7.1.26, |error| < 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly =
    t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** Inverse of normalCdf by bisection (60 halvings: far below the CDF's own error). */
export function normalQuantile(p: number): number {
  let lo = -40;
  let hi = 40;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (normalCdf(mid) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

function logGamma(x: number): number {
  // Lanczos approximation (g = 7, n = 9).
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const xx = x - 1;
  let a = c[0]!;
  const t = xx + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (xx + i);
  return 0.5 * Math.log(2 * Math.PI) + (xx + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Regularised incomplete beta I_x(a, b). */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(x, a, b)) / a;
  return 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
}

function betaContinuedFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  d = 1 / (Math.abs(d) < tiny ? tiny : d);
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    for (const num of [
      (m * (b - m) * x) / ((a + m2 - 1) * (a + m2)),
      (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1)),
    ]) {
      d = 1 + num * d;
      d = 1 / (Math.abs(d) < tiny ? tiny : d);
      c = 1 + num / c;
      if (Math.abs(c) < tiny) c = tiny;
      h *= d * c;
    }
    if (Math.abs(d * c - 1) < 1e-12) break;
  }
  return h;
}
