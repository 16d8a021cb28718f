/** Monetization: revenue per day, ARPDAU/ARPPU/ARPU, payers, sources, SKUs, countries, other currencies. */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, type Schemas, unwrap } from '../../../api/client';
import { Chart } from '../../../components/Chart';
import { type Column, DataTable } from '../../../components/DataTable';
import { QueryView } from '../../../components/states';
import { formatInteger, formatPercent, formatUsd } from '../../../lib/format';
import { timeOption } from '../chart-options';
import { COLOURS, Method, NoEvents, RangeNote, Stat, type ViewProps } from '../common';
import { countryName } from '../sdk-data';

type M = Schemas['SdkMonetization'];

const money = (n: number | null) => formatUsd(n);

const sourceColumns: Column<M['by_source'][number]>[] = [
  { key: 'source', header: 'Source', cell: (s) => s.source, sort: (s) => s.source },
  {
    key: 'purchases',
    header: 'Purchases',
    cell: (s) => formatInteger(s.purchases),
    sort: (s) => s.purchases,
    numeric: true,
  },
  {
    key: 'revenue',
    header: 'Revenue',
    cell: (s) => money(s.revenue_usd),
    sort: (s) => s.revenue_usd,
    numeric: true,
  },
];
const skuColumns: Column<M['top_skus'][number]>[] = [
  { key: 'sku', header: 'SKU', cell: (s) => <code>{s.sku}</code>, sort: (s) => s.sku },
  { key: 'units', header: 'Units', cell: (s) => formatInteger(s.units), sort: (s) => s.units, numeric: true },
  {
    key: 'buyers',
    header: 'Buyers',
    cell: (s) => formatInteger(s.buyers),
    sort: (s) => s.buyers,
    numeric: true,
  },
  {
    key: 'revenue',
    header: 'Revenue',
    cell: (s) => money(s.revenue_usd),
    sort: (s) => s.revenue_usd,
    numeric: true,
  },
];
const countryColumns: Column<M['by_country'][number]>[] = [
  { key: 'country', header: 'Country', cell: (c) => countryName(c.country), sort: (c) => c.country },
  {
    key: 'buyers',
    header: 'Buyers',
    cell: (c) => formatInteger(c.buyers),
    sort: (c) => c.buyers,
    numeric: true,
  },
  { key: 'units', header: 'Units', cell: (c) => formatInteger(c.units), sort: (c) => c.units, numeric: true },
  {
    key: 'revenue',
    header: 'Revenue',
    cell: (c) => money(c.revenue_usd),
    sort: (c) => c.revenue_usd,
    numeric: true,
  },
];
const unconvertedColumns: Column<M['unconverted'][number]>[] = [
  { key: 'currency', header: 'Currency', cell: (u) => u.currency, sort: (u) => u.currency },
  {
    key: 'purchases',
    header: 'Purchases',
    cell: (u) => formatInteger(u.purchases),
    sort: (u) => u.purchases,
    numeric: true,
  },
  { key: 'units', header: 'Units', cell: (u) => formatInteger(u.units), sort: (u) => u.units, numeric: true },
  {
    key: 'amount',
    header: 'Amount',
    cell: (u) => `${u.amount.toLocaleString('en-US', { maximumFractionDigits: 2 })} ${u.currency}`,
    sort: (u) => u.amount,
    numeric: true,
  },
];

export function MonetizationView({ gameId, query }: ViewProps) {
  const monetization = useQuery({
    queryKey: ['sdk', 'monetization', gameId, query],
    queryFn: () =>
      unwrap(
        api.GET('/api/sdk/analytics/{game_id}/monetization', {
          params: { path: { game_id: gameId }, query },
        }),
      ),
  });
  const m = monetization.data;
  const option = useMemo(
    () =>
      m
        ? timeOption(
            m.revenue.map((p) => p.date),
            [
              {
                name: 'Revenue (USD)',
                data: m.revenue.map((p) => p.revenue_usd),
                colour: COLOURS.good,
                type: 'bar',
              },
            ],
            { money: true },
          )
        : null,
    [m],
  );
  return (
    <QueryView
      query={monetization}
      label="Loading monetization"
      empty={(d) => (d.paying_players === 0 && d.arpu_usd == null ? <NoEvents what="players" /> : null)}
    >
      {(d) => (
        <div className="stack">
          <RangeNote data={d} />
          <div className="stats">
            <Stat label="Revenue" value={money(d.revenue_usd)} note="USD + Robux at DevEx" />
            <Stat label="ARPDAU" value={money(d.arpdau_usd)} note="per player-day" />
            <Stat label="ARPPU" value={money(d.arppu_usd)} note="per paying player" />
            <Stat label="ARPU" value={money(d.arpu_usd)} note="per active player" />
            <Stat
              label="Paying players"
              value={formatInteger(d.paying_players)}
              note="any purchase, any currency"
            />
            <Stat label="Conversion" value={formatPercent(d.conversion)} note="payers / active players" />
            <Stat
              label="First purchases"
              value={formatPercent(d.first_purchase_share)}
              note="payers whose first purchase ever is in the range"
            />
          </div>
          {d.paying_players === 0 ? (
            <p className="notice">No purchase in this range yet: revenue figures are zero.</p>
          ) : null}
          <section className="card" aria-labelledby="mo-rev">
            <h3 id="mo-rev">Revenue per {d.granularity}</h3>
            {option ? (
              <Chart
                option={option}
                label={`Revenue per ${d.granularity} from ${d.from} to ${d.to}, total ${money(d.revenue_usd)}`}
              />
            ) : null}
          </section>
          <div className="grid-2">
            <section className="card" aria-labelledby="mo-src">
              <h3 id="mo-src">By source</h3>
              {d.by_source.length ? (
                <DataTable
                  caption="Revenue by purchase source"
                  rows={d.by_source}
                  columns={sourceColumns}
                  rowKey={(s) => s.source}
                />
              ) : (
                <p className="muted">No purchases.</p>
              )}
            </section>
            <section className="card" aria-labelledby="mo-country">
              <h3 id="mo-country">By country</h3>
              {d.by_country.length ? (
                <DataTable
                  caption="Revenue by country"
                  rows={d.by_country}
                  columns={countryColumns}
                  rowKey={(c) => c.country ?? 'unknown'}
                />
              ) : (
                <p className="muted">No purchases.</p>
              )}
            </section>
          </div>
          <section className="card" aria-labelledby="mo-sku">
            <h3 id="mo-sku">Top SKUs</h3>
            {d.top_skus.length ? (
              <DataTable
                caption="The 20 SKUs with the most revenue"
                rows={d.top_skus}
                columns={skuColumns}
                rowKey={(s) => s.sku}
              />
            ) : (
              <p className="muted">No purchases.</p>
            )}
          </section>
          {d.unconverted.length ? (
            <section className="card" aria-labelledby="mo-unconv">
              <h3 id="mo-unconv">Other currencies (not in USD totals)</h3>
              <DataTable
                caption="Purchases in currencies never converted to USD"
                rows={d.unconverted}
                columns={unconvertedColumns}
                rowKey={(u) => u.currency}
              />
            </section>
          ) : null}
          <Method>
            USD counts as is; Robux (ROBUX, R$, RBX) at {d.rates.usd_per_robux} USD each ({d.rates.source}).
            Other currencies are listed apart, never summed.
          </Method>
        </div>
      )}
    </QueryView>
  );
}
