/**
 * Day figures: what overview and engagement sum over a range, per UTC day. Actives (DAU), the moves
 * of WAU and MAU (stretches opened − closed that day, engagement.repo.ts: WAU on day d is the sum of
 * the moves up to d), revenue, and the sessions started that day with histograms of their lengths
 * and of the playtime per player-day in whole seconds.
 *
 * Two sources, one shape: the rollup job stores them per game and platform (sdk_day_stats, derived
 * by src/analytics/stats.ts with `liveDays` below), and a request reads the stored rows; a request
 * the stored rows cannot answer (a segment's players, or a plan's history limit cutting WAU and
 * MAU windows short) computes the same figures live from the rollups.
 */
import { Type } from 'typebox';
import { addDays, type DayRange } from '../range.js';
import { revenueByDay, type StoredDayRow, storedDays } from './daily.repo.js';
import { type EngagementPassRow, engagementPass } from './engagement.repo.js';
import { sessionHistograms } from './sessions.repo.js';
import type { ViewContext } from './view.js';

/** How session-length and playtime percentiles are taken: stated in each response that has them. */
export const PERCENTILE_METHOD = 'whole seconds, ±0.5 s';

export const PercentileMethod = Type.Literal(PERCENTILE_METHOD, {
  description:
    'Percentiles of session lengths and playtime are taken over the values rounded to the whole second ' +
    '(interpolating between ranks, as percentile_cont), so each is within 0.5 s of the exact one; averages are exact.',
});

/** Values (ascending) and how many times each was seen. */
export interface Histogram {
  values: number[];
  counts: number[];
}

export interface DayFigures {
  day: string;
  dau: number;
  wau_move: number;
  mau_move: number;
  revenue_usd: number;
  sessions: number;
  sessions_from_end: number;
  length_sum: number;
  lengths: Histogram;
  playtime_days: number;
  playtime_sum: number;
  playtimes: Histogram;
}

const empty = (day: string): DayFigures => ({
  day,
  dau: 0,
  wau_move: 0,
  mau_move: 0,
  revenue_usd: 0,
  sessions: 0,
  sessions_from_end: 0,
  length_sum: 0,
  lengths: { values: [], counts: [] },
  playtime_days: 0,
  playtime_sum: 0,
  playtimes: { values: [], counts: [] },
});

/** True when the day moves nothing and counts nothing (not worth a stored row). */
export function isEmptyDay(d: DayFigures): boolean {
  return d.dau === 0 && d.wau_move === 0 && d.mau_move === 0 && d.sessions === 0 && d.revenue_usd === 0;
}

/** The first day read for the moves: 29 days before `from`, so MAU on `from` sees its whole window,
 * but never a day the plan may not read. */
export function readFromOf(range: DayRange): string {
  const from = addDays(range.from, -29);
  const earliest = range.history_limited_from;
  return earliest !== null && from < earliest ? earliest : from;
}

/** The engagement pass's grouped rows as moves per day (engagement.repo.ts). */
function applyPass(rows: readonly EngagementPassRow[], at: (day: string) => DayFigures): void {
  for (const r of rows) {
    if (r.day !== null) {
      const d = at(r.day);
      d.dau += r.active;
      d.wau_move += r.rows;
      d.mau_move += r.rows;
    } else if (r.wau_end !== null) at(r.wau_end).wau_move -= r.rows;
    else if (r.mau_end !== null) at(r.mau_end).mau_move -= r.rows;
  }
}

/**
 * The figures computed from the rollups: moves for every day from `readFrom` to the range's end,
 * sessions and revenue for the range's days; sorted by day, days with nothing left out. The
 * segment and platform of `ctx` apply.
 */
export async function liveDays(ctx: ViewContext, readFrom: string): Promise<DayFigures[]> {
  // One after the other: in the rollup job `ctx.db` is a transaction, one connection.
  const pass = await engagementPass(ctx, readFrom);
  const histograms = await sessionHistograms(ctx);
  const revenue = await revenueByDay(ctx);
  const days = new Map<string, DayFigures>();
  const at = (day: string) => {
    let d = days.get(day);
    if (!d) {
      d = empty(day);
      days.set(day, d);
    }
    return d;
  };
  applyPass(pass, at);
  for (const h of histograms) {
    const d = at(h.day);
    if (h.kind === 'length') {
      d.sessions += h.n;
      d.sessions_from_end += h.from_end;
      d.length_sum += h.sum;
      d.lengths.values.push(h.value);
      d.lengths.counts.push(h.n);
    } else {
      d.playtime_days += h.n;
      d.playtime_sum += h.sum;
      d.playtimes.values.push(h.value);
      d.playtimes.counts.push(h.n);
    }
  }
  for (const r of revenue) at(r.day).revenue_usd += r.revenue_usd;
  const out = [...days.values()].filter((d) => d.day <= ctx.range.to && !isEmptyDay(d));
  for (const d of out) {
    sortHistogram(d.lengths);
    sortHistogram(d.playtimes);
  }
  return out.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
}

