/**
 * Dev Lens statistical core: CSV in (streamed), Analysis out. Pure: no database, network or clock —
 * every date comes from the file. Bad input only ever raises 422 AppErrors (unsupported_file,
 * empty_file, invalid_csv) or validation_failed for an unknown genre.
 */
import { errors } from '../errors.js';
import { type Aggregate, addRow, dailyValues, dayToIso, newAggregate } from './aggregate.js';
import { BENCHMARK_SPECS, GENRE_BENCHMARKS, resolveGenre, safeCell, signedPercent } from './benchmarks.js';
import { detectLayout, KNOWN_LAYOUTS } from './detect.js';
import { computeMetrics, orderedSteps, primarySeries, ratioOfSums, worstStep } from './metrics.js';
import { type CsvInput, openCsv } from './parse.js';
import { fmtNumber, round4, seriesPatterns } from './patterns.js';
import type { Analysis, Pattern } from './types.js';

export { BENCHMARK_GENRES, BENCHMARK_KEYS, GENRE_BENCHMARKS, safeCell, signedPercent } from './benchmarks.js';
export { KNOWN_LAYOUTS } from './detect.js';
export { METRIC_KEYS } from './metrics.js';

/** Preamble lines (Creator Hub's "Experience ID") come before the header; more than this is not a known layout. */
const HEADER_SEARCH_ROWS = 10;
/** D7 below a quarter of D1: most players who liked day one are gone within the week (typical ≈ 0.3). */
export const CLIFF_RATIO = 0.25;

const KPI_LABELS: Readonly<Record<string, string>> = {
  d1: 'Day 1 retention',
  d7: 'Day 7 retention',
  d30: 'Day 30 retention',
  dau: 'Daily active users',
  mau: 'Monthly active users',
  sessions: 'Sessions',
  playtime_hours: 'Playtime',
  revenue: 'Daily revenue',
  price: 'Daily sales',
  paying_users: 'Paying users',
  plays: 'Plays',
  impressions: 'Impressions',
  clicks: 'Clicks',
};

export async function analyseCsv(input: CsvInput, options: { genre?: string }): Promise<Analysis> {
  const genre = resolveGenre(options.genre);
  const agg = await readAggregate(input);
  const metrics = computeMetrics(agg);
  const { benchmarks, fromFile } = benchmarkLabels(agg, metrics, genre);
  return {
    file_type: agg.layout.fileType,
    metrics,
    benchmarks,
    benchmark_source: { genre, from_file: fromFile },
    patterns: findPatterns(agg, metrics),
    coverage: coverage(agg),
  };
}

async function readAggregate(input: CsvInput): Promise<Aggregate> {
  const { delimiter, records } = await openCsv(input);
  let agg: Aggregate | null = null;
  const before: string[][] = [];
  for await (const record of records) {
    if (record.every((c) => c === '')) continue;
    if (agg) {
      addRow(agg, record, delimiter);
      continue;
    }
    const layout = detectLayout(record);
    if (layout) agg = newAggregate(layout);
    else if (before.push(record) > HEADER_SEARCH_ROWS) throw unsupported(before);
  }
  if (!agg)
    throw before.length === 0
      ? errors.unprocessable('empty_file', 'The file is empty.')
      : unsupported(before);
  if (agg.rows === 0) throw errors.unprocessable('empty_file', 'The file has a header but no data rows.');
  if (agg.days.size === 0 && agg.steps.size === 0) {
    throw errors.unprocessable('empty_file', 'No data row carries both a valid date and a number.');
  }
  return agg;
}

/** Names the known layouts and the widest row seen (the likely header), escaped and trimmed. */
function unsupported(rows: readonly string[][]) {
  const widest = rows.reduce((a, b) => (b.length > a.length ? b : a), [] as string[]);
  const seen = widest
    .slice(0, 12)
    .map((c) => `"${safeCell(c.length > 40 ? `${c.slice(0, 40)}…` : c)}"`)
    .join(', ');
  const saw = seen === '' ? '' : ` Headers seen: ${seen}.`;
  return errors.unprocessable(
    'unsupported_file',
    `Unrecognised CSV layout.${saw} Known layouts: ${KNOWN_LAYOUTS.map((l, i) => `(${i + 1}) ${l}`).join('; ')}.`,
  );
}

