/**
 * Patterns found by statistics on a daily series, on log values (effects are multiplicative: a weekend
 * lift or a weekly growth rate is a percentage, whatever the scale):
 * - trend: Theil–Sen slope (robust to spikes) as % per week, significance by Mann–Kendall, computed after
 *   removing a significant weekend effect so the weekly wave is not mistaken for noise;
 * - weekly_cycle: Welch t-test of weekend vs weekday residuals around the trend;
 * - anomaly: robust z (0.6745·(e − median)/MAD, Iglewicz–Hoaglin) of the residuals beyond 3.5 (more for
 *   long series, see ANOMALY_FAMILY_ALPHA), dated.
 * A pattern is reported only at p < 0.01, so a flat, noisy file yields (almost) none.
 */

import { mad, mannKendall, mean, median, normalQuantile, theilSen, welch } from '../stats.js';
import { dayToIso } from './aggregate.js';
import type { Pattern } from './types.js';

export const ALPHA = 0.01;
const MIN_DAYS = 14;
/** Theil–Sen and Mann–Kendall are O(n²); 1,000 days (the latest) is ~500k pairs, well under a second. */
const MAX_DAYS = 1000;
/** Iglewicz–Hoaglin's 3.5, raised for long series so pure noise flags a day in under 1% of files (Bonferroni). */
const ANOMALY_Z = 3.5;
const ANOMALY_FAMILY_ALPHA = 0.01;
const MAX_ANOMALIES = 3;

const clamp01 = (x: number): number => Math.max(0, Math.min(1, x));
// Past 1e12 four decimals are beyond double precision anyway, and x·10⁴ could overflow to Infinity.
export const round4 = (x: number): number => (Math.abs(x) >= 1e12 ? x : Math.round(x * 10_000) / 10_000);
const fmt = (x: number, digits = 1): string => (Math.round(x * 10 ** digits) / 10 ** digits).toFixed(digits);
const fmtP = (p: number): string => (p < 0.001 ? 'p < 0.001' : `p = ${fmt(p, 3)}`);

