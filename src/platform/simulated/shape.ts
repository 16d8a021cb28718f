/**
 * The knobs of the simulated market. Cycle shapes, tail and noise come from the calibration
 * against real CCU histories (calibration.ts, docs/calibration.md); the rest are design choices.
 */

export interface MarketShape {
  games: number;
  /** Reference moment: games launched "before tracking" are spread over the years before it. */
  epoch: number;
  /** Share of games launching in [epoch − 1 y, epoch + 2 y], so launches keep happening. */
  lateLaunchShare: number;
  topCcu: number;
  headAlpha: number;
  tailBreakRank: number;
  tailAlpha: number;
  breakoutShare: number;
  cloneShare: number;
  /** 24 hour-of-day (UTC) factors, mean 1. */
  dailyProfile: readonly number[];
  /** Exponent applied to the daily profile per game (0 = flat, 1 = the calibrated shape). */
  dailyAmplitudeRange: readonly [number, number];
  /**
   * Std (hours) of each game's shift of the daily cycle (audiences in other time zones). Optional
   * so shapes written before the calibration keep their meaning: absent means HOUR_SHIFT_SD (1.5 h).
   */
  hourShiftSd?: number;
  /** 7 day-of-week factors, Monday first, mean 1. */
  weeklyProfile: readonly number[];
  /** Std of short-term (≈ 30 min) log-CCU noise, and of day-scale drift. */
  noiseShort: number;
  noiseDaily: number;
  visitsPerCcuDay: number;
  likeRatioMedian: number;
  votesPerVisit: number;
  favoritesPerVisit: number;
}
