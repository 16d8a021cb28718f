/**
 * Pure mappings from the SDK analytics responses to what the SDK pages draw and send (chart series,
 * labels, request bodies), tested in sdk-data.test.ts without a DOM.
 */
import { type Condition, type ConditionDraft, toConditions } from './conditions';

/** A region name for an ISO 3166-1 alpha-2 code ("BR" → "Brazil"); null → "Unknown". */
export function countryName(code: string | null | undefined): string {
  if (!code) return 'Unknown';
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/** "0–10", "50–60", "60+" for the performance view's fps buckets. */
export function fpsBucketLabel(from: number, to: number | null): string {
  return to == null ? `${from}+` : `${from}–${to}`;
}

export interface FunnelStepLike {
  label: string;
  players: number;
  conversion_from_first: number | null;
  conversion_from_previous: number | null;
}

/**
 * The funnel chart: one bar per step (players), labelled with the conversion from the previous
 * step ("100%" on the first, "–" after an empty step).
 */
export function funnelBars(steps: FunnelStepLike[]): {
  labels: string[];
  players: number[];
  notes: string[];
} {
  return {
    labels: steps.map((s, i) => `${i + 1}. ${s.label}`),
    players: steps.map((s) => s.players),
    notes: steps.map((s, i) => {
      if (i === 0) return s.players > 0 ? '100%' : '–';
      const c = s.conversion_from_previous;
      return c == null ? '–' : `${(c * 100).toFixed(1)}%`;
    }),
  };
}

export type Severity = 'fatal' | 'error' | 'warn';
export const SEVERITIES: Severity[] = ['fatal', 'error', 'warn'];

/**
 * Errors per day (or week) per severity, summed over the listed groups' series: the dates of the
 * first group, then any later ones, in order.
 */
export function errorsBySeverity(
  groups: { severity: Severity; series: { date: string; errors: number }[] }[],
): { dates: string[]; series: { severity: Severity; values: number[] }[] } {
  const dates = [...new Set(groups.flatMap((g) => g.series.map((p) => p.date)))].sort();
  const index = new Map(dates.map((d, i) => [d, i]));
  const totals = new Map<Severity, number[]>(SEVERITIES.map((s) => [s, dates.map(() => 0)]));
  for (const g of groups) {
    const row = totals.get(g.severity);
    if (!row) continue;
    for (const p of g.series) {
      const i = index.get(p.date);
      if (i != null) row[i] = (row[i] ?? 0) + p.errors;
    }
  }
  return { dates, series: SEVERITIES.map((severity) => ({ severity, values: totals.get(severity) ?? [] })) };
}

/** The share funnel of the brand view as bars: zone reach → equipped → shared. */
export function shareFunnelStages(f: {
  zone_reach: { players: number };
  equipped: { players: number; conversion: number | null };
  shared: { players: number; conversion: number | null };
}): { stage: string; players: number; conversion: number | null }[] {
  return [
    { stage: 'Entered a brand zone', players: f.zone_reach.players, conversion: null },
    { stage: 'Equipped an item', players: f.equipped.players, conversion: f.equipped.conversion },
    { stage: 'Shared', players: f.shared.players, conversion: f.shared.conversion },
  ];
}

/** Levels ascending as [label, value] for the outcome chart, shares as percentages (one decimal). */
export function levelOutcomeSeries(
  levels: { level: number; win_rate: number; loss_rate: number; quit_rate: number; complete_rate: number }[],
): { labels: string[]; win: number[]; loss: number[]; quit: number[]; complete: number[] } {
  const pct = (v: number) => Math.round(v * 1000) / 10;
  return {
    labels: levels.map((l) => `Level ${l.level}`),
    win: levels.map((l) => pct(l.win_rate)),
    loss: levels.map((l) => pct(l.loss_rate)),
    quit: levels.map((l) => pct(l.quit_rate)),
    complete: levels.map((l) => pct(l.complete_rate)),
  };
}

/** The first line of a stack trace that says something (for a crash group's title). */
export function traceTitle(trace: string, frames: string[]): string {
  const first = trace.split('\n').find((l) => l.trim() !== '');
  return (first ?? frames[0] ?? '').trim().slice(0, 140);
}

export type Metric = 'd1_retention' | 'd7_retention' | 'conversion' | 'revenue_per_player' | 'custom';
export const METRICS: { value: Metric; label: string }[] = [
  { value: 'd1_retention', label: 'Day-1 retention' },
  { value: 'd7_retention', label: 'Day-7 retention' },
  { value: 'conversion', label: 'Conversion (any purchase)' },
  { value: 'revenue_per_player', label: 'Revenue per player (USD)' },
  { value: 'custom', label: 'Custom event reached' },
];

export function metricLabel(m: { metric: Metric; event_name?: string | null }): string {
  const base = METRICS.find((x) => x.value === m.metric)?.label ?? m.metric;
  return m.metric === 'custom' && m.event_name ? `Reached “${m.event_name}”` : base;
}

/** A metric's value for people: a share as a percentage, revenue as dollars with cents. */
export function metricValue(value: number | null, unit: 'share_of_players' | 'usd_per_player'): string {
  if (value == null || !Number.isFinite(value)) return '–';
  if (unit === 'usd_per_player') return `$${value.toFixed(value !== 0 && Math.abs(value) < 0.1 ? 4 : 2)}`;
  return `${(value * 100).toFixed(1)}%`;
}

/** A difference to the control: percentage points for shares, signed dollars for revenue. */
export function metricDifference(value: number | null, unit: 'share_of_players' | 'usd_per_player'): string {
  if (value == null || !Number.isFinite(value)) return '–';
  const sign = value > 0 ? '+' : value < 0 ? '−' : '±';
  const abs = Math.abs(value);
  if (unit === 'usd_per_player') return `${sign}$${abs.toFixed(abs !== 0 && abs < 0.1 ? 4 : 2)}`;
  return `${sign}${(abs * 100).toFixed(1)} pts`;
}

/** A p-value as people read it: "< 0.001", "0.074". */
export function formatP(p: number | null): string {
  if (p == null || !Number.isFinite(p)) return '–';
  if (p < 0.001) return '< 0.001';
  return p < 0.01 ? p.toFixed(4) : p.toFixed(3);
}

/** Seconds as "12.5 s", "3m 20s", "1h 05m" (dwell, session length, time between funnel steps). */
export function formatSeconds(s: number | null | undefined): string {
  if (s == null || !Number.isFinite(s)) return '–';
  if (s < 60) return `${s < 10 ? s.toFixed(1) : Math.round(s)} s`;
  const total = Math.round(s);
  const m = Math.floor(total / 60);
  if (m < 60) return `${m}m ${String(total % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ${String(m % 60).padStart(2, '0')}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

/** A short one-line view of an event's payload for the live tail. */
export function payloadSummary(payload: Record<string, unknown>, max = 90): string {
  const parts = Object.entries(payload).map(([k, v]) => {
    const text = typeof v === 'string' ? v.split('\n')[0] : JSON.stringify(v);
    return `${k}=${text}`;
  });
  const line = parts.join(' · ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export interface FunnelStepDraft {
  kind: 'level' | 'custom';
  value: string;
  where: ConditionDraft[];
}

export interface FunnelBody {
  steps: { level?: number; custom?: string; where?: Condition[] }[];
  window_hours: number;
}

/** The funnel request from the builder, or the first reason it cannot be sent. */
export function funnelBody(
  drafts: FunnelStepDraft[],
  windowHours: string,
): { body: FunnelBody } | { error: string } {
  if (drafts.length < 2 || drafts.length > 10) return { error: 'A funnel has 2 to 10 steps.' };
  const hours = Number(windowHours);
  if (!Number.isInteger(hours) || hours < 1 || hours > 720) {
    return { error: 'The window is a whole number of hours from 1 to 720.' };
  }
  const steps: FunnelBody['steps'] = [];
  for (const [i, d] of drafts.entries()) {
    const raw = d.value.trim();
    let step: FunnelBody['steps'][number];
    if (d.kind === 'level') {
      if (!/^\d+$/.test(raw)) return { error: `Step ${i + 1}: a level is a whole number (0 or more).` };
      step = { level: Number(raw) };
    } else {
      if (raw === '' || raw.length > 128)
        return { error: `Step ${i + 1}: name the custom event (1 to 128 characters).` };
      step = { custom: raw };
    }
    if (d.where.length > 0) {
      const where = toConditions(d.where);
      if ('error' in where) return { error: `Step ${i + 1}: ${where.error}` };
      step.where = where.conditions;
    }
    steps.push(step);
  }
  return { body: { steps, window_hours: hours } };
}

/** `list` with the item at `from` moved to `to` (clamped); the same list when either is outside. */
export function move<T>(list: T[], from: number, to: number): T[] {
  if (from < 0 || from >= list.length || to < 0 || to >= list.length || from === to) return list;
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}

export interface MetricDraft {
  metric: Metric;
  event_name: string;
}

export interface ExperimentDraft {
  key: string;
  variants: { key: string; weight: string }[];
  primary: MetricDraft;
  secondary: MetricDraft[];
  mde: string;
  baseline: string;
  startDay: string;
}

export interface ExperimentBody {
  game_id: string;
  key: string;
  variants: { key: string; weight: number }[];
  primary_metric: { metric: Metric; event_name?: string };
  secondary_metrics: { metric: Metric; event_name?: string }[];
  minimum_detectable_effect?: number;
  baseline?: number;
  start_day?: string;
}

function metricBody(m: MetricDraft, where: string): { metric: Metric; event_name?: string } | string {
  if (m.metric !== 'custom') return { metric: m.metric };
  const name = m.event_name.trim();
  if (!name) return `${where}: name the custom event.`;
  return { metric: 'custom', event_name: name };
}

/** The experiment request from the form, or the first reason it cannot be sent. */
export function experimentBody(
  gameId: string,
  d: ExperimentDraft,
): { body: ExperimentBody } | { error: string } {
  const key = d.key.trim();
  if (!key) return { error: 'Give the experiment a key (exposure events name it).' };
  if (d.variants.length < 2 || d.variants.length > 5) return { error: 'An experiment has 2 to 5 variants.' };
  const variants: ExperimentBody['variants'] = [];
  for (const [i, v] of d.variants.entries()) {
    const vk = v.key.trim();
    const w = Number(v.weight);
    if (!vk) return { error: `Variant ${i + 1}: give it a key.` };
    if (!Number.isInteger(w) || w < 1)
      return { error: `Variant ${i + 1}: the weight is a whole number of 1 or more.` };
    if (variants.some((x) => x.key === vk)) return { error: `Variant ${i + 1}: “${vk}” is used twice.` };
    variants.push({ key: vk, weight: w });
  }
  const primary = metricBody(d.primary, 'Primary metric');
  if (typeof primary === 'string') return { error: primary };
  const secondary: ExperimentBody['secondary_metrics'] = [];
  for (const [i, m] of d.secondary.entries()) {
    const b = metricBody(m, `Secondary metric ${i + 1}`);
    if (typeof b === 'string') return { error: b };
    secondary.push(b);
  }
  const body: ExperimentBody = {
    game_id: gameId,
    key,
    variants,
    primary_metric: primary,
    secondary_metrics: secondary,
  };
  for (const [field, raw, label] of [
    ['minimum_detectable_effect', d.mde, 'The minimum detectable effect'],
    ['baseline', d.baseline, 'The baseline'],
  ] as const) {
    if (raw.trim() === '') continue;
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0) return { error: `${label} is a positive number.` };
    body[field] = n;
  }
  if (d.startDay) body.start_day = d.startDay;
  return { body };
}

/**
 * A daily series over every day from `from` to `to` (UTC, both included): the points as given,
 * `fill` on the days the API left out (the overview lists only days with actives). Weekly series
 * pass through unchanged.
 */
export function fillDays<T extends { date: string }>(
  points: T[],
  from: string,
  to: string,
  granularity: 'day' | 'week',
  fill: (date: string) => T,
): T[] {
  if (granularity === 'week') return points;
  const byDate = new Map(points.map((p) => [p.date, p]));
  const out: T[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= end; t += 86_400_000) {
    const date = new Date(t).toISOString().slice(0, 10);
    out.push(byDate.get(date) ?? fill(date));
  }
  return out;
}

/** A UTC day with its year: "Nov 25, 2025". */
export function formatDayYear(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return day;
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(d);
}

/** "Nov 1 – Nov 24", with the years when the range crosses one or is not in `now`'s year. */
export function formatRange(from: string, to: string, now: Date = new Date()): string {
  const year = String(now.getUTCFullYear());
  const label = (day: string, withYear: boolean) => {
    const d = new Date(`${day}T00:00:00Z`);
    if (Number.isNaN(d.getTime())) return day;
    return new Intl.DateTimeFormat('en-US', {
      month: 'short',
      day: 'numeric',
      ...(withYear ? { year: 'numeric' } : {}),
      timeZone: 'UTC',
    }).format(d);
  };
  const years = from.slice(0, 4) !== to.slice(0, 4) || to.slice(0, 4) !== year;
  return `${label(from, years)} – ${label(to, years)}`;
}
