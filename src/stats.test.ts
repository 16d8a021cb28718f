import { describe, expect, it } from 'vitest';
import {
  mad,
  mannKendall,
  median,
  normalCdf,
  normalQuantile,
  percentile,
  studentTwoSidedP,
  theilSen,
  welch,
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
});
