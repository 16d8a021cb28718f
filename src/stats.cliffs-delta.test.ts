import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cliffsDelta, newcombeDifference } from './stats.js';

/** Every pair's sign, the definition itself (O(n·m)), to check the binary-search version against. */
function bruteDelta(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (const x of a) for (const y of b) s += Math.sign(x - y);
  return s / (a.length * b.length);
}

describe("Cliff's delta", () => {
  it('matches a hand count and the brute-force formula computed with NumPy', () => {
    // a > b in 5 pairs (4 > 3, 3; 5 > 3, 3, 4), a < b in 22, 3 ties: δ = (5 − 22) / 30.
    const r = cliffsDelta([1, 2, 3, 4, 5], [3, 3, 4, 6, 7, 8])!;
    expect(r.delta).toBeCloseTo(-17 / 30, 12);
    // NumPy on the pair matrix with Cliff's variance and the asymmetric interval.
    expect(r.se).toBeCloseTo(0.27284509239574833, 10);
    expect(r.low).toBeCloseTo(-0.8776948576524441, 10);
    expect(r.high).toBeCloseTo(0.08026922824835421, 10);
    const s = cliffsDelta([10, 12, 15, 20, 30, 50], [1, 2, 3, 5, 8, 11, 13])!;
    expect(s.delta).toBeCloseTo(36 / 42, 12);
    expect(s.low).toBeCloseTo(0.45548075672190647, 10);
    expect(s.high).toBeCloseTo(0.9688598052845636, 10);
  });

  it('floors the variance so that ties alone do not give a zero-width interval', () => {
    // All tied: δ 0, Cliff's estimate 0, floor 1 / (3·4 − 1).
    const r = cliffsDelta([1, 1, 1], [1, 1, 1, 1])!;
    expect(r.delta).toBe(0);
    expect(r.se).toBeCloseTo(Math.sqrt(1 / 11), 12);
    expect(r.low).toBeCloseTo(-0.5087562942785393, 10);
    expect(r.high).toBeCloseTo(0.5087562942785393, 10);
  });

  it('bounds complete separation by the Wilson limit of the smaller group', () => {
    // 5 of 5 successes: Wilson lower limit 0.5655 → 2·0.5655 − 1.
    const r = cliffsDelta([10, 11, 12, 13, 14], [1, 2, 3, 4, 5, 6, 7])!;
    expect(r.delta).toBe(1);
    expect(r.low).toBeCloseTo(0.131, 3);
    expect(r.high).toBe(1);
    const flipped = cliffsDelta([1, 2, 3, 4, 5, 6, 7], [10, 11, 12, 13, 14])!;
    expect(flipped).toEqual({ delta: -1, se: 0, low: -1, high: -r.low });
  });

  it('is null when a group has under two values', () => {
    expect(cliffsDelta([1], [1, 2, 3])).toBeNull();
    expect(cliffsDelta([1, 2, 3], [])).toBeNull();
  });

  it('is the difference of proportions for 0/1 data', () => {
    // 3 of 5 against 1 of 6.
    const r = cliffsDelta([1, 1, 1, 0, 0], [1, 0, 0, 0, 0, 0])!;
    expect(r.delta).toBeCloseTo(3 / 5 - 1 / 6, 12);
    expect(newcombeDifference(3, 5, 1, 6)).not.toBeNull();
  });

  const sample = fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 2, maxLength: 30 });

  it('agrees with the pair-by-pair definition, stays in [−1, 1] and holds its estimate', () => {
    fc.assert(
      fc.property(sample, sample, (a, b) => {
        const r = cliffsDelta(a, b)!;
        expect(r.delta).toBeCloseTo(bruteDelta(a, b), 12);
        expect(r.low).toBeGreaterThanOrEqual(-1);
        expect(r.high).toBeLessThanOrEqual(1);
        expect(r.low).toBeLessThanOrEqual(r.delta + 1e-12);
        expect(r.high).toBeGreaterThanOrEqual(r.delta - 1e-12);
        expect(r.high - r.low).toBeGreaterThan(0);
      }),
    );
  });

  it('mirrors when the groups swap and ignores any increasing transform', () => {
    fc.assert(
      fc.property(sample, sample, (a, b) => {
        const r = cliffsDelta(a, b)!;
        const swapped = cliffsDelta(b, a)!;
        expect(swapped.delta).toBeCloseTo(-r.delta, 12);
        expect(swapped.low).toBeCloseTo(-r.high, 10);
        expect(swapped.high).toBeCloseTo(-r.low, 10);
        const log = (xs: number[]) => xs.map((x) => Math.sign(x) * Math.log1p(Math.abs(x)));
        const t = cliffsDelta(log(a), log(b))!;
        expect(t.delta).toBeCloseTo(r.delta, 12);
        expect(t.low).toBeCloseTo(r.low, 10);
        expect(t.high).toBeCloseTo(r.high, 10);
      }),
    );
  });
});
