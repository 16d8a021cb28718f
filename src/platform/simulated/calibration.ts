/**
 * Estimators for the cycle and noise knobs of MarketShape, from real CCU series. Pure functions,
 * no I/O (the loader is realdata.ts). Each estimator measures its knob the way market.ts uses it:
 *
 *   ln CCU(t) = level(day) + a_game · L(hour + shift_game) + weekly(dow) + short(t) + daily(t)
 *
 * where exp(L) is the dailyProfile, a_game the per-game exponent drawn from dailyAmplitudeRange,
 * short a smooth noise with 30-minute knots (std noiseShort) and daily one with 3-day knots (std
 * noiseDaily). The method and the numbers are written down in docs/calibration.md.
 */
import { mean, median } from '../../stats.js';
import type { CcuReading } from './calibration-data.js';

/** The stats kit's, re-exported for the calibration scripts and tests that read them from here. */
export { mean, median };

export const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const OMEGA = (2 * Math.PI) / 24;

export const utcDay = (t: number): number => Math.floor(t / DAY_MS);
/** Monday = 0 (1970-01-01 was a Thursday), as market.ts counts. */
export const dayOfWeek = (day: number): number => (day + 3) % 7;
const hourOf = (t: number): number => (t % DAY_MS) / HOUR_MS;
const logCcu = (ccu: number): number => Math.log(Math.max(ccu, 0.5));

/** Std from the median absolute deviation: update spikes and outages do not dominate it. */
export function robustSd(xs: readonly number[]): number {
  const m = median(xs);
  return 1.4826 * median(xs.map((x) => Math.abs(x - m)));
}

/** [cos ωh, sin ωh, cos 2ωh, sin 2ωh, …] for harmonics 1..K of the day. */
function basis(hour: number, harmonics: number): number[] {
  const out: number[] = [];
  for (let k = 1; k <= harmonics; k++) out.push(Math.cos(k * OMEGA * hour), Math.sin(k * OMEGA * hour));
  return out;
}

/** The log hour-of-day effect L(hour) of Fourier coefficients (mean 0 over the day). */
export function evalHarmonics(coeffs: readonly number[], hour: number): number {
  const b = basis(hour, coeffs.length / 2);
  return b.reduce((s, x, i) => s + x * coeffs[i]!, 0);
}

/** Solves A x = b (small, symmetric positive definite) by Gaussian elimination with pivoting. */
export function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    const pivot = m[c]![c]!;
    if (Math.abs(pivot) < 1e-12) throw new Error('singular system: too few distinct hours of the day');
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / pivot;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

/** Readings grouped by UTC day, keeping only days with at least `minPerDay` readings. */
function byDay(readings: readonly CcuReading[], minPerDay: number): Map<number, CcuReading[]> {
  const days = new Map<number, CcuReading[]>();
  for (const r of readings) {
    const d = utcDay(r.t);
    const list = days.get(d) ?? [];
    list.push(r);
    days.set(d, list);
  }
  for (const [d, list] of days) if (list.length < minPerDay) days.delete(d);
  return days;
}

/**
 * Fourier coefficients of one game's hour-of-day effect on ln CCU. Each UTC day gets its own level
 * (the regressors and ln CCU are demeaned within the day), so trends, updates and the weekly cycle
 * do not leak into the daily shape; irregular sampling and gaps are fine. With six readings a day
 * (the 4-hourly file) harmonics up to 2 are well determined: the run times drift over the day.
 */
export function fitDailyHarmonics(
  readings: readonly CcuReading[],
  harmonics: number,
  minPerDay: number,
): number[] {
  const p = 2 * harmonics;
  const xtx = Array.from({ length: p }, () => new Array<number>(p).fill(0));
  const xty = new Array<number>(p).fill(0);
  for (const list of byDay(readings, minPerDay).values()) {
    const xs = list.map((r) => basis(hourOf(r.t), harmonics));
    const ys = list.map((r) => logCcu(r.ccu));
    const xm = Array.from({ length: p }, (_, j) => mean(xs.map((x) => x[j]!)));
    const ym = mean(ys);
    xs.forEach((x, i) => {
      const xd = x.map((v, j) => v - xm[j]!);
      for (let j = 0; j < p; j++) {
        xty[j]! += xd[j]! * (ys[i]! - ym);
        for (let k = 0; k < p; k++) xtx[j]![k]! += xd[j]! * xd[k]!;
      }
    });
  }
  return solve(xtx, xty);
}

