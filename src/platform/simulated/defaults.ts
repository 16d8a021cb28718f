/**
 * The default simulated market: about 5,000 games. Cycles, noise, ratios and the size of the head
 * are calibrated against the real files in ../shared/realdata/ccu-history by scripts/calibrate.ts
 * (method, data and fit quality in docs/calibration.md; calibration.test.ts fails if these drift
 * from what the files give). Design values, not fitted: games, epoch, lateLaunchShare,
 * tailBreakRank (the end of the real top-1000 chart), tailAlpha (set so the median game has ≈ 30
 * CCU: no real file covers the long tail), breakoutShare and cloneShare.
 */
import type { MarketShape } from './shape.js';

/** exp of the typical game's hour-of-day effect at each whole UTC hour (15 games, 2 harmonics). */
const DAILY = [
  1.14, 1.07, 0.99, 0.91, 0.83, 0.76, 0.72, 0.7, 0.71, 0.75, 0.8, 0.88, 0.96, 1.03, 1.1, 1.14, 1.17, 1.18,
  1.19, 1.19, 1.2, 1.2, 1.2, 1.18,
];
/** Monday first (UTC days), from the same 15 games. */
const WEEKLY = [0.96, 0.91, 0.92, 1.02, 1.01, 1.09, 1.07];
/** Rounding leaves the means a hair off 1; the knobs promise mean 1 exactly. */
const toMeanOne = (xs: readonly number[]) => xs.map((v) => (v * xs.length) / xs.reduce((a, b) => a + b, 0));

export const DEFAULT_SHAPE: MarketShape = {
  games: 5000,
  epoch: Date.UTC(2026, 0, 1),
  lateLaunchShare: 0.2,
  // Matched through the simulator so that its day-mean CCU on a Sunday follows the 2024-09-29
  // top-1000 law (≈ 1.08M · rank^−1.04); baseCcu sits before genre pull, lifecycle and cycles.
  topCcu: 1_140_000,
  headAlpha: 0.9,
  tailBreakRank: 1000,
  tailAlpha: 4.2,
  breakoutShare: 0.1,
  cloneShare: 0.03,
  dailyProfile: toMeanOne(DAILY),
  dailyAmplitudeRange: [0.2, 1.8],
  hourShiftSd: 2.7,
  weeklyProfile: toMeanOne(WEEKLY),
  noiseShort: 0.04,
  noiseDaily: 0.21,
  visitsPerCcuDay: 170,
  likeRatioMedian: 0.86,
  votesPerVisit: 0.0009,
  favoritesPerVisit: 0.0026,
};
