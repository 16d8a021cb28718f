/**
 * Per-type metrics from the per-day aggregates. Averages are over the days that carry the KPI (a missing
 * day is unknown, not zero); ratios of two KPIs (stickiness = DAU/MAU, conversion = payers/DAU …) are
 * ratios of sums over the days both carry, so big days weigh more, as they do for the business.
 * Every figure is rounded to 4 decimals; null when the file lacks what it needs.
 */
import { type Aggregate, dailyValues } from './aggregate.js';
import { round4, trendPerWeek } from './patterns.js';
import type { FileType } from './types.js';

type Points = [number, number][];
type Metrics = Record<string, number | null>;

export const METRIC_KEYS: Readonly<Record<FileType, readonly string[]>> = {
  retention: ['d1_retention', 'd7_retention', 'd30_retention', 'd7_d1_ratio', 'd1_trend_pct_per_week'],
  engagement: [
    'dau_avg',
    'mau_avg',
    'stickiness',
    'session_length_minutes',
    'playtime_minutes_per_dau',
    'sessions_per_dau',
    'dau_trend_pct_per_week',
  ],
  monetization: [
    'revenue_total',
    'revenue_per_day',
    'paying_users',
    'arppu',
    'arpdau',
    'conversion',
    'purchases',
    'revenue_trend_pct_per_week',
  ],
  acquisition: [
    'impressions',
    'clicks',
    'plays',
    'click_rate',
    'play_rate',
    'conversion',
    'plays_trend_pct_per_week',
  ],
  funnel: [
    'steps',
    'first_step_users',
    'last_step_users',
    'overall_conversion',
    'worst_step_conversion',
    'worst_step_number',
  ],
};

const r = (x: number | null): number | null => (x === null || !Number.isFinite(x) ? null : round4(x));

function avg(points: Points): number | null {
  if (points.length === 0) return null;
  let s = 0;
  for (const [, v] of points) s += v;
  return s / points.length;
}

function total(points: Points): number | null {
  return points.length === 0 ? null : points.reduce((s, [, v]) => s + v, 0);
}

/** Σa / Σb over the days both series carry. */
export function ratioOfSums(a: Points, b: Points, scale = 1): number | null {
  const bByDay = new Map(b);
  let sa = 0;
  let sb = 0;
  for (const [day, v] of a) {
    const w = bByDay.get(day);
    if (w === undefined) continue;
    sa += v;
    sb += w;
  }
  return sb > 0 ? (sa * scale) / sb : null;
}

/** The first KPI with data wins: a direct column (e.g. "ARPPU") beats a derived ratio. */
const firstOf = (...xs: (number | null)[]): number | null => xs.find((x) => x !== null) ?? null;

export function series(agg: Aggregate, kpi: string): Points {
  return dailyValues(agg.series.get(kpi));
}

/** The series a type's patterns are read on, with its KPI id. */
export function primarySeries(agg: Aggregate, type: FileType): { kpi: string; points: Points } {
  const order: Record<FileType, string[]> = {
    retention: ['d1', 'd7', 'd30'],
    engagement: ['dau', 'sessions', 'playtime_hours', 'mau'],
    monetization: ['revenue', 'price', 'paying_users'],
    acquisition: ['plays', 'impressions', 'clicks'],
    funnel: [],
  };
  if (type === 'monetization' && agg.layout.kind === 'sales')
    return { kpi: 'revenue', points: revenueSeries(agg) };
  for (const kpi of order[type]) {
    const points = series(agg, kpi);
    if (points.length > 0) return { kpi, points };
  }
  return { kpi: '', points: [] };
}

function retention(agg: Aggregate): Metrics {
  const d1 = avg(series(agg, 'd1'));
  const d7 = avg(series(agg, 'd7'));
  return {
    d1_retention: r(d1),
    d7_retention: r(d7),
    d30_retention: r(avg(series(agg, 'd30'))),
    d7_d1_ratio: r(d1 && d7 !== null ? d7 / d1 : null),
    d1_trend_pct_per_week: r(trendPerWeek(series(agg, 'd1'))),
  };
}

