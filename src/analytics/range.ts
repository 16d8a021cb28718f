/**
 * The date range an analytics request reads: `from` and `to` are UTC dates, both included
 * (default: the 30 days ending today). The plan's history limit clamps `from` (the response says
 * so in `history_limited_from`); a range that ends before `from`, or spans more than MAX_RANGE_DAYS,
 * is refused. Pure: `today` comes from the caller's clock.
 */
import { errors } from '../errors.js';

export const DEFAULT_RANGE_DAYS = 30;
/** The longest range one request may read (a year and a day, for year-over-year views). */
export const MAX_RANGE_DAYS = 366;

const DAY_MS = 86_400_000;

export interface DayRange {
  /** YYYY-MM-DD, inclusive. */
  from: string;
  /** YYYY-MM-DD, inclusive. */
  to: string;
  /** The earliest day the plan may read, when it moved `from` later; else null. */
  history_limited_from: string | null;
}

export function dayOf(t: Date): string {
  return t.toISOString().slice(0, 10);
}

export function addDays(day: string, n: number): string {
  return dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS));
}

/** Days from `a` to `b` (b − a). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY_MS);
}

/** Every day from `from` to `to`, inclusive. */
export function eachDay(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

/**
 * The range to read for `query` (dates already checked as YYYY-MM-DD by the schema), `today` and
 * the plan's history (`historyDays`: days back from today the plan may read, today included;
 * null = unlimited). 422 validation_failed names the field at fault.
 */
export function resolveRange(
  query: { from?: string | undefined; to?: string | undefined },
  today: string,
  historyDays: number | null,
): DayRange {
  const to = query.to ?? today;
  const from = query.from ?? addDays(to, -(DEFAULT_RANGE_DAYS - 1));
  if (!isDay(from)) throw errors.validation('query.from', 'query.from must be a date (YYYY-MM-DD)');
  if (!isDay(to)) throw errors.validation('query.to', 'query.to must be a date (YYYY-MM-DD)');
  if (to < from) throw errors.validation('query.to', 'query.to must not be before query.from');
  if (daysBetween(from, to) + 1 > MAX_RANGE_DAYS) {
    throw errors.validation('query.from', `a range spans at most ${MAX_RANGE_DAYS} days`);
  }
  const earliest = historyDays === null ? null : addDays(today, -(historyDays - 1));
  if (earliest !== null && from < earliest) {
    // Entirely before the plan's history: an empty range at its first day.
    return { from: earliest, to: to < earliest ? addDays(earliest, -1) : to, history_limited_from: earliest };
  }
  return { from, to, history_limited_from: null };
}

/** A real calendar date written YYYY-MM-DD (2026-02-30 is not). */
export function isDay(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const t = Date.parse(`${s}T00:00:00Z`);
  return Number.isFinite(t) && dayOf(new Date(t)) === s;
}

/** The series point a day belongs to: the day itself, or the Monday of its ISO week. */
export function bucketOf(day: string, granularity: 'day' | 'week'): string {
  if (granularity === 'day') return day;
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 = Sunday
  return addDays(day, -((weekday + 6) % 7));
}
