/**
 * The experiments' pure computations against numbers worked out independently: assignments from
 * Python's hashlib (SHA-256, first 8 bytes big-endian, modulo the weights), intervals and tests
 * from the textbook formulas evaluated in Python and checked with SciPy 1.17.
 */
import { describe, expect, it } from 'vitest';
import { chiSquareGoodnessOfFit } from '../stats.js';
import {
  assignmentBucket,
  assignVariant,
  comparisonAlpha,
  meanFigures,
  rateFigures,
  type SamplePlan,
  samplePlan,
  sampleRatio,
  type VariantFigure,
  verdict,
} from './experiments.stats.js';

describe('assignment', () => {
  it('gives fixed players fixed variants (hashlib: sha256("key:player")[:8] big-endian mod total)', () => {
    const halves = [
      { key: 'control', weight: 50 },
      { key: 'grid', weight: 50 },
    ];
    expect(assignmentBucket('shop-layout', 'player-1', 100)).toBe(27);
    expect(assignmentBucket('shop-layout', 'player-4', 100)).toBe(80);
    expect(assignVariant('shop-layout', 'player-1', halves)).toBe('control');
    expect(assignVariant('shop-layout', 'player-4', halves)).toBe('grid');
    expect(assignVariant('shop-layout', 'Ünïcode-玩家', halves)).toBe('grid');
    const uneven = [
      { key: 'a', weight: 1 },
      { key: 'b', weight: 2 },
      { key: 'c', weight: 7 },
    ];
    // Buckets mod 10: player-6 → 0 (a), player-7 → 2 (b), player-1 → 3 (c), player-5 → 8 (c).
    expect(
      ['player-6', 'player-7', 'player-1', 'player-5'].map((p) => assignVariant('price-test', p, uneven)),
    ).toEqual(['a', 'b', 'c', 'c']);
  });

  it('splits 10,000 synthetic players as the weights say (chi-square accepts; counts as hashlib gives them)', () => {
    const variants = [
      { key: 'a', weight: 20 },
      { key: 'b', weight: 30 },
      { key: 'c', weight: 50 },
    ];
    const counts = { a: 0, b: 0, c: 0 } as Record<string, number>;
    for (let i = 0; i < 10_000; i++) counts[assignVariant('split-test', `synthetic-${i}`, variants)]! += 1;
    expect(counts).toEqual({ a: 1976, b: 3000, c: 5024 });
    const fit = chiSquareGoodnessOfFit([counts.a!, counts.b!, counts.c!], [20, 30, 50]);
    // SciPy chisquare([1976, 3000, 5024], [2000, 3000, 5000]): 0.4032, p = 0.817422.
    expect(fit.statistic).toBeCloseTo(0.4032, 10);
    expect(fit.p).toBeGreaterThan(0.05);
  });
});