function sortHistogram(h: Histogram): void {
  const order = h.values.map((_, i) => i).sort((a, b) => h.values[a]! - h.values[b]!);
  h.values = order.map((i) => h.values[i]!);
  h.counts = order.map((i) => h.counts[i]!);
}

function fromStored(r: StoredDayRow): DayFigures {
  return {
    day: r.day,
    dau: r.dau,
    wau_move: r.wau_move,
    mau_move: r.mau_move,
    revenue_usd: Number(r.revenue_usd),
    sessions: r.sessions,
    sessions_from_end: r.sessions_from_end,
    length_sum: Number(r.length_sum),
    lengths: { values: (r.length_values ?? []).map(Number), counts: r.length_counts ?? [] },
    playtime_days: r.playtime_days,
    playtime_sum: Number(r.playtime_sum),
    playtimes: { values: (r.playtime_values ?? []).map(Number), counts: r.playtime_counts ?? [] },
  };
}

/** Stored figures answer every request except a segment's (players are not stored per day) and one
 * the plan's history cut (its WAU and MAU must not see days before the limit). */
export function storedAnswers(ctx: ViewContext): boolean {
  return ctx.players === null && ctx.range.history_limited_from === null;
}

/** The day figures a request reads, and the first day its moves start from. */
export async function dayFigures(ctx: ViewContext): Promise<{ days: DayFigures[]; readFrom: string }> {
  if (storedAnswers(ctx)) {
    const days = (await storedDays(ctx)).map(fromStored);
    const first = days[0]?.day;
    return { days, readFrom: first !== undefined && first < ctx.range.from ? first : ctx.range.from };
  }
  const readFrom = readFromOf(ctx.range);
  return { days: await liveDays(ctx, readFrom), readFrom };
}

export interface DailyActives {
  date: string;
  dau: number;
  wau: number;
  mau: number;
}

/** One point per day of the range: DAU, and WAU and MAU as the running sums of their moves. */
export function dailyActives(days: readonly DayFigures[], range: DayRange, readFrom: string): DailyActives[] {
  const byDay = new Map(days.map((d) => [d.day, d]));
  const out: DailyActives[] = [];
  let wau = 0;
  let mau = 0;
  for (let d = readFrom; d <= range.to; d = addDays(d, 1)) {
    const f = byDay.get(d);
    wau += f?.wau_move ?? 0;
    mau += f?.mau_move ?? 0;
    if (d >= range.from) out.push({ date: d, dau: f?.dau ?? 0, wau, mau });
  }
  return out;
}

export interface SessionFigures {
  sessions: number;
  from_end: number;
  length_avg: number | null;
  length_p50: number | null;
  length_p90: number | null;
  playtime_avg: number | null;
  playtime_p50: number | null;
  playtime_p90: number | null;
}

/** Sessions started in the range: count, and the average (exact) and percentiles (of whole
 * seconds) of their lengths and of the playtime per player-day. */
export function sessionFigures(days: readonly DayFigures[], range: DayRange): SessionFigures {
  const inRange = days.filter((d) => d.day >= range.from && d.day <= range.to);
  const sum = (f: (d: DayFigures) => number) => inRange.reduce((s, d) => s + f(d), 0);
  const sessions = sum((d) => d.sessions);
  const playerDays = sum((d) => d.playtime_days);
  const lengths = merge(inRange.map((d) => d.lengths));
  const playtimes = merge(inRange.map((d) => d.playtimes));
  return {
    sessions,
    from_end: sum((d) => d.sessions_from_end),
    length_avg: sessions > 0 ? sum((d) => d.length_sum) / sessions : null,
    length_p50: percentile(lengths, 0.5),
    length_p90: percentile(lengths, 0.9),
    playtime_avg: playerDays > 0 ? sum((d) => d.playtime_sum) / playerDays : null,
    playtime_p50: percentile(playtimes, 0.5),
    playtime_p90: percentile(playtimes, 0.9),
  };
}

/** Several histograms as one. */
export function merge(histograms: readonly Histogram[]): Histogram {
  const counts = new Map<number, number>();
  for (const h of histograms)
    for (let i = 0; i < h.values.length; i += 1)
      counts.set(h.values[i]!, (counts.get(h.values[i]!) ?? 0) + h.counts[i]!);
  const values = [...counts.keys()].sort((a, b) => a - b);
  return { values, counts: values.map((v) => counts.get(v)!) };
}

/** The p-th percentile with linear interpolation between the two nearest ranks (PostgreSQL's
 * percentile_cont): position p × (N − 1) in the sorted values. Null without values. */
export function percentile(h: Histogram, p: number): number | null {
  const total = h.counts.reduce((s, n) => s + n, 0);
  if (total === 0) return null;
  const pos = p * (total - 1);
  const lo = Math.floor(pos);
  const at = (rank: number) => {
    let seen = 0;
    for (let i = 0; i < h.values.length; i += 1) {
      seen += h.counts[i]!;
      if (rank < seen) return h.values[i]!;
    }
    return h.values[h.values.length - 1]!;
  };
  const a = at(lo);
  return pos === lo ? a : a + (pos - lo) * (at(lo + 1) - a);
}
