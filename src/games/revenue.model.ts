/**
 * The revenue simulator's model (DECISIONS §5) and every constant it uses, in one place. Pure: no
 * I/O, so it is tested on its own (property tests) and against the simulated market's own revenue
 * (revenue.calibration.test.ts).
 *
 *   DAU            = avg_ccu × 24 / session_hours[genre]
 *   monthly payers = DAU × payers_per_dau[genre]
 *   purchases      = payers × min(passes_per_payer[genre], gamepass_count)
 *   Robux spent    = purchases × avg_gamepass_price
 *   monthly USD    = Robux spent × 70% (creator share) × 0.0038 (DevEx USD per Robux)
 *   yearly USD     = 12 × monthly USD (to the cent)
 */

/** Share of Robux spent on a game pass that reaches the creator (Roblox keeps 30%). */
export const CREATOR_SHARE = 0.7;
/** USD paid per earned Robux by Developer Exchange (DECISIONS §5). */
export const DEVEX_USD_PER_ROBUX = 0.0038;
export const HOURS_PER_DAY = 24;
export const MONTHS_PER_YEAR = 12;

export interface GenrePrior {
  /** Mean session length in hours: DAU ≈ CCU × 24 / this (one session per player a day). */
  sessionHours: number;
  /** Monthly paying players per daily active user. */
  payersPerDau: number;
  /** Passes a paying player buys in a month when the game sells at least this many. */
  passesPerPayer: number;
}

const p = (sessionHours: number, payersPerDau: number, passesPerPayer: number): GenrePrior => ({
  sessionHours,
  payersPerDau,
  passesPerPayer,
});

/**
 * Genre priors. Where they come from: no public per-genre monetisation data exists, so these are the
 * genre means the simulated market draws each game's own behaviour around
 * (src/platform/simulated/revenue.ts, GENRE_MONETISATION): sessionHours is its mean session length;
 * payersPerDau = 30 × payer share of a month's players / sessions a player plays a month (one
 * session a day per DAU, so a month holds 30 × DAU sessions); passesPerPayer is its purchase
 * appetite. Design values in the range Roblox creators report (sessions of 15–45 minutes; a few
 * percent of players paying), deepest in RPGs and simulators. Changing them means changing the
 * simulator's genre means too (the calibration test compares the two).
 */
export const GENRE_PRIORS: Readonly<Record<string, GenrePrior>> = {
  action: p(0.45, 0.036, 1.6),
  adventure: p(0.4, 0.04, 1.4),
  education: p(0.3, 0.024, 1.1),
  entertainment: p(0.35, 0.03, 1.2),
  obby_platformer: p(0.25, 0.04, 1.3),
  party_casual: p(0.35, 0.03, 1.3),
  puzzle: p(0.3, 0.03, 1.2),
  rpg: p(0.75, 0.04, 2.2),
  roleplay_avatar_sim: p(0.6, 0.0375, 1.8),
  shooter: p(0.45, 0.03, 1.6),
  shopping: p(0.3, 0.05, 1.2),
  simulation: p(0.55, 0.045, 2),
  social: p(0.5, 0.015, 1.1),
  sports_racing: p(0.4, 0.03, 1.5),
  strategy: p(0.55, 0.035, 1.8),
  survival: p(0.5, 0.039, 1.7),
  utility_other: p(0.25, 0.018, 1),
};

export interface RevenueInput {
  avgCcu: number;
  gamepassCount: number;
  /** Robux. */
  avgGamepassPrice: number;
}

export interface RevenueBreakdown {
  dau: number;
  monthlyPayers: number;
  passesPerPayer: number;
  robuxSpent: number;
  creatorRobux: number;
}

export interface RevenueResult {
  /** USD a month, to the cent. */
  monthly: number;
  /** USD a year: exactly 12 × monthly in cents. */
  yearly: number;
  breakdown: RevenueBreakdown;
}

/** The model applied to one game's inputs with a genre's prior. Non-decreasing in every input. */
export function estimateRevenue(input: RevenueInput, prior: GenrePrior): RevenueResult {
  const dau = (input.avgCcu * HOURS_PER_DAY) / prior.sessionHours;
  const monthlyPayers = dau * prior.payersPerDau;
  const passesPerPayer = Math.min(prior.passesPerPayer, input.gamepassCount);
  const robuxSpent = monthlyPayers * passesPerPayer * input.avgGamepassPrice;
  const creatorRobux = robuxSpent * CREATOR_SHARE;
  // Whole cents, so the yearly figure is exactly twelve monthly ones.
  const monthlyCents = Math.round(creatorRobux * DEVEX_USD_PER_ROBUX * 100);
  return {
    monthly: monthlyCents / 100,
    yearly: (monthlyCents * MONTHS_PER_YEAR) / 100,
    breakdown: { dau, monthlyPayers, passesPerPayer, robuxSpent, creatorRobux },
  };
}

/** Where each input falls in its genre's stored distribution. */
export type Typicality = 'typical' | 'unusual' | 'outside_range';
export type Confidence = 'low' | 'medium' | 'high';

/** A genre's distribution of one input: p10/p90 and the observed range (null when no game has one). */
export interface Band {
  p10: number;
  p90: number;
  min: number;
  max: number;
}

/** Fewer genre games with a reading than this and no input can be judged typical. */
export const MIN_GENRE_GAMES = 20;

/** typical: within the genre's 10th–90th percentiles; unusual: within its observed range; else outside_range. */
export function typicality(value: number, band: Band | null): Typicality {
  if (band === null) return 'outside_range';
  if (value >= band.p10 && value <= band.p90) return 'typical';
  if (value >= band.min && value <= band.max) return 'unusual';
  return 'outside_range';
}

/**
 * high: every input typical; medium: none outside the genre's observed range; low: an input beyond
 * what any stored game of the genre shows, or fewer than MIN_GENRE_GAMES games to compare with.
 */
export function confidenceOf(verdicts: readonly Typicality[], genreGames: number): Confidence {
  if (genreGames < MIN_GENRE_GAMES || verdicts.includes('outside_range')) return 'low';
  return verdicts.every((v) => v === 'typical') ? 'high' : 'medium';
}

/**
 * How closely the model recovers the simulated market's own game-pass revenue (ground truth in
 * src/platform/simulated/revenue.ts, which draws each game's behaviour around the genre means): the
 * bounds revenue.calibration.test.ts holds the model to on the default market (seed 1, 5,000 games,
 * the month before 2026-11-22), and the OpenAPI description states. Measured there: median
 * |ln(estimate / truth)| 0.59 (a typical game within a factor of 1.8), median bias +0.27 (estimates
 * run high for the typical game: the priors are genre means), aggregate +40% (seeds 2 and 3: +4%,
 * +22%: a handful of the biggest games' own draws decide the total).
 */
export const CALIBRATION = {
  /** Median over games of |ln(estimate / true revenue)|. */
  medianAbsLogError: 0.65,
  /** |Σ estimates / Σ true revenue − 1| over every game. */
  aggregateRelativeError: 0.5,
} as const;
