/** Ads: ad revenue per day, ad ARPDAU, impressions, eCPM; by format, network and placement. */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, type Schemas, unwrap } from '../../../api/client';
import { Chart } from '../../../components/Chart';
import { type Column, DataTable } from '../../../components/DataTable';
import { Empty, QueryView } from '../../../components/states';
import { formatInteger, formatUsd } from '../../../lib/format';
import { timeOption } from '../chart-options';
import { COLOURS, Method, RangeNote, Stat, type ViewProps } from '../common';

type A = Schemas['SdkAds'];
type Split = {
  ad_revenue_usd: number;
  ad_arpdau_usd: number | null;
  impressions: number;
  ecpm_usd: number | null;
  ecpm_method: 'mean_of_sent' | 'revenue_per_mille' | null;
};

const ECPM_METHOD: Record<string, string> = {
  mean_of_sent: 'mean of the eCPM each impression sent',
  revenue_per_mille: 'revenue per thousand impressions (not every impression sent an eCPM)',
};

const usd4 = (n: number | null) =>
  n != null && n !== 0 && Math.abs(n) < 0.1 ? `$${n.toFixed(4)}` : formatUsd(n);

function splitColumns<T extends Split>(key: string, header: string, name: (row: T) => string): Column<T>[] {
  return [
    { key, header, cell: (r) => name(r), sort: (r) => name(r) },
    {
      key: 'revenue',
      header: 'Revenue',
      cell: (r) => usd4(r.ad_revenue_usd),
      sort: (r) => r.ad_revenue_usd,
      numeric: true,
    },
    {
      key: 'impressions',
      header: 'Impressions',
      cell: (r) => formatInteger(r.impressions),
      sort: (r) => r.impressions,
      numeric: true,
    },
    {
      key: 'ecpm',
      header: 'eCPM',
      cell: (r) => (
        <span title={r.ecpm_method ? ECPM_METHOD[r.ecpm_method] : undefined}>{usd4(r.ecpm_usd)}</span>
      ),
      sort: (r) => r.ecpm_usd,
      numeric: true,
    },
    {
      key: 'arpdau',
      header: 'Ad ARPDAU',
      cell: (r) => usd4(r.ad_arpdau_usd),
      sort: (r) => r.ad_arpdau_usd,
      numeric: true,
    },
  ];
}

const formatCols = splitColumns<A['by_format'][number]>('format', 'Format', (r) => r.format);
const networkCols = splitColumns<A['by_network'][number]>('network', 'Network', (r) => r.network);
const placementCols = splitColumns<A['top_placements'][number]>(
  'placement',
  'Placement',
  (r) => r.placement ?? '(none named)',
);

export function AdsView({ gameId, query }: ViewProps) {
  const ads = useQuery({
    queryKey: ['sdk', 'ads', gameId, query],
    queryFn: () =>
      unwrap(api.GET('/api/sdk/analytics/{game_id}/ads', { params: { path: { game_id: gameId }, query } })),
  });
  const a = ads.data;
  const option = useMemo(
    () =>
      a
        ? timeOption(
            a.revenue.map((p) => p.date),
            [
              {
                name: 'Ad revenue (USD)',
                data: a.revenue.map((p) => p.revenue_usd),
                colour: COLOURS.second,
                type: 'bar',
              },
            ],
            { money: true },
          )
        : null,
    [a],
  );
  return (
    <QueryView
      query={ads}
      label="Loading ads"
      empty={(d) =>
        d.impressions === 0 ? (
          <Empty title="No ad impressions in this range yet">
            <p className="muted small">
              Send <code>ad_impression</code> events (format, network, revenue_usd, optional placement and
              ecpm) to see ad revenue here.
            </p>
          </Empty>
        ) : null
      }
    >
      {(d) => (
        <div className="stack">
          <RangeNote data={d} />
          <div className="stats">
            <Stat label="Ad revenue" value={usd4(d.ad_revenue_usd)} />
            <Stat label="Ad ARPDAU" value={usd4(d.ad_arpdau_usd)} note="per player-day" />
            <Stat label="Impressions" value={formatInteger(d.impressions)} />
            <Stat
              label="eCPM"
              value={usd4(d.ecpm_usd)}
              note={d.ecpm_method ? ECPM_METHOD[d.ecpm_method] : undefined}
            />
          </div>
          <section className="card" aria-labelledby="ads-rev">
            <h3 id="ads-rev">Ad revenue per {d.granularity}</h3>
            {option ? (
              <Chart
                option={option}
                label={`Ad revenue per ${d.granularity}, total ${usd4(d.ad_revenue_usd)}`}
              />
            ) : null}
          </section>
          <div className="grid-2">
            <section className="card" aria-labelledby="ads-format">
              <h3 id="ads-format">By format</h3>
              <DataTable
                caption="Ads by format"
                rows={d.by_format}
                columns={formatCols}
                rowKey={(r) => r.format}
              />
            </section>
            <section className="card" aria-labelledby="ads-network">
              <h3 id="ads-network">By network</h3>
              <DataTable
                caption="Ads by network"
                rows={d.by_network}
                columns={networkCols}
                rowKey={(r) => r.network}
              />
            </section>
          </div>
          <section className="card" aria-labelledby="ads-place">
            <h3 id="ads-place">Top placements</h3>
            <DataTable
              caption="The 10 placements with the most ad revenue"
              rows={d.top_placements}
              columns={placementCols}
              rowKey={(r) => r.placement ?? '(none)'}
            />
          </section>
          <Method>eCPM: USD per thousand impressions; hover a figure for how it was computed.</Method>
        </div>
      )}
    </QueryView>
  );
}
