/**
 * How a Dev Lens result reads (pure; tested in report.test.ts): each metric's label and unit, its
 * value formatted for people, the benchmark each label compares it with, and the report's charts as
 * ECharts options. Rates and trends arrive as fractions, money in Robux, times in minutes.
 */
import { benchmarkBars, parseSignedPercent } from '../../lib/chart-data';
import { formatCompact, formatDuration, formatInteger, formatPercent } from '../../lib/format';

export type Unit = 'rate' | 'trend' | 'count' | 'decimal' | 'minutes' | 'robux' | 'step';

/** Every metric key the API documents (METRIC_KEYS), in the order the API lists them. */
export const METRIC_INFO: Readonly<Record<string, readonly [label: string, unit: Unit]>> = {
  d1_retention: ['Day 1 retention', 'rate'],
  d7_retention: ['Day 7 retention', 'rate'],
  d30_retention: ['Day 30 retention', 'rate'],
  d7_d1_ratio: ['D7 kept of D1', 'rate'],
  d1_trend_pct_per_week: ['D1 retention trend', 'trend'],
  dau_avg: ['Average DAU', 'count'],
  mau_avg: ['Average MAU', 'count'],
  stickiness: ['Stickiness (DAU/MAU)', 'rate'],
  session_length_minutes: ['Average session', 'minutes'],
  playtime_minutes_per_dau: ['Playtime per DAU', 'minutes'],
  sessions_per_dau: ['Sessions per DAU', 'decimal'],
  dau_trend_pct_per_week: ['DAU trend', 'trend'],
  revenue_total: ['Total revenue', 'robux'],
  revenue_per_day: ['Revenue per day', 'robux'],
  paying_users: ['Paying users', 'count'],
  arppu: ['ARPPU', 'robux'],
  arpdau: ['ARPDAU', 'robux'],
  conversion: ['Conversion', 'rate'],
  purchases: ['Purchases', 'count'],
  revenue_trend_pct_per_week: ['Revenue trend', 'trend'],
  impressions: ['Impressions', 'count'],
  clicks: ['Clicks', 'count'],
  plays: ['Plays', 'count'],
  click_rate: ['Impression → click', 'rate'],
  play_rate: ['Click → play', 'rate'],
  plays_trend_pct_per_week: ['Plays trend', 'trend'],
  steps: ['Funnel steps', 'count'],
  first_step_users: ['Players at the first step', 'count'],
  last_step_users: ['Players at the last step', 'count'],
  overall_conversion: ['First → last step', 'rate'],
  worst_step_conversion: ['Worst step keeps', 'rate'],
  worst_step_number: ['Worst step', 'step'],
};

/** What each benchmark label compares: the metric it is computed from (BENCHMARK_SPECS). */
export const BENCHMARK_METRIC: Readonly<Record<string, string>> = {
  d1_vs_genre: 'd1_retention',
  d7_vs_genre: 'd7_retention',
  d30_vs_genre: 'd30_retention',
  dau_vs_genre: 'dau_avg',
  stickiness_vs_genre: 'stickiness',
  session_length_vs_genre: 'session_length_minutes',
  arppu_vs_genre: 'arppu',
  conversion_vs_genre: 'conversion',
  arpdau_vs_genre: 'arpdau',
  click_rate_vs_genre: 'click_rate',
  play_rate_vs_genre: 'play_rate',
  overall_conversion_vs_genre: 'overall_conversion',
};

export const FILE_TYPE_LABELS: Readonly<Record<string, string>> = {
  retention: 'Retention',
  engagement: 'Engagement',
  monetization: 'Monetization',
  acquisition: 'Acquisition',
  funnel: 'Funnel',
};

