/**
 * The day-of-week profile of a log series, shrunk toward none by how much the data support it.
 * On the real histories weekly seasonality in daily means is weak, and a profile estimated from
 * two or three weeks is mostly noise; a James–Stein positive-part shrinkage keeps a profile only
 * as far as its spread exceeds what noise alone would give. Pure.
 */
import { weekday } from './series.js';

export interface WeeklyProfile {
  /** Additive log effect per weekday, Monday = 0; mean 0. */
  effect: number[];
  /** Share of the raw profile kept, 0..1 (0: no weekly seasonality). */
  weight: number;
}

const NONE: WeeklyProfile = { effect: [0, 0, 0, 0, 0, 0, 0], weight: 0 };

/** Residuals from a centred 7-day moving average (which removes level and trend, keeps weekdays). */
function detrended(y: readonly number[]): { index: number; r: number }[] {
  const out: { index: number; r: number }[] = [];
  let sum = 0;
  for (let i = 0; i < Math.min(7, y.length); i++) sum += y[i]!;
  for (let i = 3; i + 3 < y.length; i++) {
    if (i > 3) sum += y[i + 3]! - y[i - 4]!;
    out.push({ index: i, r: y[i]! - sum / 7 });
  }
  return out;
}

/**
 * `scale` multiplies the noise term of the shrinkage (1 = plain James–Stein; larger keeps a
 * profile only on stronger evidence).
 */
export function weeklyProfile(y: readonly number[], firstDay: number, scale = 1): WeeklyProfile {
  const res = detrended(y);
  if (res.length < 14) return NONE;
  const sums = [0, 0, 0, 0, 0, 0, 0];
  const counts = [0, 0, 0, 0, 0, 0, 0];
  for (const { index, r } of res) {
    const d = weekday(firstDay + index);
    sums[d]! += r;
    counts[d]! += 1;
  }
  const raw = sums.map((s, d) => s / Math.max(1, counts[d]!));
  const mean = raw.reduce((a, b) => a + b, 0) / 7;
  const centred = raw.map((v) => v - mean);
  let noise = 0;
  for (const { index, r } of res) noise += (r - raw[weekday(firstDay + index)]!) ** 2;
  const sigma2 = noise / Math.max(1, res.length - 7);
  const spread = centred.reduce((a, v) => a + v * v, 0) / 7;
  const perDay = res.length / 7;
  const weight = spread > 0 ? Math.max(0, 1 - (scale * sigma2) / perDay / spread) : 0;
  return { effect: centred.map((v) => v * weight), weight };
}
