/**
 * Genre timing (spec/DECISIONS.md §4): the seasonal calendar windows ranked, per genre, by the
 * genre's CCU uplift in them. Learned from stored daily history once a year of it exists, from the
 * documented prior calendar (SEASONAL_WINDOWS) until then. Pure: history and `now` are passed in.
 */
import type { Static } from 'typebox';
import { SEASONAL_WINDOWS, type SeasonalWindow } from '../platform/index.js';
import type {
  GenreTiming as GenreTimingSchema,
  TimingWindow as TimingWindowSchema,
} from './market.schemas.js';

export interface GenreDay {
  day: string /* YYYY-MM-DD */;
  ccu: number /* genre mean CCU that day */;
}
export type TimingWindow = Static<typeof TimingWindowSchema>;
export type GenreTiming = Static<typeof GenreTimingSchema>;

const DAY_MS = 86_400_000;
/** History needed before the learned uplift replaces the prior. */
export const LEARN_AFTER_DAYS = 365;
/** The least mean CCU a window's baseline may have to count. */
const MIN_BASELINE_CCU = 1;
/** Days either side of a window occurrence that form its baseline. */
const BASELINE_DAYS = 30;
/** The calendar fades windows in and out over 3 days; those days belong to no baseline. */
const EDGE_DAYS = 3;

export const TIMING_METHOD = [
  'Windows: the seasonal calendar (winter holidays, spring break, summer break, back to school,',
  'Halloween). period = the next occurrence from now (a window in force counts as next), "start – end",',
  'both days inclusive, UTC. Uplift per genre: with at least 365 days of stored daily genre CCU, the',
  'learned uplift = mean over the window’s past occurrences (weighted by observed days) of mean CCU on',
  'the window’s days / mean CCU on the days within 30 days before and after it that are at least 3 days',
  'clear of every window; a local baseline on both sides cancels the genre’s own trend (an occurrence',
  'whose baseline averages under 1 CCU is not used). Before that, or for a window with no usable',
  'occurrence yet, the prior calendar: window uplift × the genre’s extra',
  'factor. score = 50 + 50·tanh(4·ln(uplift)), 1 decimal: 50 means no change, +15% ≈ 75, +40% ≈ 94,',
  '−20% ≈ 14. best_windows: uplift above 1, best first; avoid: labels of windows with uplift below 1,',
  'worst first (uplift compared at 4 decimals).',
].join(' ');

/** Day index (days since 1970-01-01 UTC) of a calendar date. */
const dayOf = (year: number, month: number, day: number): number => Date.UTC(year, month - 1, day) / DAY_MS;
const isoDay = (d: number): string => new Date(d * DAY_MS).toISOString().slice(0, 10);
const signedPct = (x: number): string => `${x < 0 ? '-' : '+'}${Math.abs(x * 100).toFixed(1)}%`;
const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;

/** First and last day (inclusive) of `w`'s occurrence that starts in `year`. */
function occurrence(w: SeasonalWindow, year: number): [number, number] {
  const endYear = w.end.month < w.start.month ? year + 1 : year;
  return [dayOf(year, w.start.month, w.start.day), dayOf(endYear, w.end.month, w.end.day)];
}

/** The occurrence in force at `now`, else the next one to start. */
export function nextOccurrence(w: SeasonalWindow, now: Date): [number, number] {
  const year = now.getUTCFullYear();
  for (const y of [year - 1, year, year + 1]) {
    const [start, end] = occurrence(w, y);
    if ((end + 1) * DAY_MS > now.getTime()) return [start, end];
  }
  throw new Error('unreachable: every window recurs within a year');
}

export function genreTiming(
  history: ReadonlyMap<string, readonly GenreDay[]>,
  genres: readonly { key: string; name: string }[],
  now: Date,
): { recommendations: GenreTiming[] } {
  return { recommendations: genres.map((g) => timingFor(g.key, g.name, history.get(g.key) ?? [], now)) };
}

interface Assessed {
  window: TimingWindow;
  uplift: number;
  start: number;
}