describe('results', () => {
  it('compares rates as the Cookie Cats data set does (Wilson, Newcombe, pooled z)', () => {
    const d7 = rateFigures(
      ['gate_30', 'gate_40'],
      [
        { n: 44_700, x: 8_502 },
        { n: 45_489, x: 8_279 },
      ],
    );
    expect(d7[0]).toMatchObject({
      players: 44_700,
      successes: 8_502,
      value: 0.190201,
      ci_low: 0.18659,
      ci_high: 0.193866,
    });
    expect(d7[0]!.p_value).toBeNull();
    expect(d7[1]).toEqual({
      variant: 'gate_40',
      players: 45_489,
      successes: 8_279,
      value: 0.182,
      ci_low: 0.178481,
      ci_high: 0.185573,
      sd: null,
      difference: -0.008201,
      difference_ci_low: -0.013282,
      difference_ci_high: -0.003121,
      relative_difference: -0.043119,
      statistic: -3.16436,
      p_value: 0.00155425,
    });
    const d1 = rateFigures(
      ['gate_30', 'gate_40'],
      [
        { n: 44_700, x: 20_034 },
        { n: 45_489, x: 20_119 },
      ],
    );
    expect(d1[1]).toMatchObject({
      difference: -0.005905,
      difference_ci_low: -0.012392,
      difference_ci_high: 0.000582,
      statistic: -1.78409,
      p_value: 0.0744097,
    });
  });

  it('gives a variant without players no value and no comparison', () => {
    const f = rateFigures(
      ['a', 'b'],
      [
        { n: 10, x: 3 },
        { n: 0, x: 0 },
      ],
    );
    expect(f[1]).toMatchObject({ players: 0, value: null, ci_low: null, difference: null, p_value: null });
  });

  it("compares means with Student's t intervals and Welch's test", () => {
    // Samples [4.99, 0.38, 0, 0] and [10.98, 0, 0]: means 1.3425 and 3.66, sample variances
    // 5.945092 and 40.1868 (SciPy ttest_ind(equal_var=False): t = 0.600746, p = 0.598984).
    const f = meanFigures(
      ['control', 'grid'],
      [
        { n: 4, mean: 1.3425, variance: 5.945091666666666 },
        { n: 3, mean: 3.66, variance: 40.186800000000005 },
      ],
    );
    expect(f[0]).toMatchObject({ value: 1.3425, sd: 2.438256, ci_low: -2.537309, ci_high: 5.222309 });
    expect(f[1]).toMatchObject({
      value: 3.66,
      difference: 2.3175,
      difference_ci_low: -11.682892,
      difference_ci_high: 16.317892,
      statistic: 0.600746,
      p_value: 0.598984,
    });
  });

  it('flags a sample ratio mismatch below p = 0.001 only', () => {
    // Cookie Cats: 44,700 / 45,489 against 1:1 → chi-square 6.90240, p = 0.00860799: not flagged.
    expect(sampleRatio([44_700, 45_489], [1, 1])).toMatchObject({
      statistic: 6.9024,
      df: 1,
      p_value: 0.00860799,
      flagged: false,
    });
    // 550 / 450 → (50² + 50²) / 500 = 10, p = 0.00156540; 600 / 400 → 40, p = 2.53963e-10.
    expect(sampleRatio([550, 450], [1, 1])).toMatchObject({ statistic: 10, flagged: false });
    expect(sampleRatio([600, 400], [1, 1])).toMatchObject({
      statistic: 40,
      p_value: 2.53963e-10,
      flagged: true,
    });
    expect(sampleRatio([0, 0], [1, 1]).flagged).toBe(false);
  });

  it('plans the sample size from the effect and the baseline (Fleiss; Bonferroni alpha)', () => {
    expect(comparisonAlpha(2)).toBe(0.05);
    expect(comparisonAlpha(3)).toBe(0.025);
    const base = {
      kind: 'proportion' as const,
      givenBaseline: 0.1,
      observedBaseline: 0.3,
      observedPerVariant: [700, 690],
    };
    expect(samplePlan({ ...base, mde: 0.05, alpha: 0.05 })).toMatchObject({
      baseline: 0.1,
      baseline_source: 'given',
      required_per_variant: 686,
      smallest_variant: 690,
      progress: 1,
      reached: true,
    });
    expect(samplePlan({ ...base, mde: 0.05, alpha: 0.025 })).toMatchObject({
      required_per_variant: 831,
      reached: false,
    });
    expect(samplePlan({ ...base, mde: null, alpha: 0.05 })).toMatchObject({
      required_per_variant: null,
      reached: false,
    });
    // Means: 2 (1.959964 + 0.841621)² × 2² / 1² = 62.79 → 63.
    expect(
      samplePlan({
        kind: 'mean',
        mde: 1,
        givenBaseline: null,
        observedBaseline: 2,
        alpha: 0.05,
        observedPerVariant: [10, 12],
      }),
    ).toMatchObject({
      baseline: 2,
      baseline_source: 'control_observed',
      required_per_variant: 63,
      progress: 0.15873,
    });
  });
});

describe('verdict', () => {
  const figure = (variant: string, difference: number | null, p: number | null): VariantFigure => ({
    variant,
    players: 1000,
    successes: 100,
    value: 0.1,
    ci_low: 0.08,
    ci_high: 0.12,
    sd: null,
    difference,
    difference_ci_low: difference === null ? null : difference - 0.01,
    difference_ci_high: difference === null ? null : difference + 0.01,
    relative_difference: null,
    statistic: null,
    p_value: p,
  });
  const plan = (reached: boolean, required: number | null = 800): SamplePlan =>
    ({
      minimum_detectable_effect: required === null ? null : 0.02,
      baseline: 0.1,
      baseline_source: 'given',
      alpha: 0.05,
      power: 0.8,
      required_per_variant: required,
      smallest_variant: reached ? 1000 : 400,
      progress: reached ? 1 : 0.5,
      reached,
    }) as SamplePlan;
  const srm = sampleRatio([1000, 1000], [1, 1]);
  const call = (figures: VariantFigure[], p: SamplePlan, s = srm, exposed = 2000) =>
    verdict({ metricLabel: 'D7 retention', kind: 'proportion', figures, srm: s, plan: p, exposed });

  it('calls no winner before the planned size, without a plan, or with a mismatched split', () => {
    const strong = [figure('control', null, null), figure('b', 0.05, 1e-9)];
    expect(call(strong, plan(false)).status).toBe('collecting');
    expect(call(strong, plan(false)).text).toBe(
      'Collecting: the smallest variant has 400 of the 800 players per variant planned (50.0%). No winner is called before then.',
    );
    expect(call(strong, plan(false, null)).status).toBe('no_plan');
    expect(call(strong, plan(true), sampleRatio([600, 400], [1, 1])).status).toBe('sample_ratio_mismatch');
    expect(call(strong, plan(true), srm, 0).status).toBe('no_data');
  });

  it('names the better treatment, keeps the control, or finds no difference once the size is reached', () => {
    const better = call([figure('control', null, null), figure('b', 0.05, 0.001)], plan(true));
    expect(better).toEqual({
      status: 'treatment_better',
      text:
        'b wins: b +5.00 percentage points against control on D7 retention (95% CI +4.00 percentage points to ' +
        '+6.00 percentage points, p = 0.001), significant at 0.05.',
    });
    expect(call([figure('control', null, null), figure('b', -0.05, 0.001)], plan(true)).status).toBe(
      'control_better',
    );
    expect(call([figure('control', null, null), figure('b', 0.05, 0.2)], plan(true)).status).toBe(
      'no_difference',
    );
  });
});