/** The market-wide hour-of-day effect as measured: the mean of the games' coefficients. */
export function poolHarmonics(perGame: readonly (readonly number[])[]): number[] {
  return perGame[0]!.map((_, j) => mean(perGame.map((c) => c[j]!)));
}

const dot = (a: readonly number[], b: readonly number[]): number => a.reduce((s, x, i) => s + x * b[i]!, 0);

/** The hour shift (−12..12 h, 0.1 h steps) that best aligns a game's shape with the common one. */
export function phaseShift(coeffs: readonly number[], common: readonly number[]): number {
  let best = 0;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (let s = -120; s < 120; s++) {
    const score = dot(coeffs, shiftHarmonics(common, s / 10));
    if (score > bestScore) [best, bestScore] = [s / 10, score];
  }
  return best;
}

export interface AlignedShape {
  /** The typical game's own shape (harmonics of L, amplitude 1, no phase smearing). */
  common: number[];
  /** Per game: c_game ≈ amplitude · (common shifted by phase hours). Mean amplitude 1, mean phase 0. */
  amplitudes: number[];
  phases: number[];
}

/**
 * Separates each game's cycle into amplitude and phase around one shape, as the simulator builds
 * them (profile^dailyAmplitude at hour + hourShift): alternate the best shift and least-squares
 * amplitude per game with the shape that fits them all, re-centred to mean phase 0 and mean
 * amplitude 1. Averaging games without aligning them would flatten the shape by their phase spread.
 */
export function alignHarmonics(perGame: readonly (readonly number[])[], iterations = 20): AlignedShape {
  const locate = (common: readonly number[]) => {
    const phases = perGame.map((c) => phaseShift(c, common));
    const norm = dot(common, common);
    const amplitudes = perGame.map((c, g) => dot(c, shiftHarmonics(common, phases[g]!)) / norm);
    return { phases, amplitudes };
  };
  let common = poolHarmonics(perGame);
  for (let it = 0; it < iterations; it++) {
    const { phases, amplitudes } = locate(common);
    // Least squares for the shape given each game's amplitude and phase.
    const a2 = amplitudes.reduce((s, a) => s + a * a, 0);
    const back = perGame.map((c, g) => shiftHarmonics(c, -phases[g]!).map((v) => (v * amplitudes[g]!) / a2));
    common = common.map((_, j) => back.reduce((s, c) => s + c[j]!, 0));
    // Fix the scale and phase freedom: the typical game (mean amplitude, mean phase) is the profile.
    const again = locate(common);
    common = shiftHarmonics(common, mean(again.phases)).map((v) => v * mean(again.amplitudes));
  }
  return { common, ...locate(common) };
}

/** Coefficients of L(hour + shift): each harmonic turns by k·ω·shift. */
export function shiftHarmonics(coeffs: readonly number[], shiftHours: number): number[] {
  const out: number[] = [];
  for (let k = 1; k <= coeffs.length / 2; k++) {
    const [a, b] = [coeffs[2 * k - 2]!, coeffs[2 * k - 1]!];
    const [c, s] = [Math.cos(k * OMEGA * shiftHours), Math.sin(k * OMEGA * shiftHours)];
    out.push(a * c + b * s, b * c - a * s);
  }
  return out;
}

/** The 24 factors for MarketShape.dailyProfile: exp L at each whole UTC hour, scaled to mean 1. */
export function profileFromHarmonics(coeffs: readonly number[]): number[] {
  const raw = Array.from({ length: 24 }, (_, h) => Math.exp(evalHarmonics(coeffs, h)));
  const m = mean(raw);
  return raw.map((v) => v / m);
}

/** Std of the games' phases (hours), for MarketShape.hourShiftSd. */
export function phaseSd(phases: readonly number[]): number {
  const m = mean(phases);
  return Math.sqrt(mean(phases.map((p) => (p - m) ** 2)));
}

/** A uniform range with the amplitudes' mean and std (uniform sd = width/√12), never below 0. */
export function amplitudeRange(amps: readonly number[]): [number, number] {
  const m = mean(amps);
  const sd = Math.sqrt(mean(amps.map((a) => (a - m) ** 2)));
  return [Math.max(0, m - Math.sqrt(3) * sd), m + Math.sqrt(3) * sd];
}

/** ln CCU per UTC day with the game's hour-of-day effect taken out (days with ≥ minPerDay readings). */
export function dailyLevels(readings: readonly CcuReading[], coeffs: readonly number[], minPerDay: number) {
  const levels = new Map<number, number>();
  for (const [d, list] of byDay(readings, minPerDay)) {
    levels.set(d, mean(list.map((r) => logCcu(r.ccu) - evalHarmonics(coeffs, hourOf(r.t)))));
  }
  return levels;
}

