/**
 * geo: where the players are, where the new ones come from and where the money is made, per
 * country (unknown country as null, listed last). Revenue converts as monetization does (USD, the
 * platform currency at the DevEx rate); other currencies are left out and counted apart.
 */
import { Type } from 'typebox';
import { viewResponse } from '../analytics.schemas.js';
import { countries, unconvertedPurchaseCount } from './geo.repo.js';
import { RATES, round4 } from './money.js';
import type { View } from './view.js';

export const GeoView = viewResponse(
  'SdkGeo',
  {
    countries: Type.Array(
      Type.Object({
        country: Type.Union([Type.String(), Type.Null()], {
          description: 'ISO 3166-1 alpha-2; null: events without a country.',
        }),
        players: Type.Integer({
          description: 'Distinct players active in the range with this country on one of their days.',
        }),
        new_players: Type.Integer({
          description: 'Players first seen in the range, here on their first day.',
        }),
        revenue_usd: Type.Number({ description: 'Purchases made here, USD, 4 decimals.' }),
      }),
      { description: 'Most players first, then by country; null last.' },
    ),
    rates: Type.Object(
      { usd_per_robux: Type.Number(), source: Type.String() },
      { description: 'The rate the platform currency was converted at.' },
    ),
    unconverted_purchases: Type.Integer({
      description: 'Purchases in other currencies, left out of revenue_usd (see monetization).',
    }),
  },
  'Players, new players and revenue per country over the range.',
);

export const geo: View<typeof GeoView> = {
  name: 'geo',
  schema: GeoView,
  summary: 'Players, new players and revenue per country',
  async load(ctx) {
    const [rows, unconverted] = await Promise.all([countries(ctx), unconvertedPurchaseCount(ctx)]);
    return {
      countries: rows.map((r) => ({ ...r, revenue_usd: round4(r.revenue_usd) })),
      rates: { ...RATES },
      unconverted_purchases: unconverted,
    };
  },
};
