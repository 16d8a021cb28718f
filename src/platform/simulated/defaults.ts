/**
 * The default simulated market: about 5,000 games. Cycle shapes, tail and noise are to come from
 * the calibration against real CCU histories (calibration.ts, docs/calibration.md); until that
 * lands these are design values (a US-afternoon peak, weekend uplift, a head fitted by eye to the
 * 2024 top-1000 chart: #1 ≈ 600k CCU, #1000 ≈ 1–2k, median game in the tens).
 */
import type { MarketShape } from './shape.js';

const DAILY = [
  0.8, 0.75, 0.7, 0.65, 0.62, 0.6, 0.62, 0.68, 0.75, 0.85, 0.95, 1.05, 1.12, 1.18, 1.22, 1.25, 1.28, 1.3, 1.3,
  1.28, 1.22, 1.12, 1.0, 0.9,
];
const mean = DAILY.reduce((a, b) => a + b, 0) / DAILY.length;

export const DEFAULT_SHAPE: MarketShape = {
  games: 5000,
  epoch: Date.UTC(2026, 0, 1),
  lateLaunchShare: 0.2,
  topCcu: 600_000,
  headAlpha: 0.85,
  tailBreakRank: 1000,
  tailAlpha: 4,
  breakoutShare: 0.1,
  cloneShare: 0.03,
  dailyProfile: DAILY.map((v) => v / mean),
  dailyAmplitudeRange: [0.5, 1.3],
  weeklyProfile: [0.95, 0.93, 0.94, 0.96, 1.02, 1.1, 1.1],
  noiseShort: 0.05,
  noiseDaily: 0.1,
  visitsPerCcuDay: 60,
  likeRatioMedian: 0.85,
  votesPerVisit: 0.0003,
  favoritesPerVisit: 0.0004,
};