/**
 * Day-of-week log effects of one game: the daily level minus its centred 7-day moving average
 * (which removes any linear trend and the weekly cycle's mean), averaged per weekday.
 */
export function weeklyEffects(levels: ReadonlyMap<number, number>): number[] | null {
  const sums = new Array<number>(7).fill(0);
  const counts = new Array<number>(7).fill(0);
  for (const [d, v] of levels) {
    const window = [-3, -2, -1, 0, 1, 2, 3].map((k) => levels.get(d + k));
    if (window.some((x) => x === undefined)) continue;
    sums[dayOfWeek(d)]! += v - mean(window as number[]);
    counts[dayOfWeek(d)]! += 1;
  }
  if (counts.some((c) => c < 2)) return null;
  return sums.map((s, i) => s / counts[i]!);
}

/** 7 factors, Monday first, mean 1, from the games' weekday log effects (equal weight per game). */
export function weeklyProfile(perGame: readonly (readonly number[])[]): number[] {
  const raw = Array.from({ length: 7 }, (_, i) => Math.exp(mean(perGame.map((g) => g[i]!))));
  const m = mean(raw);
  return raw.map((v) => v / m);
}

/**
 * Short-term log-CCU noise of one game: half the robust variance of ln CCU differences `lagMin`
 * minutes apart (±10%), after the game's hour-of-day effect. At 60 minutes the simulator's
 * 30-minute-knot noise is independent, so this equals noiseShort² there. Counting noise (≈ 1/CCU
 * in variance) is subtracted: the simulator has none, and it would dominate small games.
 */
export function shortNoise(readings: readonly CcuReading[], coeffs: readonly number[], lagMin = 60): number {
  const resid = readings.map((r) => logCcu(r.ccu) - evalHarmonics(coeffs, hourOf(r.t)));
  const diffs: number[] = [];
  const [lo, hi] = [lagMin * 60_000 * 0.9, lagMin * 60_000 * 1.1];
  let j = 0;
  for (let i = 0; i < readings.length; i++) {
    while (j < readings.length && readings[j]!.t - readings[i]!.t < lo) j++;
    if (j < readings.length && readings[j]!.t - readings[i]!.t <= hi) diffs.push(resid[j]! - resid[i]!);
  }
  const counting = 1 / median(readings.map((r) => Math.max(r.ccu, 1)));
  return Math.sqrt(Math.max(0, robustSd(diffs) ** 2 / 2 - counting));
}

/**
 * Day-scale log-CCU noise of one game, from second differences a week apart of the daily levels
 * (weekly effect removed): L(d+7) − 2L(d) + L(d−7) cancels any linear trend and the weekly cycle,
 * and its three terms lie more than two 3-day knots apart, so its variance is 6·noiseDaily².
 */
export function dailyNoise(levels: ReadonlyMap<number, number>, weekly: readonly number[]): number | null {
  const lw = weekly.map(Math.log);
  const adj = (d: number) => {
    const v = levels.get(d);
    return v === undefined ? undefined : v - lw[dayOfWeek(d)]!;
  };
  const diffs: number[] = [];
  for (const d of levels.keys()) {
    const [a, b, c] = [adj(d - 7), adj(d), adj(d + 7)];
    if (a !== undefined && b !== undefined && c !== undefined) diffs.push(a - 2 * b + c);
  }
  return diffs.length < 10 ? null : robustSd(diffs) / Math.sqrt(6);
}

/**
 * A model-free check on the Fourier fit: ln CCU minus its day mean, averaged per whole UTC hour
 * (bin h covers [h, h+1), so compare it with L(h + 0.5)). Needs dense series (15-minute).
 */
export function binnedHourEffect(readings: readonly CcuReading[], minPerDay: number): number[] {
  const sums = new Array<number>(24).fill(0);
  const counts = new Array<number>(24).fill(0);
  for (const list of byDay(readings, minPerDay).values()) {
    const m = mean(list.map((r) => logCcu(r.ccu)));
    for (const r of list) {
      const h = Math.floor(hourOf(r.t));
      sums[h]! += logCcu(r.ccu) - m;
      counts[h]! += 1;
    }
  }
  const effect = sums.map((s, h) => s / Math.max(counts[h]!, 1));
  const m = mean(effect);
  return effect.map((v) => v - m);
}
