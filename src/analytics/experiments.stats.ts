/**
 * The experiments' pure computations: the deterministic assignment of a player to a variant, and
 * the results from per-variant counts and moments (intervals, differences to the control, tests,
 * the sample-ratio-mismatch check, the planned sample size and the verdict). No I/O: the service
 * hands in what the repo counted. Statistics come from the one kit, src/stats.ts.
 */
import { createHash } from 'node:crypto';
import {
  chiSquareGoodnessOfFit,
  type Moments,
  newcombeDifference,
  sampleSizeTwoMeans,
  sampleSizeTwoProportions,
  studentTQuantile,
  twoProportionTest,
  welchMoments,
  wilson,
} from '../stats.js';

export interface VariantDef {
  key: string;
  weight: number;
}

// ------------------------------------------------------------------------------------------------
// Assignment

/** How a player is assigned, as the API states it. */
export const ASSIGNMENT_METHOD =
  'SHA-256 of the UTF-8 text "<experiment key>:<player_id>"; its first 8 bytes read as an unsigned big-endian ' +
  '64-bit integer, modulo the sum of the weights, pick the variant whose cumulative weight range [sum of the ' +
  'weights before it, that sum + its weight) holds it, in the order the variants were created';

/** The player's bucket: the first 8 bytes of SHA-256("key:player") as an unsigned integer modulo `total`. */
export function assignmentBucket(key: string, playerId: string, total: number): number {
  const digest = createHash('sha256').update(`${key}:${playerId}`, 'utf8').digest();
  return Number(digest.readBigUInt64BE(0) % BigInt(total));
}

/** The variant `playerId` gets in experiment `key` (ASSIGNMENT_METHOD): deterministic, the same in
 * every process and after restarts, since it depends on nothing but its inputs. */
export function assignVariant(key: string, playerId: string, variants: readonly VariantDef[]): string {
  const total = variants.reduce((s, v) => s + v.weight, 0);
  let bucket = assignmentBucket(key, playerId, total);
  for (const v of variants) {
    if (bucket < v.weight) return v.key;
    bucket -= v.weight;
  }
  // Unreachable: the bucket is below the total.
  return variants[variants.length - 1]!.key;
}

// ------------------------------------------------------------------------------------------------
// Results

/** A confidence level every interval uses. */
export const LEVEL = 0.95;
/** Power the planned sample size gives. */
export const POWER = 0.8;
/** The sample-ratio-mismatch test flags p below this. */
export const SRM_ALPHA = 0.001;
/** Overall significance level; shared among the comparisons to the control (Bonferroni). */
export const ALPHA = 0.05;

export const METHODS = {
  proportion: '95% CI, Wilson score',
  proportionDifference: 'difference: Newcombe hybrid score (95% CI)',
  proportionTest: 'p: pooled two-proportion z-test, two-sided',
  mean: "95% CI, Student's t (mean ± t(0.975, n − 1) · sd / √n)",
  meanDifference:
    "difference: Welch's t (95% CI: difference ± t(0.975, Welch–Satterthwaite df) · standard error)",
  meanTest: "p: Welch's t-test, two-sided",
  srm: "Pearson's chi-square goodness of fit of the players analysed per variant to the weights; flagged when p < 0.001",
  proportionSampleSize:
    'players per variant for a two-sided test at alpha with 80% power to detect the minimum detectable effect ' +
    '(absolute) from the baseline rate: normal approximation (Fleiss, unpooled variance under the alternative)',
  meanSampleSize:
    'players per variant for a two-sided test at alpha with 80% power to detect the minimum detectable effect ' +
    '(USD per player) given the baseline standard deviation: 2 (z(1 − alpha/2) + z(0.8))² sd² / effect²',
} as const;

/** One variant's counts for a rate metric: `x` of `n` players. */
export interface RateCounts {
  n: number;
  x: number;
}

export interface VariantFigure {
  variant: string;
  players: number;
  successes: number | null;
  value: number | null;
  ci_low: number | null;
  ci_high: number | null;
  sd: number | null;
  difference: number | null;
  difference_ci_low: number | null;
  difference_ci_high: number | null;
  relative_difference: number | null;
  statistic: number | null;
  p_value: number | null;
}

/** Six decimals for rates, means and intervals; six significant digits for statistics and p. */
export const r6 = (x: number): number => Math.round(x * 1e6) / 1e6;
export const sig6 = (x: number): number => (x === 0 || !Number.isFinite(x) ? x : Number(x.toPrecision(6)));
const orNull = (x: number | null | undefined, f: (v: number) => number) =>
  x === null || x === undefined || !Number.isFinite(x) ? null : f(x);

/** Rates per variant (the first is the control): Wilson intervals, Newcombe differences to the
 * control, pooled two-proportion z-tests. */
