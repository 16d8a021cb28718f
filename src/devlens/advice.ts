/**
 * The advice layer (pure, no I/O): turns an Analysis into ranked recommendations and a narrative.
 * Every number it prints is formatted from a figure of the Analysis (metrics, benchmark labels,
 * pattern figures and texts, coverage); the service holds a plugged-in NarrativeProvider to the same
 * rule (devlens.service.ts `onlyAnalysisNumbers`). The one derived figure, the benchmark a metric was
 * compared with (in recommendations only), is recovered from the metric and its label.
 */
import { BENCHMARK_SPECS, GENRE_BENCHMARKS } from './benchmarks.js';
import type { Analysis, Pattern } from './types.js';

export interface Advice {
  recommendations: string[];
  ai_analysis: string;
}

/** A narrative writer (a language model, say). The default is offline; a provider must never see the raw file. */
export interface NarrativeProvider {
  readonly name: string;
  write(analysis: Analysis, recommendations: readonly string[]): Promise<string>;
}

type Unit = 'rate' | 'trend' | 'count' | 'minutes' | 'robux';

/** Every key of METRIC_KEYS: how it reads and prints (rates and trends are fractions; trends per week). */
const LABELS: Readonly<Record<string, readonly [string, Unit]>> = {
  d1_retention: ['D1 retention', 'rate'],
  d7_retention: ['D7 retention', 'rate'],
  d30_retention: ['D30 retention', 'rate'],
  d7_d1_ratio: ['D7/D1 ratio', 'rate'],
  d1_trend_pct_per_week: ['D1 retention trend', 'trend'],
  dau_avg: ['Average DAU', 'count'],
  mau_avg: ['Average MAU', 'count'],
  stickiness: ['DAU/MAU stickiness', 'rate'],
  session_length_minutes: ['Average session (minutes)', 'minutes'],
  playtime_minutes_per_dau: ['Playtime per DAU (minutes)', 'minutes'],
  sessions_per_dau: ['Sessions per DAU', 'count'],
  dau_trend_pct_per_week: ['DAU trend', 'trend'],
  revenue_total: ['Total revenue (Robux)', 'robux'],
  revenue_per_day: ['Revenue per day (Robux)', 'robux'],
  paying_users: ['Paying users', 'count'],
  arppu: ['ARPPU (Robux)', 'robux'],
  arpdau: ['ARPDAU (Robux)', 'robux'],
  conversion: ['Conversion', 'rate'],
  purchases: ['Purchases', 'count'],
  revenue_trend_pct_per_week: ['Revenue trend', 'trend'],
  impressions: ['Impressions', 'count'],
  clicks: ['Clicks', 'count'],
  plays: ['Plays', 'count'],
  click_rate: ['Impression-to-click rate', 'rate'],
  play_rate: ['Click-to-play rate', 'rate'],
  plays_trend_pct_per_week: ['Plays trend', 'trend'],
  steps: ['Funnel steps', 'count'],
  first_step_users: ['Players at the first step', 'count'],
  last_step_users: ['Players at the last step', 'count'],
  overall_conversion: ['Funnel conversion (first to last step)', 'rate'],
  worst_step_conversion: ['Conversion at the worst step', 'rate'],
  worst_step_number: ['Worst step', 'count'],
};

/**
 * For each benchmarked figure: how much moving it moves the game (ranking weight, 0..1) and what to do
 * when it trails its benchmark. Retention and conversion lead: they compound into every other figure.
 */
const FIXES: Readonly<Record<string, readonly [number, string]>> = {
  d1_retention: [
    0.9,
    'tighten the first session (a goal in the first minute, a reward before the first exit)',
  ],
  d7_retention: [1, 'add a reason to return on day 2–7 (daily rewards, streaks, timed events)'],
  d30_retention: [0.8, 'give long-term goals (progression tiers, collections, seasonal content)'],
  dau_avg: [0.6, 'grow reach (thumbnail and icon tests, sponsored placements, a shareable moment in play)'],
  stickiness: [0.8, 'create daily habits (daily quests, limited-time shop rotations)'],
  session_length_minutes: [
    0.7,
    'add a mid-session loop (upgrades, quests) so a session always has a next goal',
  ],
  arppu: [0.7, 'add higher-value offers (bundles, premium passes) for players who already pay'],
  arpdau: [0.8, 'review pricing and where offers appear in the core loop'],
  conversion: [
    0.9,
    'make the first step easy and worth it (for payers: a low-price starter pack at a moment of need)',
  ],
  click_rate: [0.8, 'test the thumbnail, icon and title (Creator Hub thumbnail A/B tests)'],
  play_rate: [0.7, 'make the details page promise match the game and keep join time short'],
  overall_conversion: [0.9, 'shorten or simplify the step with the largest drop'],
};

