/**
 * The forecasting engine: daily mean CCU → horizon days of point forecasts with calibrated
 * intervals. Works on ln(value + 1): CCU grows and shrinks multiplicatively and is never
 * negative, so a normal predictive distribution there gives skewed, non-negative intervals.
 * Pure apart from the one-off WASM instantiation in wasm.ts.
 */

import { normalCdf, normalQuantile } from '../../stats.js';
import { DEFAULT_CONFIG, type EngineConfig, logForecast } from './model.js';
import { dateOf, toLogSeries, usablePoints } from './series.js';

export const MIN_HISTORY_DAYS = 14;
// 2: the ETS path fades into the median level where it runs above it (model.ts, bumpFadeDays).
export const ENGINE_VERSION = 2;
// ln(1e12): caps the log scale so that no interval end overflows to Infinity.
const MAX_LOG = Math.log(1e12);

export interface DailyValue {
  /** YYYY-MM-DD, UTC. */
  date: string;
  /** Daily mean CCU, ≥ 0. */
  value: number;
}

export interface ForecastPoint {
  date: string;
  point: number;
  lower: number;
  upper: number;
}

export interface ForecastResult {
  /** Model and engine version, e.g. 'ets-auto-log+median7@2'. */
  modelVersion: string;
  /** Horizon points, the day after the last history date first; lower ≥ 0, all finite. */
  points: ForecastPoint[];
  /** Per point: mean and sd of the predictive distribution of ln(value + 1), for probabilities. */
  logMean: number[];
  logSd: number[];
}

export class InsufficientHistoryError extends Error {
  constructor(readonly days: number) {
    super(`forecasts need at least ${MIN_HISTORY_DAYS} days of history (got ${days})`);
    this.name = 'InsufficientHistoryError';
  }
}

function checkOptions(options: { horizon: number; level: number }): void {
  if (!Number.isInteger(options.horizon) || options.horizon < 1) {
    throw new RangeError(`horizon must be a whole number ≥ 1 (got ${options.horizon})`);
  }
  if (!(options.level > 0 && options.level < 1)) {
    throw new RangeError(`level must be between 0 and 1 (got ${options.level})`);
  }
}

/** forecastSeries with explicit tunables (the back-test compares settings through this). */
export function forecastWith(
  history: readonly DailyValue[],
  options: { horizon: number; level: number },
  config: EngineConfig,
): ForecastResult {
  checkOptions(options);
  const byDay = usablePoints(history);
  if (byDay.size < MIN_HISTORY_DAYS) throw new InsufficientHistoryError(byDay.size);
  const series = toLogSeries(byDay);
  const f = logForecast(series, options.horizon, config);
  const k = config.sdScale(byDay.size);
  const zq = normalQuantile((1 + options.level) / 2);
  const start = series.firstDay + series.y.length;
  const logMean: number[] = [];
  const logSd: number[] = [];
  const points: ForecastPoint[] = [];
  for (let h = 0; h < options.horizon; h++) {
    const m = Math.min(MAX_LOG, Math.max(0, f.mean[h]!));
    const s = Math.min(MAX_LOG, f.sd[h]! * k);
    logMean.push(m);
    logSd.push(s);
    points.push({
      date: dateOf(start + h),
      point: Math.expm1(m),
      lower: Math.max(0, Math.expm1(m - zq * s)),
      upper: Math.expm1(Math.min(MAX_LOG, m + zq * s)),
    });
  }
  return { modelVersion: `${f.model}@${ENGINE_VERSION}`, points, logMean, logSd };
}
/**
 * Throws InsufficientHistoryError under MIN_HISTORY_DAYS usable days (a valid date and a finite
 * value ≥ 0). Gaps (missing dates) are filled by interpolating ln(value + 1) linearly between the
 * neighbouring days; the forecast starts the day after the last history date.
 */
export function forecastSeries(
  history: readonly DailyValue[],
  options: { horizon: number; level: number },
): ForecastResult {
  return forecastWith(history, options, DEFAULT_CONFIG);
}

/** P(value on day index `day` (0 = first forecast day) > threshold) from the predictive distribution. */
export function probabilityAbove(result: ForecastResult, day: number, threshold: number): number {
  const m = result.logMean[day];
  const s = result.logSd[day];
  if (m === undefined || s === undefined) {
    throw new RangeError(`day must be 0..${result.logMean.length - 1} (got ${day})`);
  }
  if (threshold < 0) return 1;
  const t = Math.log1p(threshold);
  if (s <= 0) return m > t ? 1 : 0;
  return 1 - normalCdf((t - m) / s);
}
