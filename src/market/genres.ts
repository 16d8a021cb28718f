/**
 * Genre opportunity (spec/DECISIONS.md §4): pure computations over the latest CCU reading of every
 * game, with no I/O and no clock (the caller passes `now`). The lead loads the inputs; this module
 * only does the arithmetic, so every number can be checked by hand in the tests.
 */
import type { Static } from 'typebox';
import { median } from '../stats.js';
import type { GenreOpportunity as GenreOpportunitySchema } from './market.schemas.js';

export interface GenreGameInput {
  universeId: number;
  genre: string;
  ccu: number;
  createdAt: Date | null;
  gamepassCount: number | null;
  gamepassMedianPrice: number | null;
}

export type GenreOpportunity = Static<typeof GenreOpportunitySchema>;
export type EntryVerdict = NonNullable<GenreOpportunity['entry_verdict']>;

/** A game is active at this CCU or more. */
export const ACTIVE_MIN_CCU = 10;
const NEWCOMER_WINDOW_MS = 365 * 86_400_000;
const NEWCOMER_TOP_N = 20;

export const GENRE_METHOD = [
  'Computed per genre from the latest CCU reading of every collected game; only genres with at least',
  'one collected game are listed. A negative or unreadable figure counts as 0.',
  'Active games: CCU ≥ 10. Genre CCU and total_ccu count every game of the genre.',
  'demand_per_game = genre CCU / active games (0 when the genre has no active game).',
  'R = platform CCU / platform active games; saturation_index = R / (R + demand_per_game): 0.5 is the',
  'platform norm, 0.6 or more is crowded, 1 when the genre has no demand.',
  'growth_rate = genre CCU now / genre CCU at the same time of day 7 days earlier − 1; null when no',
  'sample lies within 1 hour of that baseline or the baseline is 0.',
  'top3_share = share of genre CCU held by its 3 biggest games; newcomer_share = among the top 20 games',
  'by CCU, the share of their CCU held by games created in the last 365 days (unknown creation date =',
  'not a newcomer); both null when the genre has no CCU.',
  'monetization_depth = median over active games of gamepass count × median gamepass price (Robux) per',
  '1,000 CCU, i.e. count × price / CCU × 1000, over the active games whose pass list has been read (a',
  'list not read yet is left out; passes none of which is for sale count as 0); null when none has one.',
  'opportunity_score = round(100 × (0.40·demand_pct + 0.35·growth_score + 0.25·openness)), where',
  'demand_pct = (genres with lower demand_per_game + 0.5 × other genres with equal demand) / (genres − 1)',
  '(0.5 for a lone genre), growth_score = 1 / (1 + e^(−8·growth_rate)) (0.5 when growth_rate is null),',
  'openness = newcomer_share × (1 − top3_share)^0.5 (0 when the shares are null).',
  'entry_verdict (on the rounded figures shown): unproven when fewer than 5 active games or growth_rate',
  'is null; else strong when opportunity_score ≥ 65 and saturation_index < 0.6; else avoid when',
  '(saturation_index ≥ 0.6 and growth_rate ≤ 0) or top3_share ≥ 0.8; else enter_with_edge.',
  'Ratios are rounded to 4 decimals, CCU figures and monetization_depth to 2, total_ccu to a whole',
  'number. Sorted by opportunity_score descending, then name.',
].join(' ');

/** The unrounded facts of one genre that the scores are built from. */
interface GenreFacts {
  name: string;
  totalGames: number;
  ccu: number;
  activeGames: number;
  demand: number;
  growth: number | null;
  top3: number | null;
  newcomer: number | null;
  monetization: number | null;
}

const round = (x: number, digits: number): number => {
  const f = 10 ** digits;
  const r = Math.round(x * f) / f + 0; // + 0 turns −0 into 0
  return Number.isFinite(r) ? r : x; // x·f overflows only for absurd x, which needs no rounding
};

/** Above any real reading (the whole platform peaks in the tens of millions); keeps sums finite. */
const SANE_MAX = 1e9;
/** Negative or NaN figures (bad upstream data) count as 0 and absurd ones as SANE_MAX, so no score turns NaN. */
const clean = (x: number | null): number => (x !== null && x > 0 ? Math.min(x, SANE_MAX) : 0);
const cleanCcu = (ccu: number): number => clean(ccu);

