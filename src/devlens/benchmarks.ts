/**
 * Benchmarks: the genre table (design values, reasoned below) and the file's own "Benchmark (…)" rows,
 * which take precedence for the KPI they cover because they are Roblox's own peer figures for that
 * experience. Labels are (value / benchmark − 1) as signed percentages with one decimal.
 */
import { errors } from '../errors.js';
import { GENRE_KEYS } from '../platform/genres.js';
import type { FileType } from './types.js';

/**
 * All-genre reference values. Design values, not measurements: Roblox does not publish a per-genre table.
 * - Retention: creators and the Creator Hub's similar-experience benchmarks put typical D1 at 0.20–0.30,
 *   D7 at 0.05–0.10 and D30 at 0.02–0.03; we take the middles.
 * - Engagement: DAU 1,000 is a modest live experience (the real export in realdata peaks near 400 against
 *   a "Top n" benchmark near 550); DAU/MAU stickiness 0.15 (10–20% is usual for games); a session of
 *   20 minutes sits in the 15–45 minutes creators report (src/games/revenue.model.ts uses the same range).
 * - Monetization: about 1% of DAU pay on a given day and a paying user spends ~150 Robux, so ARPDAU ≈ 1.5.
 * - Acquisition: ~5% of impressions become a click (Impression CVR), ~60% of clicks a play (Click CVR),
 *   so ~3% end to end.
 * - Funnel: onboarding funnels commonly keep a third of the players who start them to the last step.
 */
const BASE: Readonly<Record<string, number>> = {
  d1_retention: 0.25,
  d7_retention: 0.08,
  d30_retention: 0.025,
  dau_avg: 1000,
  stickiness: 0.15,
  session_length_minutes: 20,
  arppu: 150,
  conversion_payers: 0.01,
  arpdau: 1.5,
  click_rate: 0.05,
  play_rate: 0.6,
  conversion_plays: 0.03,
  overall_conversion: 0.33,
};

/**
 * Per-genre multipliers of BASE: [retention, engagement (DAU, stickiness, session), monetization, acquisition].
 * Deep, progression genres (RPG, simulation, strategy, survival) retain and monetise more and play longer
 * sessions; light genres (obby, party, education, utility) the reverse — the same ordering as the session
 * and payer priors in src/games/revenue.model.ts.
 */
const FACTORS: Readonly<Record<string, readonly [number, number, number, number]>> = {
  action: [1.0, 1.0, 1.0, 1.0],
  adventure: [0.95, 0.9, 0.9, 1.0],
  education: [0.8, 0.7, 0.5, 0.9],
  entertainment: [0.9, 0.8, 0.7, 1.1],
  obby_platformer: [0.9, 0.7, 0.8, 1.2],
  party_casual: [0.95, 0.85, 0.8, 1.1],
  puzzle: [0.9, 0.75, 0.7, 0.9],
  rpg: [1.15, 1.5, 1.6, 0.9],
  roleplay_avatar_sim: [1.1, 1.3, 1.3, 1.0],
  shooter: [1.05, 1.0, 1.1, 1.0],
  shopping: [0.9, 0.8, 1.2, 0.9],
  simulation: [1.1, 1.2, 1.5, 1.0],
  social: [1.05, 1.1, 0.5, 1.0],
  sports_racing: [1.0, 0.9, 0.9, 1.0],
  strategy: [1.1, 1.2, 1.3, 0.9],
  survival: [1.05, 1.1, 1.2, 1.0],
  utility_other: [0.8, 0.6, 0.4, 0.8],
};

const FACTOR_OF: Readonly<Record<string, 0 | 1 | 2 | 3>> = {
  d1_retention: 0,
  d7_retention: 0,
  d30_retention: 0,
  dau_avg: 1,
  stickiness: 1,
  session_length_minutes: 1,
  arppu: 2,
  conversion_payers: 2,
  arpdau: 2,
  click_rate: 3,
  play_rate: 3,
  conversion_plays: 3,
  overall_conversion: 3,
};

function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

/** The documented table: genre → reference value per benchmarked figure. */
export const GENRE_BENCHMARKS: Readonly<Record<string, Readonly<Record<string, number>>>> =
  Object.fromEntries([
    ['all', BASE],
    ...GENRE_KEYS.filter((g) => FACTORS[g]).map((g) => [
      g,
      Object.fromEntries(Object.entries(BASE).map(([k, v]) => [k, round(v * FACTORS[g]![FACTOR_OF[k]!])])),
    ]),
  ]);

