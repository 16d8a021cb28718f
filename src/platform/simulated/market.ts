/**
 * The simulated market's dynamics: every reading of a game (CCU, visits, votes, favourites, last
 * update) is a pure function of its traits and the moment `t`, so any past moment can be produced
 * exactly and two processes always agree.
 *
 * CCU(t) = base × lifecycle × breakout × updates × season × daily cycle × weekly cycle × noise.
 * Each update after the launch has a planted effect (updateEffect): none, or a short spike and a
 * lasting step up, or a lasting step down, fading over weeks; plantedImpact says what it did to the
 * 7 days after, so the update-impact estimator can be checked against the truth.
 * Visits accrue at the smoothed CCU (lifecycle × breakout, in closed form): the cycles and the
 * noise average out over a day, so cumulative counts stay monotone and cheap to compute.
 */
import { seasonalMultiplier } from '../calendar.js';
import type { GameSpec } from './catalogue.js';
import { smoothNoise, uniform } from './random.js';
import type { MarketShape } from './shape.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const UPDATE_SPIKE_DAYS = 1.5;
/** A planted step fades with this time constant: most of it is still there a week later. */
const UPDATE_STEP_FADE_DAYS = 21;
/** Older updates' effects are below 1% and left out (exp(-5) of the largest step). */
const UPDATE_MEMORY_DAYS = 5 * UPDATE_STEP_FADE_DAYS;

/** Lifecycle 0..1: linear ramp to the peak, then exponential decline towards a floor. */
export function lifecycle(g: GameSpec, t: number): number {
  const tau = (t - g.launchAt) / DAY_MS;
  if (tau < 0) return 0;
  if (tau < g.rampDays) return Math.max(0.02, tau / g.rampDays);
  return g.floor + (1 - g.floor) * Math.exp(-(tau - g.rampDays) / g.declineDays);
}

/** ∫ lifecycle dτ (in days) from launch to t: closed form of the function above. */
function lifecycleIntegral(g: GameSpec, t: number): number {
  const tau = (t - g.launchAt) / DAY_MS;
  if (tau <= 0) return 0;
  const r = g.rampDays;
  if (tau < r) return (tau * tau) / (2 * r);
  return (
    r / 2 + g.floor * (tau - r) + (1 - g.floor) * g.declineDays * (1 - Math.exp(-(tau - r) / g.declineDays))
  );
}

/** Breakout shape 0..1: ramps up over rampDays, then fades exponentially. */
function breakoutShape(b: NonNullable<GameSpec['breakout']>, t: number): number {
  const d = (t - b.at) / DAY_MS;
  if (d < 0) return 0;
  if (d < b.rampDays) return d / b.rampDays;
  return Math.exp(-(d - b.rampDays) / b.fadeDays);
}

function breakoutIntegral(b: NonNullable<GameSpec['breakout']>, t: number): number {
  const d = (t - b.at) / DAY_MS;
  if (d <= 0) return 0;
  if (d < b.rampDays) return (d * d) / (2 * b.rampDays);
  return b.rampDays / 2 + b.fadeDays * (1 - Math.exp(-(d - b.rampDays) / b.fadeDays));
}

/** The index of the most recent update at or before t: 0 is the launch, -1 before it. */
export function updateIndex(g: GameSpec, t: number): number {
  const tau = (t - g.launchAt) / DAY_MS;
  if (tau < 0) return -1;
  if (tau < g.updatePhaseDays) return 0;
  return 1 + Math.floor((tau - g.updatePhaseDays) / g.updateEveryDays);
}

/** When update `k` went out (k = 0: the launch). */
export function updateTime(g: GameSpec, k: number): number {
  if (k <= 0) return g.launchAt;
  return g.launchAt + (g.updatePhaseDays + (k - 1) * g.updateEveryDays) * DAY_MS;
}

/** The most recent update at or before t (the launch counts as the first). */
export function lastUpdate(g: GameSpec, t: number): number {
  return updateTime(g, Math.max(0, updateIndex(g, t)));
}

export type UpdateKind = 'none' | 'positive' | 'negative';

/**
 * What update `k` (≥ 1) of a game does, a hash of (seed, game, k): 40% nothing at all, 30% a spike
 * that fades in days plus a step up of 3–18%, 30% a step down of 3–15% (the same
 * sizes on the log scale, so a game's updates do not drift it up or down on the whole).
 */
export function updateEffect(
  seed: number,
  g: GameSpec,
  k: number,
): { kind: UpdateKind; step: number; spike: number } {
  const u = uniform(seed, g.index, 50, k);
  const size = 0.03 + 0.15 * uniform(seed, g.index, 51, k);
  if (u < 0.4) return { kind: 'none', step: 0, spike: 0 };
  if (u < 0.7) return { kind: 'positive', step: size, spike: g.updateSpike };
  return { kind: 'negative', step: 1 / (1 + size) - 1, spike: 0 };
}