export function rateFigures(variants: readonly string[], counts: readonly RateCounts[]): VariantFigure[] {
  const control = counts[0]!;
  return variants.map((variant, i) => {
    const c = counts[i]!;
    const ci = c.n > 0 ? wilson(c.x, c.n, LEVEL) : null;
    const base: VariantFigure = {
      variant,
      players: c.n,
      successes: c.x,
      value: c.n > 0 ? r6(c.x / c.n) : null,
      ci_low: orNull(ci?.low, r6),
      ci_high: orNull(ci?.high, r6),
      sd: null,
      difference: null,
      difference_ci_low: null,
      difference_ci_high: null,
      relative_difference: null,
      statistic: null,
      p_value: null,
    };
    if (i === 0 || c.n === 0 || control.n === 0) return base;
    const p1 = c.x / c.n;
    const p0 = control.x / control.n;
    const d = newcombeDifference(c.x, c.n, control.x, control.n, LEVEL);
    const test = twoProportionTest(c.x, c.n, control.x, control.n);
    return {
      ...base,
      difference: r6(p1 - p0),
      difference_ci_low: orNull(d?.low, r6),
      difference_ci_high: orNull(d?.high, r6),
      relative_difference: p0 > 0 ? r6((p1 - p0) / p0) : null,
      statistic: sig6(test.z),
      p_value: sig6(test.p),
    };
  });
}

/** Means per variant (the first is the control): Student t intervals, Welch differences and tests. */
export function meanFigures(variants: readonly string[], moments: readonly Moments[]): VariantFigure[] {
  const control = moments[0]!;
  return variants.map((variant, i) => {
    const m = moments[i]!;
    const sd = m.n >= 2 ? Math.sqrt(m.variance) : null;
    const half = sd !== null ? studentTQuantile(0.5 + LEVEL / 2, m.n - 1) * (sd / Math.sqrt(m.n)) : null;
    const base: VariantFigure = {
      variant,
      players: m.n,
      successes: null,
      value: m.n > 0 ? r6(m.mean) : null,
      ci_low: half !== null ? r6(m.mean - half) : null,
      ci_high: half !== null ? r6(m.mean + half) : null,
      sd: orNull(sd, r6),
      difference: null,
      difference_ci_low: null,
      difference_ci_high: null,
      relative_difference: null,
      statistic: null,
      p_value: null,
    };
    if (i === 0 || m.n === 0 || control.n === 0) return base;
    const d = m.mean - control.mean;
    const w = welchMoments(m, control);
    const se = Math.sqrt(m.variance / m.n + control.variance / control.n);
    const dHalf = w.df > 0 && se > 0 ? studentTQuantile(0.5 + LEVEL / 2, w.df) * se : null;
    return {
      ...base,
      difference: r6(d),
      difference_ci_low: dHalf !== null ? r6(d - dHalf) : null,
      difference_ci_high: dHalf !== null ? r6(d + dHalf) : null,
      relative_difference: control.mean !== 0 ? r6(d / control.mean) : null,
      statistic: w.df > 0 ? sig6(w.t) : null,
      p_value: w.df > 0 ? sig6(w.p) : null,
    };
  });
}

export interface SampleRatio {
  observed: number[];
  expected_shares: number[];
  statistic: number;
  df: number;
  p_value: number;
  flagged: boolean;
  method: string;
}

/** The sample-ratio-mismatch check of the players analysed per variant against the weights. */
export function sampleRatio(observed: readonly number[], weights: readonly number[]): SampleRatio {
  const total = weights.reduce((s, w) => s + w, 0);
  const fit = chiSquareGoodnessOfFit(observed, weights);
  const any = observed.some((o) => o > 0);
  return {
    observed: [...observed],
    expected_shares: weights.map((w) => r6(w / total)),
    statistic: sig6(fit.statistic),
    df: fit.df,
    p_value: sig6(fit.p),
    flagged: any && fit.p < SRM_ALPHA,
    method: METHODS.srm,
  };
}

/** The per-comparison level: ALPHA shared among the treatments (Bonferroni). */
export function comparisonAlpha(variantCount: number): number {
  return ALPHA / Math.max(1, variantCount - 1);
}

export interface SamplePlan {
  minimum_detectable_effect: number | null;
  baseline: number | null;
  baseline_source: 'given' | 'control_observed' | null;
  alpha: number;
  power: number;
  required_per_variant: number | null;
  smallest_variant: number;
  progress: number | null;
  reached: boolean;
  method: string;
}

/**
 * Players per variant the primary metric needs (null without a minimum detectable effect or a usable
 * baseline), how far the smallest variant is, and whether it got there. For a rate the effect is
 * taken upwards from the baseline (downwards when that leaves (0, 1)).
 */
