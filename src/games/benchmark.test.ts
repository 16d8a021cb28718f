import { describe, expect, it } from 'vitest';
import { midRankPercentile, roundOrNull } from './benchmark.js';

describe('mid-rank percentile among the other games of a genre', () => {
  it('gives the best game 100, the worst 0 and the middle 50', () => {
    expect(midRankPercentile({ others: 4, below: 4, equal: 0 })).toBe(100);
    expect(midRankPercentile({ others: 4, below: 0, equal: 0 })).toBe(0);
    expect(midRankPercentile({ others: 4, below: 2, equal: 0 })).toBe(50);
  });

  it('counts ties as half below and rounds halves up', () => {
    expect(midRankPercentile({ others: 4, below: 0, equal: 4 })).toBe(50);
    // 100 × (1 + 1/2) / 4 = 37.5
    expect(midRankPercentile({ others: 4, below: 1, equal: 1 })).toBe(38);
    expect(midRankPercentile({ others: 3, below: 1, equal: 0 })).toBe(33);
  });

  it('has nothing to say without another game', () => {
    expect(midRankPercentile({ others: 0, below: 0, equal: 0 })).toBeNull();
  });

  it('rounds means, keeping null', () => {
    expect(roundOrNull(2.345678, 2)).toBe(2.35);
    expect(roundOrNull(null, 2)).toBeNull();
  });
});
