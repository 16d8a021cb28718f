/**
 * Revenue simulator rules: the model of revenue.model.ts with the genre's prior, a confidence from
 * how typical the inputs are among the genre's stored games, and the genre's median game through
 * the same model. SQL in market's genre-distribution.repo.ts.
 */
import type { Db } from '../db/index.js';
import { errors } from '../errors.js';
import { type GenreDistributionRow, genreDistribution } from '../market/index.js';
import {
  type Band,
  CREATOR_SHARE,
  confidenceOf,
  DEVEX_USD_PER_ROBUX,
  estimateRevenue,
  GENRE_PRIORS,
  type GenrePrior,
  HOURS_PER_DAY,
  MONTHS_PER_YEAR,
  type RevenueBreakdown,
  typicality,
} from './revenue.model.js';
import type { RevenueBodyT, RevenueEstimateT } from './revenue.schemas.js';

type Stat = 'ccu' | 'passes' | 'price';

function band(d: GenreDistributionRow, s: Stat): Band | null {
  const [p10, p90, min, max] = [d[`${s}_p10`], d[`${s}_p90`], d[`${s}_min`], d[`${s}_max`]];
  return p10 === null || p90 === null || min === null || max === null ? null : { p10, p90, min, max };
}

/** The model on the genre's median game; null while the genre has no game with a CCU reading. */
function medianGameRevenue(d: GenreDistributionRow, prior: GenrePrior): number | null {
  if (d.ccu_p50 === null) return null;
  const input = { avgCcu: d.ccu_p50, gamepassCount: d.passes_p50 ?? 0, avgGamepassPrice: d.price_p50 ?? 0 };
  return estimateRevenue(input, prior).monthly;
}

/** Every constant the estimate used, as the response shows them. */
function assumptionsOf(prior: GenrePrior): RevenueEstimateT['assumptions'] {
  return {
    session_hours: prior.sessionHours,
    payers_per_dau: prior.payersPerDau,
    passes_per_payer: prior.passesPerPayer,
    hours_per_day: HOURS_PER_DAY,
    creator_share: CREATOR_SHARE,
    devex_usd_per_robux: DEVEX_USD_PER_ROBUX,
    months_per_year: MONTHS_PER_YEAR,
  };
}

function breakdownOf(b: RevenueBreakdown): RevenueEstimateT['breakdown'] {
  return {
    dau: b.dau,
    monthly_payers: b.monthlyPayers,
    purchases_per_payer: b.passesPerPayer,
    robux_spent: b.robuxSpent,
    creator_robux: b.creatorRobux,
  };
}

export class RevenueService {
  constructor(private readonly deps: { db: Db }) {}

  async simulate(body: RevenueBodyT): Promise<RevenueEstimateT> {
    const prior = GENRE_PRIORS[body.genre];
    // The schema admits only taxonomy keys and every key has a prior; this guards the two lists.
    if (!prior) throw errors.validation('body.genre', `body.genre "${body.genre}" has no revenue prior.`);
    const input = {
      avgCcu: body.avg_ccu,
      gamepassCount: body.gamepass_count,
      avgGamepassPrice: body.avg_gamepass_price,
    };
    const estimate = estimateRevenue(input, prior);
    const dist = await genreDistribution(this.deps.db, body.genre);
    const typical = {
      avg_ccu: typicality(body.avg_ccu, band(dist, 'ccu')),
      gamepass_count: typicality(body.gamepass_count, band(dist, 'passes')),
      // Without passes the price plays no part, so it cannot make the estimate less certain.
      avg_gamepass_price:
        body.gamepass_count === 0
          ? ('typical' as const)
          : typicality(body.avg_gamepass_price, band(dist, 'price')),
    };
    return {
      monthly_estimate: estimate.monthly,
      yearly_estimate: estimate.yearly,
      confidence: confidenceOf(Object.values(typical), dist.games),
      genre_avg_revenue: medianGameRevenue(dist, prior),
      currency: 'USD',
      genre: body.genre,
      typicality: typical,
      assumptions: assumptionsOf(prior),
      breakdown: breakdownOf(estimate.breakdown),
    };
  }
}
