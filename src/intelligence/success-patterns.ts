/**
 * Success patterns, the pure part: split the eligible games of a genre (or the market) by CCU
 * growth into the top quartile and the rest, and measure, feature by feature, how the two groups
 * differ. No I/O: the service reads the games and hands them here, so every rule is tested on
 * hand-built inputs.
 *
 * Numeric features: Cliff's δ of top over rest with Cliff's 95% interval (src/stats.ts). Chosen
 * because these features are skewed, bounded or heavily tied (ages, prices, counts, ratios): δ uses
 * only the order of the values, so no transform or outlier changes it, it needs no normality, and it
 * is on one −1..1 scale for every feature (and equals the difference of proportions for yes/no data,
 * so title keywords, measured that way with Newcombe's interval, sort on the same scale).
 */
import { textTerms } from '../keywords/index.js';
import { cliffsDelta, median, newcombeDifference, percentile } from '../stats.js';

/** Fewest eligible games for an answer (so the top quartile has at least 5). */
export const MIN_ELIGIBLE = 20;
/** Fewest games with a value in each group for a feature's effect to be measured. */
export const MIN_GROUP = 5;
/** Title keywords compared: the commonest among the eligible games, each on at least this many. */
export const TITLE_KEYWORDS = 10;
export const MIN_KEYWORD_GAMES = 5;
export const LEVEL = 0.95;

export const NUMERIC_FEATURES = [
  'age_days',
  'updates_per_30d',
  'max_players',
  'gamepass_count',
  'gamepass_median_price',
  'gamepass_max_price',
  'like_ratio',
  'favorites_per_1k_visits',
  'description_length',
  'title_words',
] as const;
export type NumericFeature = (typeof NUMERIC_FEATURES)[number];

interface FeatureText {
  label: string;
  /** Unit after a median in a sentence ('' for none). */
  unit: string;
  /** What the top group does when its values run higher, and when lower. */
  higher: string;
  lower: string;
}

export const FEATURE_TEXT: Record<NumericFeature, FeatureText> = {
  age_days: { label: 'Age (days)', unit: 'days', higher: 'are older', lower: 'are younger' },
  updates_per_30d: {
    label: 'Updates per 30 days',
    unit: 'updates per 30 days',
    higher: 'update more often',
    lower: 'update less often',
  },
  max_players: {
    label: 'Max players per server',
    unit: 'players',
    higher: 'allow more players per server',
    lower: 'allow fewer players per server',
  },
  gamepass_count: {
    label: 'Game passes',
    unit: 'passes',
    higher: 'sell more game passes',
    lower: 'sell fewer game passes',
  },
  gamepass_median_price: {
    label: 'Median game pass price (Robux)',
    unit: 'Robux',
    higher: 'price their game passes higher',
    lower: 'price their game passes lower',
  },
  gamepass_max_price: {
    label: 'Dearest game pass (Robux)',
    unit: 'Robux',
    higher: 'have a dearer top game pass',
    lower: 'have a cheaper top game pass',
  },
  like_ratio: {
    label: 'Like ratio',
    unit: '',
    higher: 'have a higher like ratio',
    lower: 'have a lower like ratio',
  },
  favorites_per_1k_visits: {
    label: 'Favourites per 1,000 visits',
    unit: 'per 1,000 visits',
    higher: 'are favourited more per visit',
    lower: 'are favourited less per visit',
  },
  description_length: {
    label: 'Description length (characters)',
    unit: 'characters',
    higher: 'have longer descriptions',
    lower: 'have shorter descriptions',
  },
  title_words: {
    label: 'Title length (words)',
    unit: 'words',
    higher: 'have longer titles',
    lower: 'have shorter titles',
  },
};

/** One eligible game: its mean daily CCU in both windows and its features (null: unknown). */
export interface PatternGame {
  universeId: number;
  name: string;
  current: number;
  baseline: number;
  features: Record<NumericFeature, number | null>;
}

export interface GroupValue {
  /** Games of the group with a value for this feature. */
  n: number;
  /** Numeric: their median; title keyword: the share (0–1) whose title has it. Null when n is 0. */
  value: number | null;
}

export interface FeatureComparison {
  feature: string;
  kind: 'numeric' | 'title_keyword';
  label: string;
  measure: 'cliffs_delta' | 'difference_in_proportions';
  top: GroupValue;
  rest: GroupValue;
  /** Top minus rest (−1..1); null when a group has under MIN_GROUP values. */
  effect: number | null;
  ci_low: number | null;
  ci_high: number | null;
  /** The 95% interval excludes zero. */
  significant: boolean;
  /** A plain-language sentence when significant, else null. */
  pattern: string | null;
}

export interface PatternAnalysis {
  growthThreshold: number;
  top: { n: number; medianGrowth: number };
  rest: { n: number; medianGrowth: number };
  features: FeatureComparison[];
}

