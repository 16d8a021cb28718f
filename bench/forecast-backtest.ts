/**
 * Rolling-origin back-test of a forecaster on daily series: expanding windows (all history up to
 * the origin, at least 28 days) or sliding windows (the last 14 days only, as for a newly tracked
 * game), origins every 7 days, scored by MASE against the weekly seasonal-naive forecast of the
 * same windows and by the pooled coverage of the interval. Pure.
 */
import { type DailyValue, type ForecastPoint, MIN_HISTORY_DAYS } from '../src/games/forecast/engine.js';
import { dateOf, toLogSeries } from '../src/games/forecast/series.js';

export interface DailySeries {
  id: string;
  /** Day number (days since 1970-01-01) of values[0]. */
  firstDay: number;
  /** Daily mean per day from firstDay on; null where the day has no (usable) readings. */
  values: (number | null)[];
}

export type Forecaster = (history: DailyValue[], horizon: number) => ForecastPoint[];

export interface BacktestSpec {
  horizon: number;
  windows: 'expanding' | 'sliding';
  /** Expanding: first origin (days of span); sliding: window length. */
  span: number;
  step: number;
}

export interface BacktestStats {
  /** Windows forecast (history and at least one observed outcome). */
  windows: number;
  /** Windows where the forecaster threw or returned a negative, non-finite or missing value. */
  failures: number;
  /** Windows with a non-zero MASE scale (a series that never moved week on week has none). */
  scored: number;
  maseSum: number;
  naiveMaseSum: number;
  covered: number;
  outcomes: number;
  minValue: number;
}

export function emptyStats(): BacktestStats {
  return {
    windows: 0,
    failures: 0,
    scored: 0,
    maseSum: 0,
    naiveMaseSum: 0,
    covered: 0,
    outcomes: 0,
    minValue: Infinity,
  };
}

export function addStats(a: BacktestStats, b: BacktestStats): BacktestStats {
  return {
    windows: a.windows + b.windows,
    failures: a.failures + b.failures,
    scored: a.scored + b.scored,
    maseSum: a.maseSum + b.maseSum,
    naiveMaseSum: a.naiveMaseSum + b.naiveMaseSum,
    covered: a.covered + b.covered,
    outcomes: a.outcomes + b.outcomes,
    minValue: Math.min(a.minValue, b.minValue),
  };
}

/** Mean MASE of the forecaster ÷ mean MASE of the seasonal-naive forecast, same windows. */
export const relMase = (s: BacktestStats): number =>
  s.naiveMaseSum > 0 ? s.maseSum / s.naiveMaseSum : Number.NaN;
export const coverage = (s: BacktestStats): number => (s.outcomes > 0 ? s.covered / s.outcomes : Number.NaN);

/** Mean |y[t] − y[t−7]| over the history's observed pairs: the in-sample seasonal-naive error. */
function maseScale(history: readonly (number | null)[], lag = 7): number {
  let sum = 0;
  let n = 0;
  for (let t = lag; t < history.length; t++) {
    const a = history[t];
    const b = history[t - lag];
    if (a != null && b != null) {
      sum += Math.abs(a - b);
      n++;
    }
  }
  return n > 0 ? sum / n : 0;
}

/** The seasonal-naive forecast: each day repeats the same weekday of the last (gap-filled) week. */
export function seasonalNaive(history: readonly DailyValue[], horizon: number): number[] {
  const byDay = new Map<number, number>();
  for (const p of history) byDay.set(Date.parse(`${p.date}T00:00:00Z`) / 86_400_000, p.value);
  const filled = toLogSeries(byDay).y.map((v) => Math.expm1(v));
  const week = filled.slice(-7);
  return Array.from({ length: horizon }, (_, h) => week[h % week.length]!);
}

function windowHistory(s: DailySeries, from: number, to: number): DailyValue[] {
  const out: DailyValue[] = [];
  for (let i = from; i < to; i++) {
    const v = s.values[i];
    if (v != null) out.push({ date: dateOf(s.firstDay + i), value: v });
  }
  return out;
}

function valid(points: readonly ForecastPoint[], horizon: number): boolean {
  return (
    points.length === horizon &&
    points.every(
      (p) =>
        [p.point, p.lower, p.upper].every((v) => Number.isFinite(v) && v >= 0) &&
        p.lower <= p.point &&
        p.point <= p.upper,
    )
  );
}

/** One window: forecast, then score against the observed outcomes. */
function scoreWindow(
  s: DailySeries,
  from: number,
  origin: number,
  horizon: number,
  f: Forecaster,
): BacktestStats {
  const stats = emptyStats();
  const history = windowHistory(s, from, origin);
  const outcomes = s.values.slice(origin, origin + horizon);
  if (history.length < MIN_HISTORY_DAYS || outcomes.every((v) => v == null)) return stats;
  stats.windows = 1;
  let points: ForecastPoint[];
  try {
    points = f(history, horizon);
  } catch {
    stats.failures = 1;
    return stats;
  }
  if (!valid(points, horizon)) stats.failures = 1;
  const naive = seasonalNaive(history, horizon);
  const scale = maseScale(s.values.slice(from, origin));
  let err = 0;
  let naiveErr = 0;
  outcomes.forEach((a, h) => {
    const p = points[h];
    stats.minValue = Math.min(stats.minValue, p?.lower ?? Infinity, p?.point ?? Infinity);
    if (a == null || !p) return;
    err += Math.abs(a - p.point);
    naiveErr += Math.abs(a - naive[h]!);
    stats.outcomes++;
    if (p.lower <= a && a <= p.upper) stats.covered++;
  });
  if (scale > 0) {
    const n = stats.outcomes;
    stats.scored = 1;
    stats.maseSum = err / n / scale;
    stats.naiveMaseSum = naiveErr / n / scale;
  }
  return stats;
}

/** Every window of one series. */
export function backtestSeries(s: DailySeries, spec: BacktestSpec, f: Forecaster): BacktestStats {
  let total = emptyStats();
  for (let origin = spec.span; origin + spec.horizon <= s.values.length; origin += spec.step) {
    const from = spec.windows === 'expanding' ? 0 : origin - spec.span;
    total = addStats(total, scoreWindow(s, from, origin, spec.horizon, f));
  }
  return total;
}

export function backtest(series: readonly DailySeries[], spec: BacktestSpec, f: Forecaster): BacktestStats {
  return series.reduce((acc, s) => addStats(acc, backtestSeries(s, spec, f)), emptyStats());
}
