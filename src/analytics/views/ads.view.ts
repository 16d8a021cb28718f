/**
 * ads: ad revenue per point, ad ARPDAU, impressions and eCPM, overall and by format, network and
 * placement. eCPM is the mean of the ecpm values the SDK sent when every impression of the group
 * sent one, else revenue per thousand impressions; `ecpm_method` says which, per group, because
 * networks that send ecpm and those that do not are often mixed.
 */
import { Type } from 'typebox';
import { viewResponse } from '../analytics.schemas.js';
import { type AdFigures, adFiguresBy, adRevenueSeries, adTotals } from './ads.repo.js';
import { moneyPoints } from './monetization.repo.js';
import { moneySeries, ratio4, round4 } from './money.js';
import type { View } from './view.js';

const NullableNumber = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });

const figureFields = {
  ad_revenue_usd: Type.Number({ description: 'Σ revenue_usd of the impressions, 4 decimals.' }),
  ad_arpdau_usd: NullableNumber(
    'Ad revenue over the sum of daily active players (player-days), 4 decimals; null without players.',
  ),
  impressions: Type.Integer(),
  ecpm_usd: NullableNumber('USD per thousand impressions, 4 decimals; null without impressions.'),
  ecpm_method: Type.Union([Type.Literal('mean_of_sent'), Type.Literal('revenue_per_mille'), Type.Null()], {
    description:
      'mean_of_sent: every impression sent an ecpm, and this is their mean; revenue_per_mille: some did not, ' +
      'so ad revenue / impressions × 1000; null without impressions.',
  }),
};

export const AdsView = viewResponse(
  'SdkAds',
  {
    revenue: Type.Array(
      Type.Object({
        date: Type.String({ format: 'date', description: 'The day, or the Monday of the ISO week.' }),
        revenue_usd: Type.Number({ description: 'Ad revenue of the day (or week), 4 decimals.' }),
      }),
      { description: 'One point per day (or week) of the range, 0 where no ad was shown.' },
    ),
    ...figureFields,
    by_format: Type.Array(Type.Object({ format: Type.String(), ...figureFields }), {
      description: 'Most revenue first.',
    }),
    by_network: Type.Array(Type.Object({ network: Type.String(), ...figureFields }), {
      description: 'Most revenue first.',
    }),
    top_placements: Type.Array(
      Type.Object({
        placement: Type.Union([Type.String(), Type.Null()], {
          description: 'null: impressions without one.',
        }),
        ...figureFields,
      }),
      { description: 'The 10 placements with the most revenue.' },
    ),
  },
  'Ad revenue, impressions and eCPM over the range, by format, network and placement.',
);

type Figures = {
  ad_revenue_usd: number;
  ad_arpdau_usd: number | null;
  impressions: number;
  ecpm_usd: number | null;
  ecpm_method: 'mean_of_sent' | 'revenue_per_mille' | null;
};

/** The reported figures of one group; `days` is the range's Σ daily actives. */
export function adFigures(f: AdFigures, days: number): Figures {
  const sentByAll = f.impressions > 0 && f.ecpm_count === f.impressions;
  return {
    ad_revenue_usd: round4(f.revenue_usd),
    ad_arpdau_usd: ratio4(f.revenue_usd, days),
    impressions: f.impressions,
    ecpm_usd: sentByAll ? ratio4(f.ecpm_sum, f.ecpm_count) : ratio4(f.revenue_usd * 1000, f.impressions),
    ecpm_method: f.impressions === 0 ? null : sentByAll ? 'mean_of_sent' : 'revenue_per_mille',
  };
}

export const ads: View<typeof AdsView> = {
  name: 'ads',
  schema: AdsView,
  summary: 'Ad revenue, ad ARPDAU, impressions, eCPM, by format, network and placement',
  async load(ctx) {
    const [series, totals, formats, networks, placements, points] = await Promise.all([
      adRevenueSeries(ctx),
      adTotals(ctx),
      adFiguresBy(ctx, 'format', null),
      adFiguresBy(ctx, 'network', null),
      adFiguresBy(ctx, 'placement', 10),
      moneyPoints(ctx),
    ]);
    // Σ daily actives over the range: the ad ARPDAU denominator.
    const days = points.reduce((s, p) => s + p.player_days, 0);
    return {
      revenue: moneySeries(series, ctx.range, ctx.granularity),
      ...adFigures(totals, days),
      by_format: formats.map((f) => ({ format: f.key, ...adFigures(f, days) })),
      by_network: networks.map((n) => ({ network: n.key, ...adFigures(n, days) })),
      top_placements: placements.map((p) => ({
        placement: p.key === '' ? null : p.key,
        ...adFigures(p, days),
      })),
    };
  },
};
