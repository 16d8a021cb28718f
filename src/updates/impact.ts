/**
 * The impact of one update on a game's players (pure): the 7 UTC days after the release day
 * against a counterfactual forecast fitted only on the days before it.
 *
 *   counterfactual C = Σ over the window days of the forecast's median daily mean CCU
 *   observed        O = Σ over the same days of the observed daily mean CCU
 *   impact          = O / C − 1
 *   interval        = (O / C) · exp(∓ z · k · s) − 1, s = Σ w_h · sd_h (w_h = C_h / C)
 *   significant     = the 95% interval excludes zero
 *
 * sd_h is the forecast's log-scale predictive sd on window day h. The days of one window move
 * together (a forecast that is off on day 1 is off on day 7 the same way), so the window's sd is
 * their weighted mean, not a √7-shrunk one; k (IMPACT_SD_SCALE) calibrates it per level. The release day
 * itself is in neither: part of it is before the update.
 */
import {
  type DailyValue,
  dayKey,
  dayMs,
  forecastSeries,
  InsufficientHistoryError,
  MIN_HISTORY_DAYS,
} from '../games/index.js';
import { normalQuantile } from '../stats.js';

const DAY_MS = 86_400_000;
export const WINDOW_DAYS = 7;
/** A window with fewer observed days than this is not measured (a collector outage). */
export const MIN_WINDOW_DAYS = 5;
/** The counterfactual reads at most this many days before the release day. */
export const BASELINE_DAYS = 90;
/**
 * Scales of the window's log-scale sd, one per interval level: the errors have heavier tails than
 * a normal's, so one scale cannot make both levels right. Fitted on a simulated market no report
 * uses (seed 2: days with no update within a day before or 8 after, as placebo release days whose
 * true effect is zero) to the quantiles of |log(O/C)| / s: 80% and 95% coverage. The calibration
 * test checks them out of sample on the planted updates of seed 1 (scripts/fit-update-impact.ts
 * refits them).
 */
export const IMPACT_SD_SCALE = { 0.8: 0.72, 0.95: 0.85 } as const;

export interface DayMean {
  day: string;
  ccu: number;
}

export type Impact =
  | {
      status: 'measured';
      /** O / C − 1 as a fraction (0.12 = 12% more players than without the update). */
      impact: number;
      ci80: [number, number];
      ci95: [number, number];
      /** The 95% interval excludes zero. */
      significant: boolean;
      observedMean: number;
      counterfactualMean: number;
      baselineDays: number;
      windowDays: number;
      modelVersion: string;
    }
  | { status: 'insufficient_history'; baselineDays: number }
  | { status: 'insufficient_data'; windowDays: number };

/** The first day after the window: the impact can be measured once this day has begun. */
export function windowEnd(releaseDay: string): string {
  return dayKey(dayMs(releaseDay) + (WINDOW_DAYS + 1) * DAY_MS);
}

/**
 * `history`: complete UTC days, any order, at least the BASELINE_DAYS before `releaseDay` and the
 * WINDOW_DAYS after it where they exist (other days are ignored).
 */
export function measureImpact(history: readonly DayMean[], releaseDay: string): Impact {
  const release = dayMs(releaseDay);
  const baseline: DailyValue[] = [];
  const window = new Map<number, number>();
  for (const h of history) {
    const d = (dayMs(h.day) - release) / DAY_MS;
    if (!Number.isFinite(d) || !Number.isFinite(h.ccu) || h.ccu < 0) continue;
    if (d < 0 && d >= -BASELINE_DAYS) baseline.push({ date: h.day, value: h.ccu });
    else if (d >= 1 && d <= WINDOW_DAYS) window.set(d, h.ccu);
  }
  baseline.sort((a, b) => (a.date < b.date ? -1 : 1));
  if (baseline.length < MIN_HISTORY_DAYS)
    return { status: 'insufficient_history', baselineDays: baseline.length };
  if (window.size < MIN_WINDOW_DAYS) return { status: 'insufficient_data', windowDays: window.size };
  const last = (dayMs(baseline.at(-1)!.date) - release) / DAY_MS; // −1 unless the days before were gaps
  const ahead = WINDOW_DAYS - last;
  let result: ReturnType<typeof forecastSeries>;
  try {
    result = forecastSeries(baseline, { horizon: ahead, level: 0.8 });
  } catch (err) {
    if (err instanceof InsufficientHistoryError)
      return { status: 'insufficient_history', baselineDays: err.days };
    throw err;
  }
  let observed = 0;
  let counterfactual = 0;
  let weightedSd = 0;
  for (const [d, ccu] of window) {
    const h = d - last - 1;
    const median = Math.expm1(result.logMean[h]!);
    observed += ccu;
    counterfactual += median;
    weightedSd += median * result.logSd[h]!;
  }
  if (!(counterfactual > 0)) return { status: 'insufficient_history', baselineDays: baseline.length };
  const s = weightedSd / counterfactual;
  const ratio = observed / counterfactual;
  const interval = (level: 0.8 | 0.95): [number, number] => {
    const width = normalQuantile((1 + level) / 2) * IMPACT_SD_SCALE[level] * s;
    return [ratio * Math.exp(-width) - 1, ratio * Math.exp(width) - 1];
  };
  const ci95 = interval(0.95);
  return {
    status: 'measured',
    impact: ratio - 1,
    ci80: interval(0.8),
    ci95,
    significant: ci95[0] > 0 || ci95[1] < 0,
    observedMean: observed / window.size,
    counterfactualMean: counterfactual / window.size,
    baselineDays: baseline.length,
    windowDays: window.size,
    modelVersion: result.modelVersion,
  };
}