export const BENCHMARK_GENRES: readonly string[] = Object.keys(GENRE_BENCHMARKS);

/** Everyday spellings of genre keys (the interface's own examples say "simulator" and "rpg"). */
const GENRE_ALIASES: Readonly<Record<string, string>> = {
  simulator: 'simulation',
  obby: 'obby_platformer',
  platformer: 'obby_platformer',
  roleplay: 'roleplay_avatar_sim',
  fps: 'shooter',
  sports: 'sports_racing',
  racing: 'sports_racing',
  tycoon: 'simulation',
  party: 'party_casual',
  casual: 'party_casual',
};

/** The table key for a user's genre; unknown → 422 validation_failed on body.genre. */
export function resolveGenre(genre: string | undefined): string {
  if (genre === undefined || genre.trim() === '') return 'all';
  const key = genre
    .trim()
    .toLowerCase()
    .replace(/[\s&-]+/g, '_');
  const resolved = GENRE_BENCHMARKS[key] ? key : GENRE_ALIASES[key];
  if (!resolved) {
    throw errors.validation('body.genre', `Unknown genre; use one of: ${BENCHMARK_GENRES.join(', ')}.`);
  }
  return resolved;
}

/** What each benchmark label compares: a metric key, its table entry, and the KPI a file benchmark row covers. */
export interface BenchmarkSpec {
  key: string;
  metric: string;
  table: string;
  kpi: string | null;
}

const S = (key: string, metric: string, table: string, kpi: string | null): BenchmarkSpec => ({
  key,
  metric,
  table,
  kpi,
});

export const BENCHMARK_SPECS: Readonly<Record<FileType, readonly BenchmarkSpec[]>> = {
  retention: [
    S('d1_vs_genre', 'd1_retention', 'd1_retention', 'd1'),
    S('d7_vs_genre', 'd7_retention', 'd7_retention', 'd7'),
    S('d30_vs_genre', 'd30_retention', 'd30_retention', 'd30'),
  ],
  engagement: [
    S('dau_vs_genre', 'dau_avg', 'dau_avg', 'dau'),
    S('stickiness_vs_genre', 'stickiness', 'stickiness', 'stickiness'),
    S('session_length_vs_genre', 'session_length_minutes', 'session_length_minutes', 'session_min'),
  ],
  monetization: [
    S('arppu_vs_genre', 'arppu', 'arppu', 'arppu'),
    S('conversion_vs_genre', 'conversion', 'conversion_payers', 'payer_cvr'),
    S('arpdau_vs_genre', 'arpdau', 'arpdau', 'arpdau'),
  ],
  acquisition: [
    S('click_rate_vs_genre', 'click_rate', 'click_rate', 'click_rate'),
    S('play_rate_vs_genre', 'play_rate', 'play_rate', 'play_rate'),
    S('conversion_vs_genre', 'conversion', 'conversion_plays', 'acq_cvr'),
  ],
  funnel: [S('overall_conversion_vs_genre', 'overall_conversion', 'overall_conversion', null)],
};

const keysOf = (t: FileType): readonly string[] => BENCHMARK_SPECS[t].map((s) => s.key);
export const BENCHMARK_KEYS: Readonly<Record<FileType, readonly string[]>> = {
  retention: keysOf('retention'),
  engagement: keysOf('engagement'),
  monetization: keysOf('monetization'),
  acquisition: keysOf('acquisition'),
  funnel: keysOf('funnel'),
};

/** A fraction as a signed percentage label with one decimal: 0.125 → "+12.5%", −0.00004 → "+0.0%". */
export function signedPercent(x: number): string {
  if (!Number.isFinite(x)) return '+0.0%';
  // Round half away from zero on the magnitude so −12.25% and +12.25% mirror each other.
  const tenths = Math.round(Math.abs(x) * 1000);
  if (tenths === 0) return '+0.0%';
  // toFixed switches to exponent notation past 1e21; absurd ratios (tiny benchmarks) must still read as labels.
  const digits = (tenths / 10).toLocaleString('en-US', {
    useGrouping: false,
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  });
  return `${x < 0 ? '-' : '+'}${digits}%`;
}

/** Formula-injection guard: text from the file that begins like a formula gets a leading apostrophe. */
export { safeCell } from '../csv.js';
