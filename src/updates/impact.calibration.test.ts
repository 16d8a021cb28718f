import { describe, expect, it } from 'vitest';
import { coverage, impactCases } from '../../test/helpers/update-impact.js';

describe('the update-impact estimator on the planted updates of the simulated market (seed 1)', () => {
  const cases = impactCases(1, 'planted');
  const none = cases.filter((c) => c.kind === 'none');

  it('measures enough updates of each kind to say something', () => {
    expect(cases.length).toBeGreaterThanOrEqual(400);
    for (const kind of ['none', 'positive', 'negative'] as const)
      expect(cases.filter((c) => c.kind === kind).length, kind).toBeGreaterThanOrEqual(100);
  });

  it('holds the planted effect in its 80% interval in 72–88% of cases, and in its 95% one in 90–99%', () => {
    expect(coverage(cases, 'ci80')).toBeGreaterThanOrEqual(0.72);
    expect(coverage(cases, 'ci80')).toBeLessThanOrEqual(0.88);
    expect(coverage(cases, 'ci95')).toBeGreaterThanOrEqual(0.9);
    expect(coverage(cases, 'ci95')).toBeLessThanOrEqual(0.99);
  });

  it('calls an update that did nothing significant about 5% of the time (2–8%)', () => {
    const falseCalls = none.filter((c) => c.measured.significant).length / none.length;
    expect(falseCalls).toBeGreaterThanOrEqual(0.02);
    expect(falseCalls).toBeLessThanOrEqual(0.08);
  });

  it('calls positive updates significant more often than updates that did nothing, and always upwards', () => {
    const positive = cases.filter((c) => c.kind === 'positive');
    const calls = positive.filter((c) => c.measured.significant);
    expect(calls.length / positive.length).toBeGreaterThan(
      none.filter((c) => c.measured.significant).length / none.length,
    );
    for (const c of calls) expect(c.measured.impact).toBeGreaterThan(0);
  });
});
