/**
 * Calibration of the revenue simulator's model against the simulated market's own game-pass
 * revenue: the estimator is fed what the service would know of each game (its mean CCU over the
 * month, pass count and median pass price) and compared with what the game's players spent.
 */
import {
  CREATOR_SHARE,
  DEVEX_USD_PER_ROBUX,
  estimateRevenue,
  GENRE_PRIORS,
} from '../../src/games/revenue.model.js';
import type { GameSpec } from '../../src/platform/simulated/catalogue.js';
import { ccuAt } from '../../src/platform/simulated/market.js';
import { MONTH_DAYS, monthlyPassRevenue } from '../../src/platform/simulated/revenue.js';
import type { MarketShape } from '../../src/platform/simulated/shape.js';
import { createSimulatedSource } from '../../src/platform/simulated/source.js';

const HOUR_MS = 3_600_000;

export interface CalibrationReport {
  /** Games launched before the month began. */
  games: number;
  /** Games whose players spent at least a cent's worth on passes. */
  earning: number;
  /** Earning games with a non-zero estimate too (log errors need both). */
  compared: number;
  medianAbsLogError: number;
  /** Median of ln(estimate / truth): the model's typical bias. */
  medianLogError: number;
  /** Σ estimates / Σ true revenue − 1 over every game. */
  aggregateRelativeError: number;
}

/** The collector's view of a month: hourly readings (at half past) averaged, as hourly rollups would. */
function monthMeanCcu(seed: number, shape: MarketShape, g: GameSpec, end: number): number {
  const start = end - MONTH_DAYS * 24 * HOUR_MS;
  let total = 0;
  for (let t = start + HOUR_MS / 2; t < end; t += HOUR_MS) total += ccuAt(seed, shape, g, t);
  return total / (MONTH_DAYS * 24);
}

/** Median price of the passes on sale, as the collector stores it (0 when none has a price). */
function medianPrice(g: GameSpec): number {
  const prices = g.passes
    .map((p) => p.price)
    .filter((p): p is number => p !== null)
    .sort((a, b) => a - b);
  if (prices.length === 0) return 0;
  const mid = prices.length >> 1;
  return prices.length % 2 ? prices[mid]! : (prices[mid - 1]! + prices[mid]!) / 2;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

export function calibrate(seed: number, shape: MarketShape, end: Date): CalibrationReport {
  const t = end.getTime();
  const games = createSimulatedSource({ seed, shape }).catalogue.filter(
    (g) => g.launchAt <= t - MONTH_DAYS * 24 * HOUR_MS,
  );
  const logErrors: number[] = [];
  let estimated = 0;
  let actual = 0;
  let earning = 0;
  for (const g of games) {
    const input = {
      avgCcu: Math.round(monthMeanCcu(seed, shape, g, t)),
      gamepassCount: g.passes.length,
      avgGamepassPrice: medianPrice(g),
    };
    const estimate = estimateRevenue(input, GENRE_PRIORS[g.genre]!).monthly;
    const truth = monthlyPassRevenue(seed, shape, g, t).robux * CREATOR_SHARE * DEVEX_USD_PER_ROBUX;
    estimated += estimate;
    actual += truth;
    if (truth >= 0.01) earning++;
    if (truth >= 0.01 && estimate > 0) logErrors.push(Math.log(estimate / truth));
  }
  return {
    games: games.length,
    earning,
    compared: logErrors.length,
    medianAbsLogError: median(logErrors.map(Math.abs)),
    medianLogError: median(logErrors),
    aggregateRelativeError: estimated / actual - 1,
  };
}