export function computeGenreOpportunities(
  games: readonly GenreGameInput[],
  baseline: ReadonlyMap<string, number>,
  now: Date,
  displayNames: ReadonlyMap<string, string>,
): GenreOpportunity[] {
  const byGenre = new Map<string, GenreGameInput[]>();
  for (const g of games) {
    const list = byGenre.get(g.genre);
    if (list) list.push(g);
    else byGenre.set(g.genre, [g]);
  }
  const facts = [...byGenre].map(([name, list]) => genreFacts(name, list, baseline.get(name), now));
  const platformCcu = facts.reduce((s, f) => s + f.ccu, 0);
  const platformActive = facts.reduce((s, f) => s + f.activeGames, 0);
  const r = platformActive > 0 ? platformCcu / platformActive : 0;
  const demandPct = percentileRanks(facts.map((f) => f.demand));
  const out = facts.map((f, i) => opportunity(f, r, demandPct[i]!, displayName(f.name, displayNames)));
  return out.sort((a, b) => b.opportunity_score! - a.opportunity_score! || compare(a.name, b.name));
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Unknown keys (a genre the catalogue has not named yet) read as "Utility other" from "utility_other". */
function displayName(key: string, names: ReadonlyMap<string, string>): string {
  const known = names.get(key);
  if (known !== undefined) return known;
  const words = key.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function genreFacts(
  name: string,
  list: readonly GenreGameInput[],
  baseline: number | undefined,
  now: Date,
): GenreFacts {
  const byCcu = [...list].sort((a, b) => cleanCcu(b.ccu) - cleanCcu(a.ccu) || a.universeId - b.universeId);
  const ccu = byCcu.reduce((s, g) => s + cleanCcu(g.ccu), 0);
  const active = byCcu.filter((g) => cleanCcu(g.ccu) >= ACTIVE_MIN_CCU);
  const top3 = byCcu.slice(0, 3).reduce((s, g) => s + cleanCcu(g.ccu), 0);
  return {
    name,
    totalGames: list.length,
    ccu,
    activeGames: active.length,
    demand: active.length > 0 ? ccu / active.length : 0,
    growth: growthRate(ccu, baseline),
    top3: ccu > 0 ? top3 / ccu : null,
    newcomer: newcomerShare(byCcu.slice(0, NEWCOMER_TOP_N), now),
    monetization: monetization(active),
  };
}

/** A zero, missing or vanishing baseline has no meaningful ratio: growth is unknown, never infinite. */
function growthRate(ccu: number, baseline: number | undefined): number | null {
  if (baseline === undefined || !Number.isFinite(baseline) || baseline <= 0) return null;
  const g = ccu / baseline - 1;
  return Number.isFinite(g) ? g : null;
}

/** Share of the games' CCU held by those created within the last 365 days of `now`. */
function newcomerShare(top: readonly GenreGameInput[], now: Date): number | null {
  const total = top.reduce((s, g) => s + cleanCcu(g.ccu), 0);
  if (total === 0) return null;
  const since = now.getTime() - NEWCOMER_WINDOW_MS;
  const fresh = top
    .filter((g) => g.createdAt !== null && g.createdAt.getTime() >= since)
    .reduce((s, g) => s + cleanCcu(g.ccu), 0);
  return fresh / total;
}

/**
 * Median depth over the active games whose pass list was read (a list not read yet is unknown, not
 * empty: counting it as 0 would drag every genre down while the collector works through them);
 * null when no active game has one.
 */
function monetization(active: readonly GenreGameInput[]): number | null {
  const known = active.filter((g) => g.gamepassCount !== null);
  return known.length > 0 ? median(known.map(depthPerThousandCcu)) : null;
}

/** Robux of passes on sale per 1,000 CCU; passes none of which is for sale (no price) read as 0. */
function depthPerThousandCcu(g: GenreGameInput): number {
  // Only called for active games, so the CCU divisor is at least 10.
  return ((clean(g.gamepassCount) * clean(g.gamepassMedianPrice)) / cleanCcu(g.ccu)) * 1000;
}

/**
 * Mid-rank percentile of each value among all of them, in 0..1: (values strictly lower + 0.5 × other
 * values equal) / (n − 1). The lowest distinct value gets 0, the highest 1, all-equal values 0.5, and a
 * lone value 0.5 (nothing to compare with, so neither good nor bad). Shared with the breakout radar.
 */
export function percentileRanks(values: readonly number[]): number[] {
  const n = values.length;
  if (n === 1) return [0.5];
  const sorted = [...values].sort((a, b) => a - b);
  return values.map((v) => {
    const lower = lowerBound(sorted, v);
    const equal = upperBound(sorted, v) - lower;
    return (lower + 0.5 * (equal - 1)) / (n - 1);
  });
}

/**
 * round(100 × (0.40·demand_pct + 0.35·growth_score + 0.25·openness)), with growth_score =
 * 1 / (1 + e^(−8·growth)) (0.5 when growth is null) and openness = newcomer × (1 − top3)^0.5 (0 when
 * either share is null): the genre score, which keyword intelligence builds its own on.
 */
export function opportunityScore(
  demandPct: number,
  growth: number | null,
  newcomer: number | null,
  top3: number | null,
): number {
  const growthScore = growth === null ? 0.5 : 1 / (1 + Math.exp(-8 * growth));
  const openness = newcomer === null || top3 === null ? 0 : newcomer * Math.sqrt(1 - top3);
  return Math.round(100 * (0.4 * demandPct + 0.35 * growthScore + 0.25 * openness));
}

/** Index of the first element ≥ v in ascending `s`. */
function lowerBound(s: readonly number[], v: number): number {
  let lo = 0;
  let hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (s[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first element > v in ascending `s`. */
function upperBound(s: readonly number[], v: number): number {
  let lo = 0;
  let hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (s[mid]! <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function opportunity(f: GenreFacts, r: number, demandPct: number, display: string): GenreOpportunity {
  const score = opportunityScore(demandPct, f.growth, f.newcomer, f.top3);
  // demand > 0 implies an active game, so R ≥ 10 > 0; no demand means fully saturated (1).
  const saturation = f.demand > 0 ? r / (r + f.demand) : 1;
  const o: GenreOpportunity = {
    name: f.name,
    display_name: display,
    total_games: f.totalGames,
    total_ccu: Math.round(f.ccu),
    avg_ccu: f.totalGames > 0 ? round(f.ccu / f.totalGames, 2) : null,
    growth_rate: f.growth === null ? null : round(f.growth, 4),
    saturation_index: round(saturation, 4),
    opportunity_score: score,
    monetization_depth: f.monetization === null ? null : round(f.monetization, 2),
    demand_per_game: round(f.demand, 2),
    top3_share: f.top3 === null ? null : round(f.top3, 4),
    newcomer_share: f.newcomer === null ? null : round(f.newcomer, 4),
    entry_verdict: null,
    recommendation: null,
    locked: false,
  };
  o.entry_verdict = verdict(o, f.activeGames);
  o.recommendation = recommendation(o, f.activeGames, demandPct);
  return o;
}

/** The verdict reads the rounded figures the caller sees, so a shown 0.6 never passes as "< 0.6". */
function verdict(o: GenreOpportunity, activeGames: number): EntryVerdict {
  const g = o.growth_rate;
  const sat = o.saturation_index ?? 1;
  if (activeGames < 5 || g === null) return 'unproven';
  if ((o.opportunity_score ?? 0) >= 65 && sat < 0.6) return 'strong';
  if ((sat >= 0.6 && g <= 0) || (o.top3_share ?? 0) >= 0.8) return 'avoid';
  return 'enter_with_edge';
}

const ccuFmt = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const moved = (g: number): string => (g < 0 ? `shrank ${pct(-g)}` : `grew ${pct(g)}`);

/** One or two sentences citing the figures (as shown in the response) behind the verdict. */
function recommendation(o: GenreOpportunity, activeGames: number, demandPct: number): string {
  const demand = `Demand per game is ${ccuFmt.format(o.demand_per_game ?? 0)} CCU (percentile ${Math.round(demandPct * 100)} among genres)`;
  const sat = `saturation ${o.saturation_index}`;
  const week = `the genre ${moved(o.growth_rate ?? 0)} in a week`;
  const top3 = pct(o.top3_share ?? 0);
  switch (o.entry_verdict) {
    case 'unproven':
      return activeGames < 5
        ? `Only ${activeGames} of its games ${activeGames === 1 ? 'has' : 'have'} 10 or more CCU, too few to judge the genre: unproven. ${demand}.`
        : `${demand} and ${sat}, but there is no CCU baseline from 7 days ago yet, so growth is unknown: unproven.`;
    case 'strong':
      return `${demand} and ${week}; ${sat} leaves room: a strong entry (opportunity ${o.opportunity_score}).`;
    case 'avoid':
      return (o.top3_share ?? 0) >= 0.8
        ? `The 3 biggest games hold ${top3} of genre CCU, so newcomers fight entrenched leaders: avoid. Opportunity ${o.opportunity_score}, ${sat}, and ${week}.`
        : `A crowded genre (${sat}) and ${week}: avoid. ${demand}.`;
    default:
      return `${demand}, ${week} and ${sat} (opportunity ${o.opportunity_score}): enter with an edge, such as a hook the top 3 games (${top3} of genre CCU) lack.`;
  }
}

/** The Explorer shape: names and totals only, every analytic field withheld. */
export function freeShape(o: GenreOpportunity): GenreOpportunity {
  return {
    name: o.name,
    display_name: o.display_name,
    total_games: o.total_games,
    total_ccu: o.total_ccu,
    avg_ccu: null,
    growth_rate: null,
    saturation_index: null,
    opportunity_score: null,
    monetization_depth: null,
    demand_per_game: null,
    top3_share: null,
    newcomer_share: null,
    entry_verdict: null,
    recommendation: null,
    locked: true,
  };
}