/**
 * What to do about each kind of pattern the core reports, and how much acting on it tends to move the
 * game (a weekly cycle is a scheduling opportunity; a cliff or a funnel leak is lost players).
 */
const PATTERN_ACTIONS: Readonly<Record<string, { factor: number; action: (p: Pattern) => string }>> = {
  weekly_cycle: {
    factor: 0.5,
    action: () =>
      'ship updates and events just before the strongest days, and run live events on the weakest ones',
  },
  trend: {
    factor: 0.6,
    action: (p) =>
      (p.figures.pct_per_week ?? 0) < 0
        ? 'find the update or change that lines up with the start of the decline and review it first'
        : 'find what drove the growth (an update, a promotion, a trend) and repeat it',
  },
  anomaly: {
    factor: 0.4,
    action: () => 'check what happened that day (update, outage, promotion) before reading the other figures',
  },
  d1_d7_cliff: {
    factor: 1,
    action: () => 'add reasons to come back after day one (streak rewards, unlocks on day 2–3)',
  },
  worst_funnel_step: { factor: 1, action: () => 'redesign that step first: it loses the most players' },
};

const GENERIC_ACTION = 'look into what drove it before changing anything else';
const MAX_RECOMMENDATIONS = 6;
/** Under four weeks, a weekly cycle and a trend cannot be told apart. */
const MIN_DAYS = 28;

interface MetricInfo {
  label: string;
  unit: Unit;
}

function infoOf(key: string): MetricInfo {
  const known = LABELS[key];
  if (known) return { label: known[0], unit: known[1] };
  const words = key.replace(/_/g, ' ');
  const unit: Unit = /retention|rate|conversion|cvr|stickiness|share/.test(key) ? 'rate' : 'count';
  return { label: words.charAt(0).toUpperCase() + words.slice(1), unit };
}

const COUNT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** How a figure is printed (the service's traceableNumbers accepts exactly these renderings). */
export function formatValue(value: number, unit: Unit): string {
  if (unit === 'rate') return `${(value * 100).toFixed(1)}%`;
  if (unit === 'trend') return `${value < 0 ? '-' : '+'}${(Math.abs(value) * 100).toFixed(1)}% a week`;
  return COUNT.format(value);
}

function genreName(a: Analysis): string {
  if (a.benchmark_source.from_file) return 'the benchmark in your export';
  return a.benchmark_source.genre === 'all'
    ? 'all genres'
    : `${a.benchmark_source.genre.replace(/_/g, ' ')} games`;
}

/** A signed label "-48.8%" as the fraction −0.488. */
function labelFraction(label: string): number | null {
  const m = /^([+-]\d+(?:\.\d+)?)%$/.exec(label);
  return m ? Number(m[1]) / 100 : null;
}

interface Gap {
  metric: string;
  value: number;
  label: string;
  fraction: number;
  reference: number | null;
}

/** Each benchmarked metric with its label and the value it was compared with. */
function gaps(a: Analysis): Gap[] {
  const out: Gap[] = [];
  for (const spec of BENCHMARK_SPECS[a.file_type]) {
    const value = a.metrics[spec.metric];
    const label = a.benchmarks[spec.key];
    const fraction = label === undefined ? null : labelFraction(label);
    if (value === null || value === undefined || label === undefined || fraction === null) continue;
    const table = GENRE_BENCHMARKS[a.benchmark_source.genre]?.[spec.table];
    const implied = fraction > -1 ? value / (1 + fraction) : null;
    const reference = !a.benchmark_source.from_file && table !== undefined ? table : implied;
    out.push({ metric: spec.metric, value, label, fraction, reference });
  }
  return out;
}

interface Candidate {
  text: string;
  impact: number;
}

function gapAdvice(a: Analysis, g: Gap): Candidate {
  const info = infoOf(g.metric);
  const against =
    g.reference === null ? genreName(a) : `${formatValue(g.reference, info.unit)} for ${genreName(a)}`;
  const head = `${info.label} is ${formatValue(g.value, info.unit)} against ${against} (${g.label})`;
  if (g.fraction >= 0) {
    return {
      text: `${head}: a strength; keep it while you work on the weaker figures.`,
      impact: 0.05 * g.fraction,
    };
  }
  const [importance, fix] = FIXES[g.metric] ?? [0.6, GENERIC_ACTION];
  return { text: `${head}: ${fix}.`, impact: Math.min(1, -g.fraction) * importance };
}

function patternAdvice(p: Pattern): Candidate {
  const known = PATTERN_ACTIONS[p.kind];
  const action = known ? known.action(p) : GENERIC_ACTION;
  const finding = /[.!?]$/.test(p.text.trim()) ? p.text.trim() : `${p.text.trim()}.`;
  const todo = `${action.charAt(0).toUpperCase()}${action.slice(1)}.`;
  return { text: `${finding} ${todo}`, impact: p.weight * (known?.factor ?? 0.5) };
}

function coverageAdvice(a: Analysis): Candidate[] {
  const c = a.coverage;
  const out: Candidate[] = [];
  if (c.first_day !== null && c.days < MIN_DAYS) {
    out.push({
      text: `The export covers ${c.days} days: export at least ${MIN_DAYS} days so weekly cycles and trends can be read.`,
      impact: 0.3,
    });
  }
  if (c.missing_days > 0) {
    out.push({
      text: `${c.missing_days} days are missing between ${c.first_day} and ${c.last_day}: re-export the full range so gaps do not read as drops.`,
      impact: 0.2,
    });
  }
  const absent = unbenchmarked(a);
  if (absent.length > 0) {
    out.push({
      text: `Export ${absent.join(', ')} as well to benchmark them: this file lacks the columns they need.`,
      impact: 0.04,
    });
  }
  return out;
}

/** Benchmarked figures this file could not compute (their columns are missing). */
function unbenchmarked(a: Analysis): string[] {
  return BENCHMARK_SPECS[a.file_type]
    .filter((s) => a.metrics[s.metric] === null)
    .map((s) => infoOf(s.metric).label);
}

/** Recommendations, highest expected impact first (benchmark gaps weigh gap × importance; patterns their weight). */
export function recommend(a: Analysis): string[] {
  const candidates = [
    ...gaps(a).map((g) => gapAdvice(a, g)),
    ...a.patterns.map(patternAdvice),
    ...coverageAdvice(a),
  ];
  candidates.sort((x, y) => y.impact - x.impact);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const c of candidates) {
    if (seen.has(c.text)) continue;
    seen.add(c.text);
    out.push(c.text);
    if (out.length === MAX_RECOMMENDATIONS) break;
  }
  if (out.length === 0)
    out.push(`Nothing stands out in ${a.coverage.rows} rows: export a longer period and check again.`);
  return out;
}

