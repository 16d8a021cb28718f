import { describe, expect, it } from 'vitest';
import {
  incompleteBeta,
  mad,
  mannKendall,
  median,
  normalCdf,
  studentTwoSidedP,
  theilSen,
  welch,
} from './stats.js';

// Reference values from SciPy 1.17 (stats.t.sf, stats.norm.cdf, stats.ttest_ind(equal_var=False), theilslopes).
describe('statistics', () => {
  it('matches SciPy for Student t p-values and the normal CDF', () => {
    expect(studentTwoSidedP(2.0, 10)).toBeCloseTo(0.07338803477074037, 9);
    expect(studentTwoSidedP(3.5, 4.5)).toBeCloseTo(0.020541689969385577, 9);
    expect(normalCdf(1.96)).toBeCloseTo(0.9750021048517795, 6);
    expect(incompleteBeta(0.5, 2, 2)).toBeCloseTo(0.5, 12);
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
