/**
 * monetization: revenue per point, ARPDAU, ARPPU, ARPU, payers, conversion, first-time payers, and
 * revenue by source, SKU and country. USD is taken as is and the platform's virtual currency
 * (ROBUX, R$, RBX) at the DevEx rate, which the response states; any other currency is never
 * summed into USD but listed apart in `unconverted`. Counts (purchases, units, buyers, payers)
 * include every currency: they say what happened, whatever it was paid in.
 */
import { Type } from 'typebox';
import { viewResponse } from '../analytics.schemas.js';
import { rangePlayers } from './activity.repo.js';
import {
  moneyPoints,
  revenueByCountry,
  revenueBySource,
  topSkus,
  unconvertedPurchases,
} from './monetization.repo.js';
import { moneySeries, RATES, ratio4, round4 } from './money.js';
import type { View } from './view.js';

const Usd = (description: string) => Type.Number({ description: `${description} USD, 4 decimals.` });
const UsdOrNull = (description: string) =>
  Type.Union([Type.Number(), Type.Null()], {
    description: `${description} USD, 4 decimals; null when it is 0.`,
  });

export const MonetizationView = viewResponse(
  'SdkMonetization',
  {
    revenue: Type.Array(
      Type.Object({
        date: Type.String({ format: 'date', description: 'The day, or the Monday of the ISO week.' }),
        revenue_usd: Usd('Revenue of the day (or week);'),
      }),
      { description: 'One point per day (or week) of the range, 0 where nothing was bought.' },
    ),
    revenue_usd: Usd('Purchases in the range:'),
    arpdau_usd: UsdOrNull('Revenue over the sum of daily active players (player-days); the denominator:'),
    arppu_usd: UsdOrNull('Revenue over paying players; the denominator:'),
    arpu_usd: UsdOrNull('Revenue over players active in the range; the denominator:'),
    paying_players: Type.Integer({ description: 'Players with a purchase in the range (any currency).' }),
    conversion: Type.Union([Type.Number(), Type.Null()], {
      description: 'Paying players over active players, 4 decimals; null without players.',
    }),
    first_purchase_share: Type.Union([Type.Number(), Type.Null()], {
      description:
        'Share of the range’s payers whose first purchase ever (any day, the platform and segment filters applying) is in the range, 4 decimals; null without payers.',
    }),
    by_source: Type.Array(
      Type.Object({ source: Type.String(), revenue_usd: Usd('Revenue;'), purchases: Type.Integer() }),
      { description: 'Per purchase source, richest first.' },
    ),
    top_skus: Type.Array(
      Type.Object({
        sku: Type.String(),
        revenue_usd: Usd('Revenue;'),
        units: Type.Integer({ description: 'Σ quantity.' }),
        buyers: Type.Integer({ description: 'Distinct players who bought it.' }),
      }),
      { description: 'The 20 SKUs with the most revenue (ties: more units, then by name).' },
    ),
    by_country: Type.Array(
      Type.Object({
        country: Type.Union([Type.String(), Type.Null()], { description: 'null: unknown (listed last).' }),
        revenue_usd: Usd('Revenue;'),
        units: Type.Integer(),
        buyers: Type.Integer(),
      }),
      { description: 'Per country of the purchase, richest first.' },
    ),
    rates: Type.Object(
      { usd_per_robux: Type.Number(), source: Type.String() },
      { description: 'The rate the platform currency (ROBUX, R$, RBX, any case) was converted at.' },
    ),
    unconverted: Type.Array(
      Type.Object({
        currency: Type.String({ description: 'The code as sent, upper-cased.' }),
        amount: Type.Number({ description: 'Σ price × quantity in that currency, 4 decimals.' }),
        units: Type.Integer(),
        purchases: Type.Integer(),
      }),
      { description: 'Purchases in any other currency: never summed into USD.' },
    ),
  },
  'Revenue and its breakdowns over the range.',
);

export const monetization: View<typeof MonetizationView> = {
  name: 'monetization',
  schema: MonetizationView,
  summary: 'Revenue, ARPDAU, ARPPU, ARPU, payers, conversion, sources, top SKUs, countries',
  async load(ctx) {
    const [points, payers, sources, skus, countries, unconverted] = await Promise.all([
      moneyPoints(ctx),
      rangePlayers(ctx),
      revenueBySource(ctx),
      topSkus(ctx),
      revenueByCountry(ctx),
      unconvertedPurchases(ctx),
    ]);
    const revenue = points.reduce((s, p) => s + p.revenue_usd, 0);
    const playerDays = points.reduce((s, p) => s + p.player_days, 0);
    return {
      revenue: moneySeries(points, ctx.range, ctx.granularity),
      revenue_usd: round4(revenue),
      arpdau_usd: ratio4(revenue, playerDays),
      arppu_usd: ratio4(revenue, payers.paying_players),
      arpu_usd: ratio4(revenue, payers.players),
      paying_players: payers.paying_players,
      conversion: ratio4(payers.paying_players, payers.players),
      first_purchase_share: ratio4(payers.first_time_payers, payers.paying_players),
      by_source: sources.map((s) => ({ ...s, revenue_usd: round4(s.revenue_usd) })),
      top_skus: skus.map((s) => ({ ...s, revenue_usd: round4(s.revenue_usd) })),
      by_country: countries.map((c) => ({ ...c, revenue_usd: round4(c.revenue_usd) })),
      rates: { ...RATES },
      unconverted: unconverted.map((u) => ({ ...u, amount: round4(u.amount) })),
    };
  },
};