export function samplePlan(input: {
  kind: 'proportion' | 'mean';
  mde: number | null;
  givenBaseline: number | null;
  observedBaseline: number | null;
  alpha: number;
  observedPerVariant: readonly number[];
}): SamplePlan {
  const baseline = input.givenBaseline ?? input.observedBaseline;
  const source =
    input.givenBaseline !== null ? 'given' : input.observedBaseline !== null ? 'control_observed' : null;
  let required: number | null = null;
  if (input.mde !== null && baseline !== null) {
    required =
      input.kind === 'proportion'
        ? (sampleSizeTwoProportions(baseline, input.mde, input.alpha, POWER) ??
          sampleSizeTwoProportions(baseline, -input.mde, input.alpha, POWER))
        : sampleSizeTwoMeans(baseline, input.mde, input.alpha, POWER);
  }
  const smallest = input.observedPerVariant.length === 0 ? 0 : Math.min(...input.observedPerVariant);
  return {
    minimum_detectable_effect: input.mde,
    baseline: orNull(baseline, r6),
    baseline_source: baseline === null ? null : source,
    alpha: sig6(input.alpha),
    power: POWER,
    required_per_variant: required,
    smallest_variant: smallest,
    progress: required !== null ? r6(Math.min(1, smallest / required)) : null,
    reached: required !== null && smallest >= required,
    method: input.kind === 'proportion' ? METHODS.proportionSampleSize : METHODS.meanSampleSize,
  };
}

export type VerdictStatus =
  | 'no_data'
  | 'sample_ratio_mismatch'
  | 'no_plan'
  | 'collecting'
  | 'treatment_better'
  | 'control_better'
  | 'no_difference';

export interface Verdict {
  status: VerdictStatus;
  text: string;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const signed = (x: number, unit: 'proportion' | 'mean') =>
  unit === 'proportion'
    ? `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(2)} percentage points`
    : `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(4)} USD per player`;

/**
 * The plain-language verdict on the primary metric. It never names a winner before the planned
 * sample size is reached, nor without a plan, nor while the split mismatches the weights.
 */
export function verdict(input: {
  metricLabel: string;
  kind: 'proportion' | 'mean';
  figures: readonly VariantFigure[];
  srm: SampleRatio;
  plan: SamplePlan;
  exposed: number;
}): Verdict {
  const { figures, plan, kind } = input;
  const control = figures[0]!;
  if (input.exposed === 0) {
    return { status: 'no_data', text: 'No player has been exposed yet: nothing to compare.' };
  }
  if (input.srm.flagged) {
    return {
      status: 'sample_ratio_mismatch',
      text:
        `Sample ratio mismatch: the players per variant (${input.srm.observed.join(' / ')}) do not match the ` +
        `weights (chi-square p = ${input.srm.p_value} < 0.001). Assignment or exposure logging is broken, so ` +
        'no result can be trusted until it is fixed.',
    };
  }
  if (plan.required_per_variant === null) {
    return {
      status: 'no_plan',
      text:
        plan.minimum_detectable_effect === null
          ? 'No minimum detectable effect was set, so there is no planned sample size and no winner is called; ' +
            'the differences are shown for information.'
          : 'The planned sample size cannot be computed yet (no usable baseline from the control); no winner is called.',
    };
  }
  if (!plan.reached) {
    return {
      status: 'collecting',
      text:
        `Collecting: the smallest variant has ${plan.smallest_variant} of the ${plan.required_per_variant} ` +
        `players per variant planned (${pct(plan.progress ?? 0)}). No winner is called before then.`,
    };
  }
  const significant = figures.slice(1).filter((f) => f.p_value !== null && f.p_value < plan.alpha);
  const better = significant
    .filter((f) => (f.difference ?? 0) > 0)
    .sort((a, b) => b.difference! - a.difference!);
  const describe = (f: VariantFigure) =>
    `${f.variant} ${signed(f.difference!, kind)} against ${control.variant} on ${input.metricLabel} ` +
    `(95% CI ${signed(f.difference_ci_low!, kind)} to ${signed(f.difference_ci_high!, kind)}, p = ${f.p_value})`;
  if (better.length > 0) {
    return {
      status: 'treatment_better',
      text: `${better[0]!.variant} wins: ${describe(better[0]!)}, significant at ${plan.alpha}.`,
    };
  }
  if (significant.length > 0) {
    return {
      status: 'control_better',
      text: `Keep ${control.variant}: ${significant.map(describe).join('; ')}, significant at ${plan.alpha}.`,
    };
  }
  return {
    status: 'no_difference',
    text:
      `No significant difference on ${input.metricLabel} at ${plan.alpha} with the planned sample size reached: ` +
      `${figures
        .slice(1)
        .map((f) => `${f.variant} p = ${f.p_value}`)
        .join(', ')}.`,
  };
}