/** The multiplier every update up to t still contributes, leaving update `omit` out. */
function updatesFactor(seed: number, g: GameSpec, t: number, omit: number): number {
  let factor = 1;
  const last = updateIndex(g, t);
  for (let k = last; k >= 1; k--) {
    const days = (t - updateTime(g, k)) / DAY_MS;
    if (days > UPDATE_MEMORY_DAYS) break;
    if (k === omit) continue;
    const e = updateEffect(seed, g, k);
    if (e.kind === 'none') continue;
    factor *=
      (1 + e.step * Math.exp(-days / UPDATE_STEP_FADE_DAYS)) *
      (1 + e.spike * Math.exp(-days / UPDATE_SPIKE_DAYS));
  }
  return factor;
}

function dailyFactor(shape: MarketShape, g: GameSpec, t: number): number {
  const hours = (((t / HOUR_MS + g.hourShift) % 24) + 24) % 24;
  const i = Math.floor(hours);
  const f = hours - i;
  const p = shape.dailyProfile;
  const v = p[i % 24]! * (1 - f) + p[(i + 1) % 24]! * f;
  return v ** g.dailyAmplitude;
}

function weeklyFactor(shape: MarketShape, t: number): number {
  const dow = (Math.floor(t / DAY_MS) + 3) % 7; // 1970-01-01 was a Thursday; Monday = 0
  return shape.weeklyProfile[dow]!;
}

/** The smoothed CCU a game would have at t: base × lifecycle × breakout (no cycles, no noise). */
export function trendCcu(g: GameSpec, t: number): number {
  const b = g.breakout ? 1 + (g.breakout.factor - 1) * breakoutShape(g.breakout, t) : 1;
  return g.base * lifecycle(g, t) * b;
}

/** CCU at t; `omitUpdate` leaves that update's effect out (the world where it did nothing). */
export function ccuAt(seed: number, shape: MarketShape, g: GameSpec, t: number, omitUpdate = -1): number {
  if (t < g.launchAt) return 0;
  const noise = Math.exp(
    shape.noiseShort * smoothNoise(seed, g.index * 2 + 1, t / (30 * 60_000)) +
      shape.noiseDaily * smoothNoise(seed, g.index * 2 + 2, t / (3 * DAY_MS)),
  );
  const value =
    trendCcu(g, t) *
    updatesFactor(seed, g, t, omitUpdate) *
    seasonalMultiplier(g.genre, t) *
    dailyFactor(shape, g, t) *
    weeklyFactor(shape, t) *
    noise;
  return Math.max(0, Math.round(value));
}

/**
 * What update `k` did to the 7 UTC days after its release day: total CCU over those days (read
 * every 20 minutes) against the same world without that update, minus 1 (0.1 = 10% more players).
 */
export function plantedImpact(seed: number, shape: MarketShape, g: GameSpec, k: number): number {
  const releaseDay = Math.floor(updateTime(g, k) / DAY_MS) * DAY_MS;
  let actual = 0;
  let without = 0;
  for (let t = releaseDay + DAY_MS; t < releaseDay + 8 * DAY_MS; t += 20 * 60_000) {
    actual += ccuAt(seed, shape, g, t);
    without += ccuAt(seed, shape, g, t, k);
  }
  return without > 0 ? actual / without - 1 : 0;
}

/** Lifetime visits at t: the smoothed CCU integrated over time, times the game's visit rate. */
export function visitsAt(g: GameSpec, t: number): number {
  if (t < g.launchAt) return 0;
  let ccuDays = g.base * lifecycleIntegral(g, t);
  if (g.breakout) {
    // The lifecycle moves slowly next to a breakout: take it at the breakout's peak.
    const peak = Math.min(t, g.breakout.at + g.breakout.rampDays * DAY_MS);
    ccuDays += g.base * (g.breakout.factor - 1) * lifecycle(g, peak) * breakoutIntegral(g.breakout, t);
  }
  return Math.floor(g.visitsBeforeTracking + g.visitsPerCcuDay * ccuDays);
}

export function votesAt(g: GameSpec, t: number): { up: number; down: number } {
  const total = visitsAt(g, t) * g.votesPerVisit;
  return { up: Math.floor(total * g.likeRatio), down: Math.floor(total * (1 - g.likeRatio)) };
}

export function favoritesAt(g: GameSpec, t: number): number {
  return Math.floor(visitsAt(g, t) * g.favoritesPerVisit);
}