/** "session_length_minutes" → "Session length minutes" for a key the app does not know yet. */
function humanise(key: string): string {
  const text = key.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function metricLabel(key: string): string {
  return METRIC_INFO[key]?.[0] ?? humanise(key);
}

export function metricUnit(key: string): Unit {
  return METRIC_INFO[key]?.[1] ?? 'decimal';
}

/** Robux with cents below 100 (ARPDAU is often about 1.5), whole above: "R$ 1.52", "R$ 12,400". */
export function formatRobuxAmount(n: number): string {
  const digits = Math.abs(n) < 100 ? 2 : 0;
  return `R$ ${n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;
}

/** A metric's value as people read it; null (the file lacks what it needs) → "–". */
export function formatMetric(key: string, value: number | null | undefined): string {
  if (value == null || !Number.isFinite(value)) return '–';
  switch (metricUnit(key)) {
    case 'rate':
      return formatPercent(value);
    case 'trend':
      return `${formatPercent(value, { signed: true })} / week`;
    case 'count':
      return Math.abs(value) >= 100_000 ? formatCompact(value) : formatInteger(value);
    case 'minutes':
      return formatDuration(value * 60_000);
    case 'robux':
      return formatRobuxAmount(value);
    case 'step':
      return `Step ${formatInteger(value)}`;
    default:
      return formatCompact(value);
  }
}

/** The metrics worth a card: documented ones first in their order, then any others; nulls last. */
export function orderedMetrics(
  metrics: Record<string, number | null>,
): { key: string; value: number | null }[] {
  const known = Object.keys(METRIC_INFO);
  const rank = (k: string) => (known.includes(k) ? known.indexOf(k) : known.length);
  return Object.entries(metrics)
    .map(([key, value]) => ({ key, value }))
    .sort((a, b) => Number(a.value == null) - Number(b.value == null) || rank(a.key) - rank(b.key));
}

export interface BenchmarkRow {
  key: string;
  label: string;
  metric: string | null;
  /** The game's own figure, formatted. */
  yours: string;
  /** The benchmark it was compared with, recovered as value / (1 + difference); "–" when unknown. */
  benchmark: string;
  /** The API's signed label, e.g. "+12.5%". */
  difference: string;
  ahead: boolean | null;
}

/** The benchmark labels with the two figures they compare (the benchmark recovered from the label). */
export function benchmarkRows(
  benchmarks: Record<string, string>,
  metrics: Record<string, number | null>,
): BenchmarkRow[] {
  return Object.entries(benchmarks).map(([key, difference]) => {
    const metric = BENCHMARK_METRIC[key] ?? null;
    const value = metric ? metrics[metric] : null;
    const delta = parseSignedPercent(difference);
    const recovered = value != null && delta != null && delta > -1 ? value / (1 + delta) : null;
    return {
      key,
      label: metric ? metricLabel(metric) : humanise(key.replace(/_vs_genre$/, '')),
      metric,
      yours: metric ? formatMetric(metric, value) : '–',
      benchmark: metric && recovered != null ? formatMetric(metric, recovered) : '–',
      difference,
      ahead: delta == null ? null : delta >= 0,
    };
  });
}

/** Horizontal bars of each difference against the benchmark, in percent (0 = on par). */
export function benchmarkChartOption(benchmarks: Record<string, string>) {
  const bars = benchmarkBars(benchmarks, (key) => {
    const metric = BENCHMARK_METRIC[key];
    return metric ? metricLabel(metric) : humanise(key);
  }).reverse(); // ECharts draws a category axis bottom-up; reversed, the first label is on top.
  return {
    grid: { left: 8, right: 56, top: 8, bottom: 24, containLabel: true },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      valueFormatter: (v: number) => `${v > 0 ? '+' : ''}${v.toFixed(1)}%`,
    },
    xAxis: { type: 'value', axisLabel: { formatter: (v: number) => `${v > 0 ? '+' : ''}${v}%` } },
    yAxis: { type: 'category', data: bars.map((b) => b.name), axisTick: { show: false } },
    series: [
      {
        name: 'Difference from the benchmark',
        type: 'bar',
        barMaxWidth: 28,
        data: bars.map((b) => ({ value: b.value, itemStyle: { color: b.colour } })),
        label: {
          show: true,
          position: 'right',
          formatter: (p: { value: number }) => `${p.value > 0 ? '+' : ''}${p.value.toFixed(1)}%`,
        },
      },
    ],
  };
}

/**
 * The retention curve (D1, D7, D30 as percentages) and, where the labels allow, the benchmark's
 * curve recovered from them; null when the file has fewer than two of the three days.
 */
export function retentionCurveOption(
  metrics: Record<string, number | null>,
  benchmarks: Record<string, string>,
) {
  const days = [
    ['Day 1', 'd1_retention', 'd1_vs_genre'],
    ['Day 7', 'd7_retention', 'd7_vs_genre'],
    ['Day 30', 'd30_retention', 'd30_vs_genre'],
  ] as const;
  const yours = days.map(([, m]) => metrics[m] ?? null);
  if (yours.filter((v) => v != null).length < 2) return null;
  const bench = days.map(([, m, b]) => {
    const v = metrics[m];
    const d = benchmarks[b] != null ? parseSignedPercent(benchmarks[b]) : null;
    return v != null && d != null && d > -1 ? v / (1 + d) : null;
  });
  const pct = (v: number | null) => (v == null ? null : Math.round(v * 1000) / 10);
  const series: Record<string, unknown>[] = [
    {
      name: 'Your game',
      type: 'line',
      data: yours.map(pct),
      symbolSize: 8,
      lineStyle: { width: 3 },
      connectNulls: true,
    },
  ];
  if (bench.some((v) => v != null)) {
    series.push({
      name: 'Benchmark',
      type: 'line',
      data: bench.map(pct),
      symbolSize: 6,
      lineStyle: { type: 'dashed' },
      connectNulls: true,
    });
  }
  return {
    grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
    legend: { top: 0 },
    tooltip: {
      trigger: 'axis',
      valueFormatter: (v: number | null) => (v == null ? '–' : `${v.toFixed(1)}%`),
    },
    xAxis: { type: 'category', data: days.map(([d]) => d) },
    yAxis: { type: 'value', min: 0, axisLabel: { formatter: (v: number) => `${v}%` } },
    series,
  };
}

/** The funnel's first and last step as bars (the API gives those two counts), or null without both. */
export function funnelOption(metrics: Record<string, number | null>) {
  const first = metrics.first_step_users;
  const last = metrics.last_step_users;
  if (first == null || last == null) return null;
  const steps = metrics.steps;
  const lastLabel = steps != null ? `Last step (${formatInteger(steps)})` : 'Last step';
  return {
    grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
    tooltip: { trigger: 'axis', valueFormatter: (v: number) => formatInteger(v) },
    xAxis: { type: 'category', data: ['First step', lastLabel] },
    yAxis: { type: 'value', axisLabel: { formatter: (v: number) => formatCompact(v) } },
    series: [
      {
        name: 'Players',
        type: 'bar',
        barMaxWidth: 64,
        data: [first, last],
        label: { show: true, position: 'top', formatter: (p: { value: number }) => formatCompact(p.value) },
      },
    ],
  };
}

/** "What the numbers are based on", from the result's coverage and benchmark source. */
export function basisText(
  coverage: {
    rows: number;
    days: number;
    missing_days: number;
    first_day: string | null;
    last_day: string | null;
  },
  source: { genre: string; from_file: boolean },
  genreName: (key: string) => string,
): string[] {
  const lines: string[] = [];
  const rows = `${formatInteger(coverage.rows)} data row${coverage.rows === 1 ? '' : 's'}`;
  if (coverage.first_day && coverage.last_day) {
    const span =
      coverage.first_day === coverage.last_day
        ? coverage.first_day
        : `${coverage.first_day} to ${coverage.last_day}`;
    const missing =
      coverage.missing_days > 0
        ? `, ${formatInteger(coverage.missing_days)} day${coverage.missing_days === 1 ? '' : 's'} missing in between`
        : ', no day missing';
    lines.push(
      `${rows} covering ${formatInteger(coverage.days)} day${coverage.days === 1 ? '' : 's'} (${span}${missing}).`,
    );
  } else {
    lines.push(`${rows}, not dated.`);
  }
  const genre = source.genre === 'all' ? 'all genres' : `the ${genreName(source.genre)} genre`;
  lines.push(
    source.from_file
      ? `Benchmarks: the file’s own Creator Hub benchmark rows where it has them, otherwise the reference values for ${genre}.`
      : `Benchmarks: svc’s reference values for ${genre} (design values; Roblox publishes no per-genre table).`,
  );
  return lines;
}
