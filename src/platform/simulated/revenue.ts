/**
 * Ground truth for the revenue simulator (POST /api/revenue-simulator): what each simulated game's
 * players spend on its game passes in the 30 days before t, in Robux. The simulated market had no
 * revenue before; this gives the estimator something to be checked against.
 *
 * It is deliberately NOT the estimator's formula. Play comes from the game's own CCU path (player
 * hours summed over the month, cycles and noise included); each game draws its own session length,
 * return rate, payer share and purchase appetite around the genre means below; a payer's purchases
 * saturate smoothly with the number of passes (count·(1 − e^(−appetite/count)), not a hard min);
 * and each purchase picks a pass with weight price^−elasticity, so cheap passes sell more often.
 * The estimator knows only the genre means (src/games/revenue.model.ts keeps its priors equal to
 * them; the calibration test checks that).
 */
import type { GameSpec } from './catalogue.js';
import { ccuAt } from './market.js';
import { normal } from './random.js';
import type { MarketShape } from './shape.js';

const DAY_MS = 86_400_000;
export const MONTH_DAYS = 30;
/** Player hours are summed at this step: 360 readings a month, within 1% of an hourly sum. */
const STEP_MS = 2 * 3_600_000;

/**
 * Genre means (over games) of the per-game monetisation traits. Design values, not fitted: no public
 * per-genre data exists. Session lengths sit in the 15–45 minute range Roblox creators report
 * (longest for RPG and roleplay, shortest for obbies and utilities); payer shares are 0.3–2% of a
 * month's players, deepest in RPG and simulators, whose progression sells passes.
 */
export interface GenreMonetisation {
  /** Mean length of one play session, hours. */
  sessionHours: number;
  /** Sessions a month's unique player plays in that month. */
  sessionsPerPlayer: number;
  /** Share of a month's unique players who buy at least one pass. */
  payerShare: number;
  /** Passes a payer buys in a month when the game sells many. */
  passAppetite: number;
}

const m = (sessionHours: number, sessionsPerPlayer: number, payerShare: number, passAppetite: number) => ({
  sessionHours,
  sessionsPerPlayer,
  payerShare,
  passAppetite,
});

export const GENRE_MONETISATION: Readonly<Record<string, GenreMonetisation>> = {
  action: m(0.45, 10, 0.012, 1.6),
  adventure: m(0.4, 7.5, 0.01, 1.4),
  education: m(0.3, 5, 0.004, 1.1),
  entertainment: m(0.35, 6, 0.006, 1.2),
  obby_platformer: m(0.25, 6, 0.008, 1.3),
  party_casual: m(0.35, 8, 0.008, 1.3),
  puzzle: m(0.3, 6, 0.006, 1.2),
  rpg: m(0.75, 15, 0.02, 2.2),
  roleplay_avatar_sim: m(0.6, 12, 0.015, 1.8),
  shooter: m(0.45, 12, 0.012, 1.6),
  shopping: m(0.3, 6, 0.01, 1.2),
  simulation: m(0.55, 12, 0.018, 2),
  social: m(0.5, 10, 0.005, 1.1),
  sports_racing: m(0.4, 10, 0.01, 1.5),
  strategy: m(0.55, 12, 0.014, 1.8),
  survival: m(0.5, 10, 0.013, 1.7),
  utility_other: m(0.25, 5, 0.003, 1),
};

/** Log-scale spread of each game's draw around its genre mean. */
export const TRAIT_SPREAD: Readonly<Record<keyof GenreMonetisation, number>> = {
  sessionHours: 0.25,
  sessionsPerPlayer: 0.3,
  payerShare: 0.5,
  passAppetite: 0.3,
};
/** Purchase weight of a pass ∝ price^−elasticity. */
export const PRICE_ELASTICITY = 0.5;

const TRAIT_STREAM: Readonly<Record<keyof GenreMonetisation, number>> = {
  sessionHours: 60,
  sessionsPerPlayer: 61,
  payerShare: 62,
  passAppetite: 63,
};

/** One game's own traits: lognormal draws whose mean is the genre mean. */
export function gameMonetisation(seed: number, g: GameSpec): GenreMonetisation {
  const genre = GENRE_MONETISATION[g.genre] ?? GENRE_MONETISATION.utility_other!;
  const draw = (k: keyof GenreMonetisation) => {
    const s = TRAIT_SPREAD[k];
    return genre[k] * Math.exp(s * normal(seed, g.index, TRAIT_STREAM[k]) - (s * s) / 2);
  };
  return {
    sessionHours: draw('sessionHours'),
    sessionsPerPlayer: draw('sessionsPerPlayer'),
    payerShare: Math.min(1, draw('payerShare')),
    passAppetite: draw('passAppetite'),
  };
}

/** Player hours played in [from, to): CCU summed at a fixed step (cycles and noise included). */
export function playerHours(seed: number, shape: MarketShape, g: GameSpec, from: number, to: number): number {
  let total = 0;
  for (let t = from; t < to; t += STEP_MS) total += ccuAt(seed, shape, g, t) * (STEP_MS / 3_600_000);
  return total;
}

/** Robux a payer spends per purchase: prices weighted by price^−elasticity (free passes never sell). */
function spendPerPurchase(prices: readonly number[]): number {
  let weights = 0;
  let spend = 0;
  for (const p of prices) {
    const w = p ** -PRICE_ELASTICITY;
    weights += w;
    spend += w * p;
  }
  return weights === 0 ? 0 : spend / weights;
}

export interface PassRevenue {
  /** Robux players spent on the game's passes (before the platform's share). */
  robux: number;
  playerHours: number;
  payers: number;
  purchasesPerPayer: number;
}

/** What the game's players spent on its passes in the 30 days before t. */
export function monthlyPassRevenue(seed: number, shape: MarketShape, g: GameSpec, t: number): PassRevenue {
  const traits = gameMonetisation(seed, g);
  const hours = playerHours(seed, shape, g, t - MONTH_DAYS * DAY_MS, t);
  const uniquePlayers = hours / traits.sessionHours / traits.sessionsPerPlayer;
  const payers = uniquePlayers * traits.payerShare;
  const prices = g.passes.map((p) => p.price).filter((p): p is number => p !== null && p > 0);
  const n = prices.length;
  const purchasesPerPayer = n === 0 ? 0 : n * (1 - Math.exp(-traits.passAppetite / n));
  return {
    robux: payers * purchasesPerPayer * spendPerPurchase(prices),
    playerHours: hours,
    payers,
    purchasesPerPayer,
  };
}