const round = (x: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

/** A number in a sentence: at most 2 decimals, thousands grouped. */
export function formatNumber(x: number): string {
  return round(x, 2).toLocaleString('en-US', { maximumFractionDigits: 2 });
}

const percent = (x: number) => `${Math.round(x * 100)}%`;

/** growth = current / baseline − 1 (eligible games have a positive baseline). */
export function growthOf(g: Pick<PatternGame, 'current' | 'baseline'>): number {
  return g.current / g.baseline - 1;
}

/** The top quartile (growth ≥ the 75th percentile, linear interpolation) and the rest. */
export function splitByGrowth(games: readonly PatternGame[]): {
  threshold: number;
  top: PatternGame[];
  rest: PatternGame[];
} {
  const threshold = percentile(games.map(growthOf), 0.75);
  return {
    threshold,
    top: games.filter((g) => growthOf(g) >= threshold),
    rest: games.filter((g) => growthOf(g) < threshold),
  };
}

function numericComparison(
  feature: NumericFeature,
  top: readonly PatternGame[],
  rest: readonly PatternGame[],
): FeatureComparison {
  const values = (gs: readonly PatternGame[]) =>
    gs.map((g) => g.features[feature]).filter((v): v is number => v !== null && Number.isFinite(v));
  const a = values(top);
  const b = values(rest);
  const text = FEATURE_TEXT[feature];
  const group = (xs: number[]): GroupValue => ({
    n: xs.length,
    value: xs.length === 0 ? null : round(median(xs), 2),
  });
  const d = a.length >= MIN_GROUP && b.length >= MIN_GROUP ? cliffsDelta(a, b, LEVEL) : null;
  const significant = d !== null && (d.low > 0 || d.high < 0);
  return {
    feature,
    kind: 'numeric',
    label: text.label,
    measure: 'cliffs_delta',
    top: group(a),
    rest: group(b),
    effect: d && round(d.delta, 4),
    ci_low: d && round(d.low, 4),
    ci_high: d && round(d.high, 4),
    significant,
    pattern:
      d && significant
        ? `The fastest-growing games ${d.delta > 0 ? text.higher : text.lower} than the rest (median ` +
          `${formatNumber(median(a))} vs ${formatNumber(median(b))}${text.unit ? ` ${text.unit}` : ''}; ` +
          `Cliff's δ ${formatNumber(d.delta)}, 95% CI ${formatNumber(d.low)} to ${formatNumber(d.high)}; ` +
          `${a.length} vs ${b.length} games).`
        : null,
  };
}

/** The commonest title keywords of `games`: on at least MIN_KEYWORD_GAMES titles, most first, then A–Z. */
export function commonTitleKeywords(titles: ReadonlyMap<number, readonly string[]>): string[] {
  const counts = new Map<string, number>();
  for (const terms of titles.values()) for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts]
    .filter(([, n]) => n >= MIN_KEYWORD_GAMES)
    .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
    .slice(0, TITLE_KEYWORDS)
    .map(([t]) => t);
}

function keywordComparison(
  keyword: string,
  titles: ReadonlyMap<number, readonly string[]>,
  top: readonly PatternGame[],
  rest: readonly PatternGame[],
): FeatureComparison {
  const count = (gs: readonly PatternGame[]) =>
    gs.filter((g) => titles.get(g.universeId)?.includes(keyword)).length;
  const x1 = count(top);
  const x2 = count(rest);
  const p1 = top.length === 0 ? Number.NaN : x1 / top.length;
  const p2 = rest.length === 0 ? Number.NaN : x2 / rest.length;
  const ci = newcombeDifference(x1, top.length, x2, rest.length, LEVEL);
  const significant = ci !== null && (ci.low > 0 || ci.high < 0);
  const points = (x: number) => formatNumber(x * 100);
  const share = (p: number) => (Number.isNaN(p) ? null : round(p, 4));
  return {
    feature: `title:${keyword}`,
    kind: 'title_keyword',
    label: `“${keyword}” in the title`,
    measure: 'difference_in_proportions',
    top: { n: top.length, value: share(p1) },
    rest: { n: rest.length, value: share(p2) },
    effect: ci && round(p1 - p2, 4),
    ci_low: ci && round(ci.low, 4),
    ci_high: ci && round(ci.high, 4),
    significant,
    pattern:
      ci && significant
        ? `“${keyword}” is in ${percent(p1)} of the fastest-growing games’ titles against ${percent(p2)} of the ` +
          `rest (difference ${points(p1 - p2)} points, 95% CI ${points(ci.low)} to ${points(ci.high)}).`
        : null,
  };
}

/** Significant first, then the largest |effect|, unmeasured last, then by feature name. */
export function byStrength(a: FeatureComparison, b: FeatureComparison): number {
  if (a.significant !== b.significant) return a.significant ? -1 : 1;
  const ea = a.effect === null ? -1 : Math.abs(a.effect);
  const eb = b.effect === null ? -1 : Math.abs(b.effect);
  return eb - ea || (a.feature < b.feature ? -1 : a.feature > b.feature ? 1 : 0);
}

/** The whole comparison; null under MIN_ELIGIBLE games. */
export function analysePatterns(games: readonly PatternGame[]): PatternAnalysis | null {
  if (games.length < MIN_ELIGIBLE) return null;
  const { threshold, top, rest } = splitByGrowth(games);
  const titles = new Map(games.map((g) => [g.universeId, textTerms(g.name)]));
  const features = [
    ...NUMERIC_FEATURES.map((f) => numericComparison(f, top, rest)),
    ...commonTitleKeywords(titles).map((k) => keywordComparison(k, titles, top, rest)),
  ].sort(byStrength);
  return {
    growthThreshold: round(threshold, 4),
    top: { n: top.length, medianGrowth: round(median(top.map(growthOf)), 4) },
    rest: { n: rest.length, medianGrowth: round(median(rest.map(growthOf)), 4) },
    features,
  };
}
