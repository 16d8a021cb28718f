/**
 * Row ingestion into per-day aggregates: each KPI keeps, per day, a running sum and count for the
 * experience's own rows ("Total" or un-broken-down rows), for segment rows (a breakdown applied) and for
 * the export's first "Benchmark (…)" series. Nothing per row is kept, so a million rows cost a few
 * hundred day entries (plus the distinct buyers of a sales export, which ARPPU needs).
 */

import type { KpiDef, Layout } from './detect.js';
import type { Delimiter } from './parse.js';

interface Acc {
  s: number;
  n: number;
}
type DayMap = Map<number, Acc>;

export interface KpiSeries {
  def: KpiDef;
  total: DayMap;
  segment: DayMap;
  bench: DayMap;
}

export interface FunnelStep {
  name: string;
  order: number;
  users: number;
}

export interface Aggregate {
  layout: Layout;
  rows: number;
  days: Set<number>;
  series: Map<string, KpiSeries>;
  benchLabel: string | null;
  buyers: Set<string>;
  sales: DayMap;
  steps: Map<string, FunnelStep>;
}

export function newAggregate(layout: Layout): Aggregate {
  const series = new Map<string, KpiSeries>();
  for (const c of layout.kpis)
    series.set(c.kpi.id, { def: c.kpi, total: new Map(), segment: new Map(), bench: new Map() });
  return {
    layout,
    rows: 0,
    days: new Set(),
    series,
    benchLabel: null,
    buyers: new Set(),
    sales: new Map(),
    steps: new Map(),
  };
}

function add(map: DayMap, day: number, value: number): void {
  const acc = map.get(day);
  if (acc) {
    acc.s += value;
    acc.n += 1;
  } else map.set(day, { s: value, n: 1 });
}

const ISO = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:$|[T\s])/;
const DMY = /^(\d{1,2})([./])(\d{1,2})[./](\d{4})(?:$|[T\s])/;

/** Days since 1970-01-01 (UTC), or NaN. ISO first (Creator Hub); "d.m.yyyy"; "m/d/yyyy" unless the first part > 12. */
export function parseDay(cell: string): number {
  let y: number;
  let m: number;
  let d: number;
  const iso = ISO.exec(cell);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else {
    const dmy = DMY.exec(cell);
    if (!dmy) return Number.NaN;
    const a = Number(dmy[1]);
    const b = Number(dmy[3]);
    const dayFirst = dmy[2] === '.' || a > 12;
    [y, m, d] = [Number(dmy[4]), dayFirst ? b : a, dayFirst ? a : b];
  }
  if (m < 1 || m > 12 || d < 1 || d > 31) return Number.NaN;
  const ms = Date.UTC(y, m - 1, d);
  // Date.UTC rolls 31 April into 1 May; a round trip catches impossible dates.
  if (new Date(ms).getUTCDate() !== d) return Number.NaN;
  return ms / 86_400_000;
}