function isWeekend(day: number): boolean {
  const weekday = (((day + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday (4); 0 = Sunday.
  return weekday === 0 || weekday === 6;
}

interface Prepared {
  days: number[];
  values: number[];
  y: number[];
  offset: number;
}

/** Log transform with an offset only when zeros occur (counts of 0 are real days, not missing ones). */
function prepare(points: readonly [number, number][]): Prepared | null {
  const recent = points.slice(-MAX_DAYS);
  // Negative or astronomically large values are not daily analytics; no pattern is claimed on them.
  if (recent.length < MIN_DAYS || recent.some(([, v]) => v < 0 || v > 1e15)) return null;
  const positives = recent.map(([, v]) => v).filter((v) => v > 0);
  if (positives.length < MIN_DAYS / 2) return null;
  const offset = positives.length === recent.length ? 0 : Math.min(...positives) / 2;
  return {
    days: recent.map(([d]) => d),
    values: recent.map(([, v]) => v),
    y: recent.map(([, v]) => Math.log(v + offset)),
    offset,
  };
}

/** Trend in % per week (Theil–Sen on log values), or null for fewer than 14 days. */
export function trendPerWeek(points: readonly [number, number][]): number | null {
  const p = prepare(points);
  if (!p) return null;
  return Math.exp(decompose(p, '').fit.slope * 7) - 1;
}

/** Trend, then the weekend effect on the residuals, then the trend again on the de-seasonalised values. */
function decompose(p: Prepared, label: string) {
  const first = theilSen(p.days, p.y);
  const resid = p.y.map((y, i) => y - first.intercept - first.slope * p.days[i]!);
  const weekly = weeklyCycle(p, resid, label);
  const seasonal = p.days.map((d) =>
    weekly ? (isWeekend(d) ? weekly.weekendShift : weekly.weekdayShift) : 0,
  );
  const y2 = p.y.map((y, i) => y - seasonal[i]!);
  return { weekly, seasonal, y2, fit: theilSen(p.days, y2) };
}

export function seriesPatterns(points: readonly [number, number][], label: string): Pattern[] {
  const p = prepare(points);
  if (!p) return [];
  const { weekly, seasonal, y2, fit } = decompose(p, label);
  const out: Pattern[] = [];
  if (weekly) out.push(weekly.pattern);
  const trend = trendPattern(p, y2, fit.slope, label);
  if (trend) out.push(trend);
  const fitted = p.days.map((d, i) => fit.intercept + fit.slope * d + seasonal[i]!);
  out.push(...anomalies(p, fitted, label));
  return out;
}

function weeklyCycle(p: Prepared, resid: readonly number[], label: string) {
  const we = resid.filter((_, i) => isWeekend(p.days[i]!));
  const wd = resid.filter((_, i) => !isWeekend(p.days[i]!));
  if (we.length < 4 || wd.length < 4) return null;
  const test = welch(we, wd);
  const lift = Math.exp(mean(we) - mean(wd)) - 1;
  if (!(test.p < ALPHA) || Math.abs(lift) < 0.03) return null;
  const pattern: Pattern = {
    kind: 'weekly_cycle',
    text: `${label} on weekends run ${fmt(Math.abs(lift) * 100)}% ${lift > 0 ? 'above' : 'below'} weekdays (Welch t = ${fmt(test.t, 2)}, ${fmtP(test.p)}).`,
    weight: round4(clamp01(Math.abs(lift) / 0.5) * (1 - test.p)),
    figures: {
      weekend_vs_weekday: round4(lift),
      t: round4(test.t),
      df: round4(test.df),
      p: Number(test.p.toPrecision(3)),
      weekend_days: we.length,
      weekday_days: wd.length,
    },
  };
  const overall = mean(resid);
  return { pattern, weekendShift: mean(we) - overall, weekdayShift: mean(wd) - overall };
}

function trendPattern(p: Prepared, y: readonly number[], slope: number, label: string): Pattern | null {
  const mk = mannKendall(y);
  const perWeek = Math.exp(slope * 7) - 1;
  if (!(mk.p < ALPHA) || Math.abs(perWeek) < 0.005) return null;
  const verb = perWeek > 0 ? 'grow' : 'shrink';
  return {
    kind: 'trend',
    text: `${label} ${verb} ${fmt(Math.abs(perWeek) * 100)}% a week over ${p.days.length} days (Theil–Sen slope, Mann–Kendall ${fmtP(mk.p)}).`,
    weight: round4(clamp01(Math.abs(perWeek) / 0.1) * (1 - mk.p)),
    figures: {
      pct_per_week: round4(perWeek),
      z: round4(mk.z),
      p: Number(mk.p.toPrecision(3)),
      days: p.days.length,
    },
  };
}

function anomalies(p: Prepared, fitted: readonly number[], label: string): Pattern[] {
  const e = p.y.map((y, i) => y - fitted[i]!);
  const centre = median(e);
  const spread = mad(e, centre);
  if (!(spread > 1e-12)) return [];
  const threshold = Math.max(ANOMALY_Z, normalQuantile(1 - ANOMALY_FAMILY_ALPHA / (2 * e.length)));
  const found = e
    .map((x, i) => ({ i, z: (0.6745 * (x - centre)) / spread }))
    .filter((a) => Math.abs(a.z) > threshold)
    .sort((a, b) => Math.abs(b.z) - Math.abs(a.z))
    .slice(0, MAX_ANOMALIES);
  return found.map(({ i, z }) => {
    const value = p.values[i]!;
    const expected = Math.max(0, Math.exp(fitted[i]! + centre) - p.offset);
    const change = expected > 0 ? value / expected - 1 : 0;
    return {
      kind: 'anomaly',
      text: `${dayToIso(p.days[i]!)}: ${label} ${fmtNumber(value)}, ${fmt(Math.abs(change) * 100)}% ${change >= 0 ? 'above' : 'below'} the expected ${fmtNumber(expected)} (robust z = ${fmt(z, 1)}).`,
      weight: round4(clamp01(Math.abs(z) / 10)),
      figures: {
        day: p.days[i]!,
        value: round4(value),
        expected: round4(expected),
        change: round4(change),
        robust_z: round4(z),
      },
    };
  });
}

export function fmtNumber(x: number): string {
  if (Math.abs(x) >= 100) return String(Math.round(x));
  return fmt(x, Math.abs(x) >= 1 ? 1 : 3);
}