function engagement(agg: Aggregate): Metrics {
  const [dau, mau, sessions, hours] = ['dau', 'mau', 'sessions', 'playtime_hours'].map((k) =>
    series(agg, k),
  ) as [Points, Points, Points, Points];
  return {
    dau_avg: r(avg(dau)),
    mau_avg: r(avg(mau)),
    stickiness: r(firstOf(avg(series(agg, 'stickiness')), ratioOfSums(dau, mau))),
    session_length_minutes: r(firstOf(avg(series(agg, 'session_min')), ratioOfSums(hours, sessions, 60))),
    playtime_minutes_per_dau: r(
      firstOf(avg(series(agg, 'playtime_min_per_dau')), ratioOfSums(hours, dau, 60)),
    ),
    sessions_per_dau: r(ratioOfSums(sessions, dau)),
    dau_trend_pct_per_week: r(trendPerWeek(dau)),
  };
}

/** Revenue after fees; a sales export with only Price (what buyers paid) keeps the creator's 70% share. */
function revenueSeries(agg: Aggregate): Points {
  const revenue = series(agg, 'revenue');
  if (revenue.length > 0 || agg.layout.kind !== 'sales') return revenue;
  return series(agg, 'price').map(([d, v]) => [d, v * 0.7]);
}

function monetization(agg: Aggregate): Metrics {
  const revenue = revenueSeries(agg);
  const payers = series(agg, 'paying_users');
  const dau = series(agg, 'dau');
  const revenueTotal = total(revenue);
  const isSales = agg.layout.kind === 'sales';
  const buyers = isSales && agg.layout.buyer >= 0 ? agg.buyers.size : null;
  return {
    revenue_total: r(revenueTotal),
    revenue_per_day: r(avg(revenue)),
    paying_users: r(isSales ? buyers : avg(payers)),
    arppu: r(
      firstOf(
        avg(series(agg, 'arppu')),
        isSales
          ? buyers && revenueTotal !== null
            ? revenueTotal / buyers
            : null
          : ratioOfSums(revenue, payers),
      ),
    ),
    arpdau: r(firstOf(avg(series(agg, 'arpdau')), ratioOfSums(revenue, dau))),
    conversion: r(firstOf(avg(series(agg, 'payer_cvr')), ratioOfSums(payers, dau))),
    purchases: isSales ? total(dailyValuesOf(agg.sales)) : null,
    revenue_trend_pct_per_week: r(trendPerWeek(revenue)),
  };
}

function dailyValuesOf(map: Map<number, { s: number }>): Points {
  return [...map].map(([d, a]) => [d, a.s]);
}

function acquisition(agg: Aggregate): Metrics {
  const [impressions, clicks, plays] = ['impressions', 'clicks', 'plays'].map((k) => series(agg, k)) as [
    Points,
    Points,
    Points,
  ];
  return {
    impressions: r(total(impressions)),
    clicks: r(total(clicks)),
    plays: r(total(plays)),
    click_rate: r(firstOf(avg(series(agg, 'click_rate')), ratioOfSums(clicks, impressions))),
    play_rate: r(firstOf(avg(series(agg, 'play_rate')), ratioOfSums(plays, clicks))),
    conversion: r(firstOf(avg(series(agg, 'acq_cvr')), ratioOfSums(plays, impressions))),
    plays_trend_pct_per_week: r(trendPerWeek(plays.length > 0 ? plays : impressions)),
  };
}

/** Funnel steps in order (explicit step number, else order of first appearance). */
export function orderedSteps(agg: Aggregate) {
  return [...agg.steps.values()].sort((a, b) => a.order - b.order);
}

/** Index i ≥ 1 of the step whose share of the previous step is lowest, with that share. */
export function worstStep(users: readonly number[]): { index: number; conversion: number } | null {
  let worst: { index: number; conversion: number } | null = null;
  for (let i = 1; i < users.length; i++) {
    const prev = users[i - 1]!;
    if (!(prev > 0)) continue;
    const conversion = users[i]! / prev;
    if (!worst || conversion < worst.conversion) worst = { index: i, conversion };
  }
  return worst;
}

function funnel(agg: Aggregate): Metrics {
  const users = orderedSteps(agg).map((s) => s.users);
  const worst = worstStep(users);
  const first = users[0] ?? null;
  const last = users.at(-1) ?? null;
  return {
    steps: users.length,
    first_step_users: r(first),
    last_step_users: r(last),
    overall_conversion: r(first && last !== null ? last / first : null),
    worst_step_conversion: r(worst ? worst.conversion : null),
    worst_step_number: worst ? worst.index + 1 : null,
  };
}

export function computeMetrics(agg: Aggregate): Metrics {
  const byType: Record<FileType, (a: Aggregate) => Metrics> = {
    retention,
    engagement,
    monetization,
    acquisition,
    funnel,
  };
  return byType[agg.layout.fileType](agg);
}