function timingFor(key: string, name: string, days: readonly GenreDay[], now: Date): GenreTiming {
  const learned = learnedSeries(days);
  const assessed = SEASONAL_WINDOWS.map((w): Assessed => {
    const [start, end] = nextOccurrence(w, now);
    const fromHistory = learned ? learnedUplift(w, learned.series) : null;
    const uplift = fromHistory?.uplift ?? priorUplift(w, key);
    const reason =
      fromHistory && learned
        ? `Learned from ${learned.months} months of history: ${signedPct(uplift - 1)} against the genre's baseline (mean CCU in the window vs the 30 days either side, ${fromHistory.seasons} season${fromHistory.seasons === 1 ? '' : 's'} observed).`
        : priorReason(w, key, name, learned !== null);
    const score = Math.round((50 + 50 * Math.tanh(4 * Math.log(uplift))) * 10) / 10;
    return {
      window: { period: `${isoDay(start)} – ${isoDay(end)}`, event: w.event, score, reason },
      uplift,
      start,
    };
  });
  const best = assessed
    .filter((a) => round4(a.uplift) > 1)
    .sort((a, b) => b.uplift - a.uplift || a.start - b.start);
  const avoid = assessed
    .filter((a) => round4(a.uplift) < 1)
    .sort((a, b) => a.uplift - b.uplift || a.start - b.start);
  return {
    theme: name,
    genre: key,
    best_windows: best.map((a) => a.window),
    avoid: avoid.map((a) => a.window.period),
  };
}

const priorUplift = (w: SeasonalWindow, genre: string): number => w.uplift * (w.genreUplift[genre] ?? 1);

function priorReason(w: SeasonalWindow, genre: string, name: string, hasYear: boolean): string {
  const extra = w.genreUplift[genre];
  const platform = `during ${w.event} platform CCU moves ${signedPct(w.uplift - 1)}`;
  const why = extra === undefined ? platform : `${platform} and ${name} a further ${signedPct(extra - 1)}`;
  const until = hasYear
    ? 'The stored history has no usable season of this window yet.'
    : 'Learned figures replace this once a year of history is stored.';
  return `Prior calendar: ${why}; expected ${signedPct(priorUplift(w, genre) - 1)} CCU. ${until}`;
}

/** Daily CCU by day index when the history spans at least a year, else null (use the prior). */
function learnedSeries(days: readonly GenreDay[]): { series: Map<number, number>; months: number } | null {
  const sums = new Map<number, [number, number]>();
  for (const d of days) {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(d.day);
    if (!m || !Number.isFinite(d.ccu) || d.ccu < 0) continue; // unreadable rows teach nothing
    const day = dayOf(Number(m[1]), Number(m[2]), Number(m[3]));
    const s = sums.get(day) ?? [0, 0];
    sums.set(day, [s[0] + d.ccu, s[1] + 1]);
  }
  if (sums.size === 0) return null;
  const keys = [...sums.keys()];
  const span = Math.max(...keys) - Math.min(...keys) + 1;
  if (span < LEARN_AFTER_DAYS) return null;
  const series = new Map([...sums].map(([day, [sum, n]]) => [day, sum / n]));
  return { series, months: Math.round(span / 30.4375) };
}

/** True when `day` is at least EDGE_DAYS clear of every window occurrence. */
function isClear(day: number): boolean {
  const year = new Date(day * DAY_MS).getUTCFullYear();
  return SEASONAL_WINDOWS.every((w) =>
    [year - 1, year].every((y) => {
      const [start, end] = occurrence(w, y);
      return day < start - EDGE_DAYS || day > end + EDGE_DAYS;
    }),
  );
}

/**
 * Mean over the window's past occurrences (weighted by observed window days) of
 * mean CCU inside the window / mean CCU on the clear days within 30 days either side; null when no
 * occurrence has both.
 */
function learnedUplift(
  w: SeasonalWindow,
  series: ReadonlyMap<number, number>,
): { uplift: number; seasons: number } | null {
  const keys = [...series.keys()];
  const firstYear = new Date(Math.min(...keys) * DAY_MS).getUTCFullYear();
  const lastYear = new Date(Math.max(...keys) * DAY_MS).getUTCFullYear();
  let weighted = 0;
  let weight = 0;
  let seasons = 0;
  for (let y = firstYear - 1; y <= lastYear; y++) {
    const [start, end] = occurrence(w, y);
    const inside = valuesIn(series, start, end, () => true);
    const clear = [
      ...valuesIn(series, start - BASELINE_DAYS, start - 1, isClear),
      ...valuesIn(series, end + 1, end + BASELINE_DAYS, isClear),
    ];
    const base = mean(clear);
    // A baseline under one player on average says nothing about the window (and near 0 the ratio
    // grows without bound).
    if (inside.length === 0 || base === null || base < MIN_BASELINE_CCU) continue;
    weighted += (mean(inside)! / base) * inside.length;
    weight += inside.length;
    seasons++;
  }
  return weight > 0 ? { uplift: weighted / weight, seasons } : null;
}

function valuesIn(
  series: ReadonlyMap<number, number>,
  from: number,
  to: number,
  keep: (day: number) => boolean,
): number[] {
  const out: number[] = [];
  for (let d = from; d <= to; d++) {
    const v = series.get(d);
    if (v !== undefined && keep(d)) out.push(v);
  }
  return out;
}

const mean = (xs: readonly number[]): number | null =>
  xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length;