export function dayToIso(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

const THOUSANDS_COMMA = /^-?\d{1,3}(,\d{3})+(\.\d+)?$/;
const THOUSANDS_DOT = /^-?\d{1,3}(\.\d{3})+(,\d+)?$/;
const PLAIN = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

/** A numeric cell, or null. Semicolon files may use decimal commas; "35%" reads as 0.35. */
export function parseNumber(raw: string, delimiter: Delimiter): number | null {
  let s = raw.trim();
  if (s === '') return null;
  let scale = 1;
  if (s.endsWith('%')) {
    scale = 0.01;
    s = s.slice(0, -1).trim();
  }
  if (!PLAIN.test(s)) {
    if (delimiter === ';' && THOUSANDS_DOT.test(s)) s = s.replace(/\./g, '').replace(',', '.');
    else if (delimiter === ';' && /^-?\d*,\d+$/.test(s)) s = s.replace(',', '.');
    else if (THOUSANDS_COMMA.test(s)) s = s.replace(/,/g, '');
    else return null;
  }
  const x = Number(s) * scale;
  return Number.isFinite(x) ? x : null;
}

/** Feeds one data record (a row without a valid date or number still counts as read, for coverage). */
export function addRow(agg: Aggregate, row: readonly string[], delimiter: Delimiter): void {
  agg.rows += 1;
  const { layout } = agg;
  if (layout.kind === 'funnel') {
    addFunnelRow(agg, row, delimiter);
    return;
  }
  const day = parseDay(row[layout.date] ?? '');
  if (Number.isNaN(day)) return;
  if (layout.kind === 'sales') {
    addSaleRow(agg, row, delimiter, day);
    return;
  }
  const role = breakdownRole(agg, layout.breakdown >= 0 ? (row[layout.breakdown] ?? '') : '');
  if (role === 'skip') return;
  for (const c of layout.kpis) {
    const x = parseNumber(row[c.index] ?? '', delimiter);
    if (x === null) continue;
    const series = agg.series.get(c.kpi.id)!;
    add(series[role], day, x);
    if (role !== 'bench') agg.days.add(day);
  }
}

function breakdownRole(agg: Aggregate, cell: string): 'total' | 'segment' | 'bench' | 'skip' {
  if (agg.layout.breakdown < 0) return 'segment';
  const v = cell.trim();
  const lower = v.toLowerCase();
  if (lower === 'total' || lower === 'all' || lower === 'overall') return 'total';
  if (!lower.startsWith('benchmark')) return 'segment';
  // One benchmark series per file: a second tier (P50 and P90, say) would otherwise be averaged into mush.
  agg.benchLabel ??= v;
  return agg.benchLabel === v ? 'bench' : 'skip';
}

function addSaleRow(agg: Aggregate, row: readonly string[], delimiter: Delimiter, day: number): void {
  const { layout } = agg;
  const hold = layout.hold >= 0 ? (row[layout.hold] ?? '').trim().toLowerCase() : '';
  // A cancelled sale never pays out (Creator Hub "Hold Status"), so it is not revenue.
  if (hold === 'cancelled' || hold === 'canceled') return;
  let any = false;
  for (const c of layout.kpis) {
    const x = parseNumber(row[c.index] ?? '', delimiter);
    if (x === null) continue;
    add(agg.series.get(c.kpi.id)!.segment, day, x);
    any = true;
  }
  if (!any) return;
  add(agg.sales, day, 1);
  agg.days.add(day);
  const buyer = layout.buyer >= 0 ? (row[layout.buyer] ?? '').trim() : '';
  if (buyer !== '') agg.buyers.add(buyer);
}

function addFunnelRow(agg: Aggregate, row: readonly string[], delimiter: Delimiter): void {
  const { layout } = agg;
  const name = (row[layout.step] ?? '').trim();
  const users = parseNumber(row[layout.stepCount] ?? '', delimiter);
  if (name === '' || users === null) return;
  if (layout.date >= 0) {
    const day = parseDay(row[layout.date] ?? '');
    if (!Number.isNaN(day)) agg.days.add(day);
  }
  const explicit = layout.stepOrder >= 0 ? parseNumber(row[layout.stepOrder] ?? '', delimiter) : null;
  const step = agg.steps.get(name);
  if (step) step.users += users;
  else agg.steps.set(name, { name, order: explicit ?? agg.steps.size, users });
}

/** A KPI's daily values (own rows, else segments summed/averaged), ascending by day; rates as fractions. */
export function dailyValues(
  series: KpiSeries | undefined,
  which: 'own' | 'bench' = 'own',
): [number, number][] {
  if (!series) return [];
  const map = which === 'bench' ? series.bench : series.total.size > 0 ? series.total : series.segment;
  const out: [number, number][] = [];
  for (const [day, acc] of map) out.push([day, series.def.combine === 'sum' ? acc.s : acc.s / acc.n]);
  out.sort((a, b) => a[0] - b[0]);
  // Rates written as percentages (35 for 35%) are read as fractions, decided per series.
  if (series.def.rate && out.some(([, v]) => v > 1.5)) for (const p of out) p[1] /= 100;
  return out;
}
