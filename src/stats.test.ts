import { describe, expect, it } from 'vitest';
import {
  chiSquareGoodnessOfFit,
  mad,
  mannKendall,
  median,
  moments,
  newcombeDifference,
  normalCdf,
  normalQuantile,
  percentile,
  sampleSizeTwoMeans,
  sampleSizeTwoProportions,
  studentTQuantile,
  studentTwoSidedP,
  theilSen,
  twoProportionTest,
  welch,
  welchMoments,
  wilson,
} from './stats.js';

// Reference values from SciPy 1.17 (stats.t.sf, stats.norm.cdf/ppf, stats.ttest_ind(equal_var=False), theilslopes).
describe('statistics', () => {
  it('matches SciPy for Student t p-values and the normal CDF', () => {
    expect(studentTwoSidedP(2.0, 10)).toBeCloseTo(0.07338803477074037, 9);
    expect(studentTwoSidedP(3.5, 4.5)).toBeCloseTo(0.020541689969385577, 9);
    expect(normalCdf(1.96)).toBeCloseTo(0.9750021048517795, 6);
  });

  it('matches SciPy for the normal CDF and quantile to double precision, tails included', () => {
    expect(normalCdf(1.96)).toBeCloseTo(0.9750021048517795, 14);
    expect(normalCdf(-5) / 2.866515718791939e-7).toBeCloseTo(1, 10);
    expect(normalCdf(Number.POSITIVE_INFINITY)).toBe(1);
    expect(normalCdf(Number.NEGATIVE_INFINITY)).toBe(0);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 13);
    expect(normalQuantile(0.9)).toBeCloseTo(1.2815515655446004, 13);
    expect(normalQuantile(1e-6)).toBeCloseTo(-4.753424308822899, 10);
    expect(() => normalQuantile(1)).toThrow(RangeError);
    expect(() => normalQuantile(0)).toThrow(RangeError);
  });

  it('gives percentiles as NumPy’s default (linear) method', () => {
    expect(percentile([1, 2, 3, 4], 0.25)).toBe(1.75);
    expect(percentile([4, 1, 3, 2], 0.5)).toBe(2.5);
    expect(percentile([7], 0.9)).toBe(7);
    expect(percentile([10, 20, 30], 1)).toBe(30);
    expect(percentile([], 0.5)).toBeNaN();
  });

  it('matches statsmodels for the Wilson score interval', () => {
    // statsmodels proportion_confint(8, 10, alpha=0.05, method='wilson').
    const w = wilson(8, 10);
    expect(w.low).toBeCloseTo(0.4901624715, 9);
    expect(w.high).toBeCloseTo(0.9433178485, 9);
    expect(wilson(0, 0)).toEqual({ low: 0, high: 1 });
    expect(wilson(0, 5).low).toBe(0);
    expect(wilson(5, 5).high).toBe(1);
  });

  it('matches SciPy for Welch’s t-test', () => {
    const r = welch([1, 2, 3, 4, 5], [2, 4, 6, 8, 10, 12]);
    expect(r.t).toBeCloseTo(-2.3763541031440183, 9);
    expect(r.df).toBeCloseTo(6.972255729794934, 9);
    expect(r.p).toBeCloseTo(0.04928433820673053, 8);
  });

  it('gives Welch’s answer from moments as from the samples', () => {
    const a = [1, 2, 3, 4, 5];
    const b = [2, 4, 6, 8, 10, 12];
    expect(welchMoments(moments(a), moments(b))).toEqual(welch(a, b));
    expect(moments(a)).toEqual({ n: 5, mean: 3, variance: 2.5 });
  });

  it('matches Newcombe (1998) for the hybrid score interval of a difference of proportions', () => {
    // Newcombe, Statistics in Medicine 17:873–890, Table II, method 10: 56/70 − 48/80 and 9/10 − 3/10.
    const a = newcombeDifference(56, 70, 48, 80)!;
    expect(a.low).toBeCloseTo(0.0524, 4);
    expect(a.high).toBeCloseTo(0.3339, 4);
    const b = newcombeDifference(9, 10, 3, 10)!;
    expect(b.low).toBeCloseTo(0.1705, 4);
    expect(b.high).toBeCloseTo(0.809, 4);
    expect(newcombeDifference(1, 0, 1, 5)).toBeNull();
  });

  it('gives the pooled two-proportion z-test', () => {
    // Pooled p = 104/150; z = 0.2 / sqrt(p(1 − p)(1/70 + 1/80)) = 2.65016…, p = 2Φ(−z).
    const r = twoProportionTest(56, 70, 48, 80);
    expect(r.z).toBeCloseTo(2.65016, 4);
    expect(r.p).toBeCloseTo(0.008045, 5);
    expect(twoProportionTest(0, 10, 0, 10)).toEqual({ z: 0, p: 1 });
  });

  it('gives the chi-square goodness of fit (df 2: p = e^(−x/2))', () => {
    const r = chiSquareGoodnessOfFit([50, 30, 20], [1, 1, 1]);
    expect(r.statistic).toBeCloseTo(14, 9);
    expect(r.df).toBe(2);
    expect(r.p).toBeCloseTo(Math.exp(-7), 12);
    // Weights need not sum to 1; a perfect fit has p = 1.
    expect(chiSquareGoodnessOfFit([25, 75], [1, 3])).toEqual({ statistic: 0, df: 1, p: 1 });
    expect(chiSquareGoodnessOfFit([], [])).toEqual({ statistic: 0, df: 0, p: 1 });
  });

  it('gives the sample size per group for two proportions and two means', () => {
    // 20% → 25%, α 0.05 two-sided, power 0.8: (1.95996·√(2·0.225·0.775) + 0.84162·√(0.16 + 0.1875))² / 0.05².
    expect(sampleSizeTwoProportions(0.2, 0.05)).toBe(1094);
    expect(sampleSizeTwoProportions(0.2, 0)).toBeNull();
    expect(sampleSizeTwoProportions(0.98, 0.05)).toBeNull();
    // sd 10, effect 2: 2 · (1.95996 + 0.84162)² · 100 / 4 = 392.4…
    expect(sampleSizeTwoMeans(10, 2)).toBe(393);
    expect(sampleSizeTwoMeans(0, 2)).toBeNull();
  });

  it('gives p = 1 instead of NaN when a group has no variance or too few values', () => {
    expect(welch([1, 1, 1], [1, 1, 1]).p).toBe(1);
    expect(welch([1], [2, 3]).p).toBe(1);
  });

  it('ignores an outlier in the Theil–Sen slope', () => {
    expect(theilSen([0, 1, 2, 3, 4], [1, 2, 3, 4, 100])).toEqual({ slope: 1, intercept: 1 });
  });

  it('computes median and MAD', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(mad([1, 2, 3, 4, 100])).toBe(1);
  });

  it('finds a monotonic trend with Mann–Kendall and none in a constant series', () => {
    const up = mannKendall([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(up.s).toBe(45);
    // S = 45, var = 10·9·25/18 = 125, z = 44/√125.
    expect(up.z).toBeCloseTo(44 / Math.sqrt(125), 12);
    expect(mannKendall([3, 3, 3, 3]).p).toBe(1);
  });

  it('matches SciPy for Student t quantiles (stats.t.ppf), fractional df and the lower tail included', () => {
    expect(studentTQuantile(0.975, 1)).toBeCloseTo(12.706204736174694, 8);
    expect(studentTQuantile(0.975, 10)).toBeCloseTo(2.228138851986274, 9);
    expect(studentTQuantile(0.975, 3.5)).toBeCloseTo(2.9400886379827282, 9);
    expect(studentTQuantile(0.025, 29)).toBeCloseTo(-2.045229642132704, 9);
    expect(studentTQuantile(0.995, 1e6)).toBeCloseTo(2.5758342201053344, 6);
    expect(studentTQuantile(0.5, 7)).toBe(0);
    expect(() => studentTQuantile(1, 7)).toThrow(RangeError);
  });
});
