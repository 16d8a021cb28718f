/** TypeBox schemas of POST /api/revenue-simulator (spec/interface.md §2 "Revenue estimate"). */
import { type Static, Type } from 'typebox';
import { GENRE_KEYS } from '../platform/index.js';

export const RevenueBody = Type.Object(
  {
    avg_ccu: Type.Integer({
      minimum: 0,
      maximum: 100_000_000,
      description: 'Average concurrent users over a month',
    }),
    gamepass_count: Type.Integer({ minimum: 0, maximum: 10_000, description: 'Game passes on sale' }),
    avg_gamepass_price: Type.Number({
      minimum: 0,
      maximum: 1_000_000,
      description: 'Average game-pass price in Robux',
    }),
    genre: Type.Enum([...GENRE_KEYS], { description: 'Genre key (Roblox genre_l1, lower snake case)' }),
  },
  { additionalProperties: false },
);
export type RevenueBodyT = Static<typeof RevenueBody>;

const Typicality = Type.Union(
  [Type.Literal('typical'), Type.Literal('unusual'), Type.Literal('outside_range')],
  {
    description:
      "typical: within the genre's 10th–90th percentiles; unusual: outside them but within the range stored games show; outside_range: beyond every stored game of the genre",
  },
);

const Num = (description: string) => Type.Number({ description });

export const RevenueEstimate = Type.Object(
  {
    monthly_estimate: Num("Creator's monthly game-pass earnings in USD at the DevEx rate, to the cent"),
    yearly_estimate: Num('12 × monthly_estimate exactly (to the cent)'),
    confidence: Type.Union([Type.Literal('low'), Type.Literal('medium'), Type.Literal('high')], {
      description:
        'high: every input typical for the genre; medium: none beyond the range of stored games; low: an input beyond it, or fewer than 20 stored games of the genre with a reading',
    }),
    genre_avg_revenue: Type.Union([Type.Number(), Type.Null()], {
      description:
        "The model applied to the genre's median game in the stored catalogue (median latest CCU, median pass count, median of games' median pass price), USD a month; null while the genre has no game with a reading",
    }),
    currency: Type.Literal('USD'),
    genre: Type.String({ description: 'The genre key the priors come from' }),
    typicality: Type.Object(
      { avg_ccu: Typicality, gamepass_count: Typicality, avg_gamepass_price: Typicality },
      {
        additionalProperties: false,
        description: 'Where each input falls among the stored games of the genre',
      },
    ),
    assumptions: Type.Object(
      {
        session_hours: Num('Genre mean session length (hours): DAU = avg_ccu × 24 / session_hours'),
        payers_per_dau: Num('Genre prior: monthly paying players per daily active user'),
        passes_per_payer: Num('Genre prior: passes a paying player buys a month when enough are on sale'),
        hours_per_day: Num('24'),
        creator_share: Num("Creator's share of Robux spent (0.7)"),
        devex_usd_per_robux: Num('Developer Exchange rate, USD per Robux (0.0038)'),
        months_per_year: Num('12'),
      },
      { additionalProperties: false, description: 'Every constant the estimate used' },
    ),
    breakdown: Type.Object(
      {
        dau: Num('Daily active users implied by avg_ccu'),
        monthly_payers: Num('Paying players a month'),
        purchases_per_payer: Num('min(passes_per_payer, gamepass_count)'),
        robux_spent: Num('Robux players spend on passes a month'),
        creator_robux: Num("The creator's share of it"),
      },
      { additionalProperties: false, description: 'Intermediate figures, unrounded' },
    ),
  },
  { $id: 'RevenueEstimate', title: 'RevenueEstimate', additionalProperties: false },
);
export type RevenueEstimateT = Static<typeof RevenueEstimate>;
