/** Overview: the game at a glance (GET /api/sdk/analytics/{game_id}/overview). */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, unwrap } from '../../../api/client';
import { Chart } from '../../../components/Chart';
import { type Column, DataTable } from '../../../components/DataTable';
import { QueryView } from '../../../components/states';
import { formatCompact, formatDay, formatInteger, formatUsd } from '../../../lib/format';
import { rankedBarOption, timeOption } from '../chart-options';
import { COLOURS, Method, NoEvents, RangeNote, Stat, type ViewProps } from '../common';
import { countryName, fillDays, formatSeconds } from '../sdk-data';

type Country = { country: string; players: number };

const countryColumns: Column<Country>[] = [
  {
    key: 'country',
    header: 'Country',
    cell: (c) => `${countryName(c.country)} (${c.country})`,
    sort: (c) => c.country,
  },
  {
    key: 'players',
    header: 'Players',
    cell: (c) => formatInteger(c.players),
    sort: (c) => c.players,
    numeric: true,
  },
];

export function OverviewView({ gameId, query }: ViewProps) {
  const overview = useQuery({
    queryKey: ['sdk', 'overview', gameId, query],
    queryFn: () =>
      unwrap(
        api.GET('/api/sdk/analytics/{game_id}/overview', { params: { path: { game_id: gameId }, query } }),
      ),
  });
  const o = overview.data;
  const days = useMemo(
    () => (o ? fillDays(o.dau, o.from, o.to, o.granularity, (date) => ({ date, players: 0 })) : []),
    [o],
  );
  const dauOption = useMemo(() => {
    if (!o) return null;
    return timeOption(
      days.map((d) => d.date),
      [
        {
          name: o.granularity === 'week' ? 'Weekly active players' : 'Daily active players',
          data: days.map((d) => d.players),
          colour: COLOURS.primary,
          area: true,
        },
      ],
    );
  }, [o, days]);
  return (
    <QueryView
      query={overview}
      label="Loading the overview"
      empty={(d) => (d.players === 0 ? <NoEvents /> : null)}
    >
      {(d) => {
        const latest = days.at(-1);
        return (
          <div className="stack">
            <RangeNote data={d} />
            <div className="stats" data-testid="sdk-overview-stats">
              <Stat
                label={d.granularity === 'week' ? 'Actives (last week)' : 'DAU (last day)'}
                value={formatCompact(latest?.players ?? 0)}
                note={latest ? `on ${formatDay(latest.date)}` : undefined}
              />
              <Stat label="WAU" value={formatCompact(d.wau)} note="7 days ending the last day" />
              <Stat label="MAU" value={formatCompact(d.mau)} note="30 days ending the last day" />
              <Stat label="Players" value={formatCompact(d.players)} note="active in the range" />
              <Stat label="New players" value={formatCompact(d.new_players)} note="first seen in the range" />
              <Stat label="Sessions" value={formatCompact(d.sessions)} note="started in the range" />
              <Stat
                label="Playtime / player-day"
                value={formatSeconds(d.playtime_s.avg)}
                note={`median ${formatSeconds(d.playtime_s.p50)} · p90 ${formatSeconds(d.playtime_s.p90)}`}
              />
              <Stat label="Revenue" value={formatUsd(d.revenue_usd)} note="USD + Robux at DevEx" />
              <Stat label="ARPDAU" value={formatUsd(d.arpdau_usd)} note="revenue per player-day" />
              <Stat label="Payers" value={formatCompact(d.paying_players)} note="players who bought" />
            </div>
            <div className="grid-2 sdk-wide-first">
              <section className="card" aria-labelledby="ov-dau">
                <h3 id="ov-dau">Active players per {d.granularity}</h3>
                {dauOption ? (
                  <Chart
                    option={dauOption}
                    testId="dau-chart"
                    label={`Active players per ${d.granularity} from ${d.from} to ${d.to}: latest ${formatInteger(latest?.players ?? 0)}, peak ${formatInteger(Math.max(0, ...d.dau.map((p) => p.players)))}`}
                  />
                ) : null}
              </section>
              <section className="card" aria-labelledby="ov-countries">
                <h3 id="ov-countries">Top countries</h3>
                {d.top_countries.length === 0 ? (
                  <p className="muted">No event carried a country.</p>
                ) : (
                  <>
                    <Chart
                      height={Math.max(160, d.top_countries.length * 26)}
                      option={rankedBarOption(
                        d.top_countries.map((c) => countryName(c.country)),
                        d.top_countries.map((c) => c.players),
                        COLOURS.second,
                        'Players',
                      )}
                      label={`Players by country: ${d.top_countries
                        .slice(0, 5)
                        .map((c) => `${countryName(c.country)} ${c.players}`)
                        .join(', ')}`}
                    />
                    <details>
                      <summary>As a table</summary>
                      <DataTable
                        caption="Top countries by players"
                        rows={d.top_countries}
                        columns={countryColumns}
                        rowKey={(c) => c.country}
                      />
                    </details>
                  </>
                )}
              </section>
            </div>
            <Method>Session and playtime percentiles: {d.percentile_method}.</Method>
          </div>
        );
      }}
    </QueryView>
  );
}
