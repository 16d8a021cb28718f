/**
 * Turns a daily history into the evenly spaced log series the models read: sorted by date,
 * one value per day, gaps filled. Pure.
 */

export const DAY_MS = 86_400_000;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** Day number (days since 1970-01-01 UTC) of a YYYY-MM-DD date; NaN when not a real date. */
export function dayNumber(date: string): number {
  if (!DATE_RE.test(date)) return Number.NaN;
  const t = Date.parse(`${date}T00:00:00Z`);
  if (!Number.isFinite(t) || new Date(t).toISOString().slice(0, 10) !== date) return Number.NaN;
  return t / DAY_MS;
}

export function dateOf(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Monday = 0 … Sunday = 6 (UTC). */
export function weekday(day: number): number {
  // 1970-01-01 was a Thursday (3 with Monday = 0).
  return (((day + 3) % 7) + 7) % 7;
}

export interface LogSeries {
  /** Day number of y[0]. */
  firstDay: number;
  /** ln(value + 1) for every day from firstDay on; gap days interpolated. */
  y: number[];
  /** Days with a real value (the rest were gaps). */
  observed: number;
}

/**
 * Usable points: a valid date and a finite value ≥ 0. A date given twice keeps its last value
 * (a re-sent day replaces the earlier one).
 */
export function usablePoints(history: readonly { date: string; value: number }[]): Map<number, number> {
  const byDay = new Map<number, number>();
  for (const p of history) {
    const day = dayNumber(p.date);
    if (Number.isFinite(day) && Number.isFinite(p.value) && p.value >= 0) byDay.set(day, p.value);
  }
  return byDay;
}

/**
 * Missing days are filled by linear interpolation of ln(value + 1) between the neighbouring
 * observed days: a geometric path between two CCU levels, which is what a game's audience does
 * between two readings far more often than a straight line in players. Only interior gaps exist
 * (the series starts and ends on observed days).
 */
export function toLogSeries(byDay: ReadonlyMap<number, number>): LogSeries {
  const days = [...byDay.keys()].sort((a, b) => a - b);
  const firstDay = days[0] ?? 0;
  const y: number[] = [];
  for (let i = 0; i < days.length; i++) {
    const day = days[i]!;
    const v = Math.log1p(byDay.get(day)!);
    const prevDay = days[i - 1];
    if (prevDay !== undefined && day - prevDay > 1) {
      const from = y[y.length - 1]!;
      for (let d = prevDay + 1; d < day; d++) y.push(from + ((v - from) * (d - prevDay)) / (day - prevDay));
    }
    y.push(v);
  }
  return { firstDay, y, observed: days.length };
}
