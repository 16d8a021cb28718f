import { describe, expect, it } from 'vitest';
import { DEFAULT_ENTITLEMENTS } from '../plans.js';
import { likeRatio, searchId, visibleGrowthProbability } from './games.service.js';

describe('plan rules and small helpers', () => {
  it('shows the growth probability only to plans with detailed predictions', () => {
    const shape = (p: 'Explorer' | 'Builder' | 'Studio') => DEFAULT_ENTITLEMENTS.plans[p].mlPrediction;
    expect(visibleGrowthProbability(shape('Explorer'), 0.73)).toBeNull();
    expect(visibleGrowthProbability(shape('Builder'), 0.73)).toBe(0.73);
    expect(visibleGrowthProbability(shape('Studio'), 0.73)).toBe(0.73);
    expect(visibleGrowthProbability(shape('Builder'), null)).toBeNull();
  });

  it('computes the like ratio to four decimals, null without votes', () => {
    expect(likeRatio(2, 1)).toBe(0.6667);
    expect(likeRatio(0, 0)).toBeNull();
    expect(likeRatio(0, 5)).toBe(0);
  });

  it('treats only plain digit strings as ids', () => {
    expect(searchId('4242')).toBe(4242);
    expect(searchId('42a')).toBeNull();
    expect(searchId('1'.repeat(16))).toBeNull();
  });
});
