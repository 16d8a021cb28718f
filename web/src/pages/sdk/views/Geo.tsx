/** Geo: players, new players and revenue per country. */
import { useQuery } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../../api/client';
import { Chart } from '../../../components/Chart';
import { type Column, DataTable } from '../../../components/DataTable';
import { QueryView } from '../../../components/states';
import { formatInteger, formatUsd } from '../../../lib/format';
import { rankedBarOption } from '../chart-options';
import { COLOURS, Method, NoEvents, RangeNote, type ViewProps } from '../common';
import { countryName } from '../sdk-data';

type Row = Schemas['SdkGeo']['countries'][number];

const columns: Column<Row>[] = [
  {
    key: 'country',
    header: 'Country',
    cell: (c) => (c.country ? `${countryName(c.country)} (${c.country})` : 'Unknown'),
    sort: (c) => c.country,
  },
  {
    key: 'players',
    header: 'Players',
    cell: (c) => formatInteger(c.players),
    sort: (c) => c.players,
    numeric: true,
  },
  {
    key: 'new',
    header: 'New players',
    cell: (c) => formatInteger(c.new_players),
    sort: (c) => c.new_players,
    numeric: true,
  },
  {
    key: 'revenue',
    header: 'Revenue',
    cell: (c) => formatUsd(c.revenue_usd),
    sort: (c) => c.revenue_usd,
    numeric: true,
  },
];

export function GeoView({ gameId, query }: ViewProps) {
  const geo = useQuery({
    queryKey: ['sdk', 'geo', gameId, query],
    queryFn: () =>
      unwrap(api.GET('/api/sdk/analytics/{game_id}/geo', { params: { path: { game_id: gameId }, query } })),
  });
  return (
    <QueryView
      query={geo}
      label="Loading countries"
      empty={(d) => (d.countries.length === 0 ? <NoEvents /> : null)}
    >
      {(d) => {
        const top = d.countries.slice(0, 15);
        return (
          <div className="stack">
            <RangeNote data={d} />
            <div className="grid-2">
              <section className="card" aria-labelledby="geo-chart">
                <h3 id="geo-chart">Players by country</h3>
                <Chart
                  height={Math.max(180, top.length * 24)}
                  option={rankedBarOption(
                    top.map((c) => countryName(c.country)),
                    top.map((c) => c.players),
                    COLOURS.primary,
                    'Players',
                  )}
                  label={`Players by country, top ${top.length}: ${top
                    .slice(0, 5)
                    .map((c) => `${countryName(c.country)} ${c.players}`)
                    .join(', ')}`}
                />
              </section>
              <section className="card" aria-labelledby="geo-table">
                <h3 id="geo-table">Every country</h3>
                <DataTable
                  testId="geo-table"
                  caption="Players, new players and revenue per country"
                  rows={d.countries}
                  columns={columns}
                  rowKey={(c) => c.country ?? 'unknown'}
                />
              </section>
            </div>
            <Method>
              A player who moved counts in each country; new players under their first day's country. Revenue
              in USD, Robux at {d.rates.usd_per_robux} ({d.rates.source}).
              {d.unconverted_purchases > 0
                ? ` ${formatInteger(d.unconverted_purchases)} purchases in other currencies are left out.`
                : ''}
            </Method>
          </div>
        );
      }}
    </QueryView>
  );
}
