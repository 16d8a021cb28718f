import { describe, expect, it } from 'vitest';
import { fillBuckets, trendScore } from './trend.js';

describe('trendScore', () => {
  it('is 0 for a flat game, positive when growing, negative when shrinking', () => {
    expect(trendScore(500, 500)).toBe(0);
    // ln(1001/501) = 0.6921 → tanh = 0.5995 → 59.94
    expect(trendScore(1000, 500)).toBe(59.94);
    expect(trendScore(500, 1000)).toBe(-59.94);
  });

  it('stays within −100..100 and is null without a baseline', () => {
    expect(trendScore(1_000_000, 0)).toBe(100);
    expect(trendScore(0, 1_000_000)).toBe(-100);
    expect(trendScore(10, null)).toBeNull();
  });
});

describe('fillBuckets', () => {
  it('carries the latest reading into empty buckets and rounds to whole players', () => {
    expect(fillBuckets([undefined, 2.4, undefined, 5.6, undefined])).toEqual([2, 2, 2, 6, 6]);
    expect(fillBuckets([undefined, undefined])).toEqual([]);
  });
});
