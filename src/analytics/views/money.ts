/**
 * Pure helpers shared by the money views (monetization, ads, geo): the rate the response reports
 * and series with a point per bucket (rounding: figures.ts).
 */

import { bucketOf, type DayRange, eachDay } from '../range.js';
import { DEVEX_USD_PER_ROBUX } from '../rollups.repo.js';
import { round4 } from './figures.js';

/** What the response says about conversion (DECISIONS §4: the DevEx rate). */
export const RATES = { usd_per_robux: DEVEX_USD_PER_ROBUX, source: 'DevEx rate (DECISIONS)' } as const;

export { ratio4, round4 } from './figures.js';

/**
 * One point per day (or ISO week) of the range, 0 where nothing was earned: a money chart must show
 * the days without revenue, which the rollups have no row for. `rows` are keyed by bucketOf.
 */
export function moneySeries(
  rows: readonly { date: string; revenue_usd: number }[],
  range: DayRange,
  granularity: 'day' | 'week',
): { date: string; revenue_usd: number }[] {
  const byDate = new Map(rows.map((r) => [r.date, r.revenue_usd]));
  const dates = [...new Set(eachDay(range.from, range.to).map((d) => bucketOf(d, granularity)))];
  return dates.map((date) => ({ date, revenue_usd: round4(byDate.get(date) ?? 0) }));
}