function coverageSentence(a: Analysis): string {
  const c = a.coverage;
  if (c.first_day === null)
    return `This ${a.file_type} file has ${c.rows} rows and no dates, so it shows one period as a whole.`;
  const gaps =
    c.missing_days === 0 ? 'with no missing days' : `with ${c.missing_days} days missing inside that range`;
  return `This ${a.file_type} file covers ${c.days} days, ${c.first_day} to ${c.last_day} (${c.rows} rows), ${gaps}.`;
}

function metricSentence(a: Analysis): string {
  const known = Object.entries(a.metrics).filter((e): e is [string, number] => e[1] !== null);
  if (known.length === 0) return 'None of the figures could be computed from it.';
  const parts = known.map(([k, v]) => `${infoOf(k).label} ${formatValue(v, infoOf(k).unit)}`);
  const absent = unbenchmarked(a);
  const missing = absent.length === 0 ? '' : ` Not computable from this file: ${absent.join(', ')}.`;
  return `Figures: ${parts.join('; ')}.${missing}`;
}

function benchmarkSentence(a: Analysis): string {
  const all = gaps(a);
  if (all.length === 0) return '';
  const parts = all.map((g) => `${infoOf(g.metric).label} ${g.label}`);
  const worst = all.reduce((w, g) => (g.fraction < w.fraction ? g : w));
  let verdict = '';
  if (all.length > 1 && worst.fraction < 0)
    verdict = ` The weakest is ${infoOf(worst.metric).label} (${worst.label}).`;
  else if (worst.fraction >= 0) verdict = ' Every benchmarked figure is at or above the benchmark.';
  return `Against ${genreName(a)}: ${parts.join(', ')}.${verdict}`;
}

function patternSentence(a: Analysis): string {
  if (a.patterns.length === 0) return 'No pattern stands out from the noise in this period.';
  const top = [...a.patterns].sort((x, y) => y.weight - x.weight).slice(0, 3);
  return `What the data shows: ${top.map((p) => p.text.replace(/[.\s]+$/, '')).join('; ')}.`;
}

/** The offline narrative: coverage first (how much the numbers can carry), then figures, benchmarks, patterns. */
export function narrate(a: Analysis): string {
  return [coverageSentence(a), metricSentence(a), benchmarkSentence(a), patternSentence(a)]
    .filter(Boolean)
    .join(' ');
}

export const offlineNarrative: NarrativeProvider = {
  name: 'offline',
  write: async (analysis) => narrate(analysis),
};

export function advise(analysis: Analysis): Advice {
  return { recommendations: recommend(analysis), ai_analysis: narrate(analysis) };
}