function benchmarkLabels(agg: Aggregate, metrics: Analysis['metrics'], genre: string) {
  const benchmarks: Record<string, string> = {};
  let fromFile = false;
  const table = GENRE_BENCHMARKS[genre]!;
  for (const spec of BENCHMARK_SPECS[agg.layout.fileType]) {
    const value = metrics[spec.metric];
    if (value === null || value === undefined) continue;
    const series = spec.kpi ? agg.series.get(spec.kpi) : undefined;
    const own = dailyValues(series);
    const ratio = series && series.bench.size > 0 ? ratioOfSums(own, dailyValues(series, 'bench')) : null;
    const rel = ratio !== null ? ratio - 1 : value / table[spec.table]! - 1;
    // A ratio beyond a trillion percent (absurd input) has no honest label: leave the key out.
    if (!(Math.abs(rel) < 1e10)) continue;
    benchmarks[spec.key] = signedPercent(rel);
    if (ratio !== null) fromFile = true;
  }
  return { benchmarks, fromFile };
}

function findPatterns(agg: Aggregate, metrics: Analysis['metrics']): Pattern[] {
  const type = agg.layout.fileType;
  const out: Pattern[] = [];
  if (type === 'funnel') out.push(...funnelPatterns(agg));
  else {
    const { kpi, points } = primarySeries(agg, type);
    out.push(...seriesPatterns(points, KPI_LABELS[kpi] ?? 'The series'));
  }
  if (type === 'retention') out.push(...cliff(metrics));
  return out.sort((a, b) => b.weight - a.weight);
}

function cliff(metrics: Analysis['metrics']): Pattern[] {
  const d1 = metrics.d1_retention;
  const d7 = metrics.d7_retention;
  const ratio = metrics.d7_d1_ratio;
  if (d1 == null || d7 == null || ratio == null || ratio >= CLIFF_RATIO) return [];
  return [
    {
      kind: 'd1_d7_cliff',
      text: `Only ${(ratio * 100).toFixed(1)}% of day-1 retention survives to day 7 (D1 ${(d1 * 100).toFixed(1)}%, D7 ${(d7 * 100).toFixed(1)}%; below ${CLIFF_RATIO * 100}% is a cliff).`,
      weight: round4(Math.min(1, 0.4 + (CLIFF_RATIO - ratio) / CLIFF_RATIO)),
      figures: { d1_retention: d1, d7_retention: d7, ratio, threshold: CLIFF_RATIO },
    },
  ];
}

function funnelPatterns(agg: Aggregate): Pattern[] {
  const steps = orderedSteps(agg);
  const worst = worstStep(steps.map((s) => s.users));
  if (!worst) return [];
  const from = steps[worst.index - 1]!;
  const to = steps[worst.index]!;
  return [
    {
      kind: 'worst_funnel_step',
      text: `The biggest drop is from step ${worst.index} "${safeCell(from.name)}" to step ${worst.index + 1} "${safeCell(to.name)}": ${fmtNumber(from.users)} → ${fmtNumber(to.users)} players, ${(worst.conversion * 100).toFixed(1)}% continue.`,
      weight: round4(Math.min(1, Math.max(0, 1 - worst.conversion))),
      figures: {
        step_number: worst.index + 1,
        users_before: round4(from.users),
        users_after: round4(to.users),
        conversion: round4(worst.conversion),
        drop: round4(1 - worst.conversion),
      },
    },
  ];
}

function coverage(agg: Aggregate): Analysis['coverage'] {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const d of agg.days) {
    if (d < first) first = d;
    if (d > last) last = d;
  }
  const days = agg.days.size;
  return {
    rows: agg.rows,
    days,
    missing_days: days === 0 ? 0 : last - first + 1 - days,
    first_day: days === 0 ? null : dayToIso(first),
    last_day: days === 0 ? null : dayToIso(last),
  };
}
