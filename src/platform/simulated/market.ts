/**
 * The simulated market's dynamics: every reading of a game (CCU, visits, votes, favourites, last
 * update) is a pure function of its traits and the moment `t`, so any past moment can be produced
 * exactly and two processes always agree.
 *
 * CCU(t) = base × lifecycle × breakout × update spike × season × daily cycle × weekly cycle × noise.
 * Visits accrue at the smoothed CCU (lifecycle × breakout, in closed form): the cycles and the
 * noise average out over a day, so cumulative counts stay monotone and cheap to compute.
 */
import { seasonalMultiplier } from '../calendar.js';
import type { GameSpec } from './catalogue.js';
import { smoothNoise } from './random.js';
import type { MarketShape } from './shape.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const UPDATE_SPIKE_DAYS = 1.5;

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

/** The most recent update at or before t (the launch counts as the first). */
export function lastUpdate(g: GameSpec, t: number): number {
  const tau = (t - g.launchAt) / DAY_MS;
  if (tau < g.updatePhaseDays) return g.launchAt;
  const k = Math.floor((tau - g.updatePhaseDays) / g.updateEveryDays);
  return g.launchAt + (g.updatePhaseDays + k * g.updateEveryDays) * DAY_MS;
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

export function ccuAt(seed: number, shape: MarketShape, g: GameSpec, t: number): number {
  if (t < g.launchAt) return 0;
  const sinceUpdate = (t - lastUpdate(g, t)) / DAY_MS;
  const spike = 1 + g.updateSpike * Math.exp(-sinceUpdate / UPDATE_SPIKE_DAYS);
  const noise = Math.exp(
    shape.noiseShort * smoothNoise(seed, g.index * 2 + 1, t / (30 * 60_000)) +
      shape.noiseDaily * smoothNoise(seed, g.index * 2 + 2, t / (3 * DAY_MS)),
  );
  const value =
    trendCcu(g, t) *
    spike *
    seasonalMultiplier(g.genre, t) *
    dailyFactor(shape, g, t) *
    weeklyFactor(shape, t) *
    noise;
  return Math.max(0, Math.round(value));
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
