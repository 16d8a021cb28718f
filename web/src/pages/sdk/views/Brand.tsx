/** Brand activation: zone reach and dwell, equips and repeat-equip, the share funnel (or proxies). */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, type Schemas, unwrap } from '../../../api/client';
import { Chart } from '../../../components/Chart';
import { type Column, DataTable } from '../../../components/DataTable';
import { QueryView } from '../../../components/states';
import { formatInteger, formatPercent } from '../../../lib/format';
import { COLOURS, Method, NoEvents, RangeNote, Stat, type ViewProps } from '../common';
import { formatSeconds, shareFunnelStages } from '../sdk-data';

type B = Schemas['SdkBrand'];

const zoneColumns: Column<B['zones'][number]>[] = [
  { key: 'zone', header: 'Zone', cell: (z) => <code>{z.zone_id}</code>, sort: (z) => z.zone_id },
  {
    key: 'reach',
    header: 'Reach (players)',
    cell: (z) => formatInteger(z.reach),
    sort: (z) => z.reach,
    numeric: true,
  },
  {
    key: 'entries',
    header: 'Entries',
    cell: (z) => formatInteger(z.entries),
    sort: (z) => z.entries,
    numeric: true,
  },
  { key: 'exits', header: 'Exits', cell: (z) => formatInteger(z.exits), sort: (z) => z.exits, numeric: true },
  {
    key: 'dwell',
    header: 'Median dwell',
    cell: (z) => formatSeconds(z.median_dwell_s),
    sort: (z) => z.median_dwell_s,
    numeric: true,
  },
];
const itemColumns: Column<B['items'][number]>[] = [
  { key: 'item', header: 'Item', cell: (i) => <code>{i.item_id}</code>, sort: (i) => i.item_id },
  {
    key: 'players',
    header: 'Players',
    cell: (i) => formatInteger(i.players),
    sort: (i) => i.players,
    numeric: true,
  },
  {
    key: 'equips',
    header: 'Equips',
    cell: (i) => formatInteger(i.equips),
    sort: (i) => i.equips,
    numeric: true,
  },
  {
    key: 'repeat',
    header: 'Repeat players',
    title: 'Equipped it on 2 or more distinct UTC days',
    cell: (i) => formatInteger(i.repeat_players),
    sort: (i) => i.repeat_players,
    numeric: true,
  },
  {
    key: 'rate',
    header: 'Repeat rate',
    cell: (i) => formatPercent(i.repeat_rate),
    sort: (i) => i.repeat_rate,
    numeric: true,
  },
];
const shareColumns: Column<B['share_funnel']['by_share_platform'][number]>[] = [
  { key: 'dest', header: 'Destination', cell: (s) => s.share_platform, sort: (s) => s.share_platform },
  {
    key: 'players',
    header: 'Players',
    cell: (s) => formatInteger(s.players),
    sort: (s) => s.players,
    numeric: true,
  },
  {
    key: 'shares',
    header: 'Shares',
    cell: (s) => formatInteger(s.shares),
    sort: (s) => s.shares,
    numeric: true,
  },
  {
    key: 'conv',
    header: 'Of equipped',
    cell: (s) => formatPercent(s.conversion),
    sort: (s) => s.conversion,
    numeric: true,
  },
];

export function BrandView({ gameId, query }: ViewProps) {
  const brand = useQuery({
    queryKey: ['sdk', 'brand', gameId, query],
    queryFn: () =>
      unwrap(api.GET('/api/sdk/analytics/{game_id}/brand', { params: { path: { game_id: gameId }, query } })),
  });
  const b = brand.data;
  const option = useMemo(() => {
    if (!b) return null;
    const stages = shareFunnelStages(b.share_funnel);
    return {
      grid: { left: 8, right: 16, top: 24, bottom: 8, containLabel: true },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      xAxis: { type: 'category', data: stages.map((s) => s.stage), axisLabel: { interval: 0 } },
      yAxis: { type: 'value', name: 'Players' },
      series: [
        {
          name: 'Players',
          type: 'bar',
          data: stages.map((s) => s.players),
          itemStyle: { color: COLOURS.primary },
          label: {
            show: true,
            position: 'top',
            formatter: (p: { dataIndex: number; value: number }) => {
              const c = stages[p.dataIndex]?.conversion;
              return c == null ? formatInteger(p.value) : `${formatInteger(p.value)} · ${formatPercent(c)}`;
            },
          },
        },
      ],
    };
  }, [b]);
  return (
    <QueryView
      query={brand}
      label="Loading brand activation"
      empty={(d) => (d.proxies && d.proxies.reach === 0 ? <NoEvents /> : null)}
    >
      {(d) => (
        <div className="stack">
          <RangeNote data={d} />
          {d.proxies ? (
            <section className="notice stack" aria-labelledby="br-proxy" data-testid="brand-proxies">
              <h3 id="br-proxy">No brand-activation events in this range: estimates from general activity</h3>
              <div className="stats">
                <Stat label="Reach (proxy)" value={formatInteger(d.proxies.reach)} note="active players" />
                <Stat
                  label="Dwell (proxy)"
                  value={formatSeconds(d.proxies.dwell_s)}
                  note="average session length"
                />
                <Stat
                  label="Repeat-equip (proxy)"
                  value={formatPercent(d.proxies.repeat_equip_rate)}
                  note="paying / active players"
                />
              </div>
              <p className="small muted">{d.proxies.method}</p>
            </section>
          ) : (
            <>
              <div className="stats">
                <Stat
                  label="Zone reach"
                  value={formatInteger(d.share_funnel.zone_reach.players)}
                  note="players in any zone"
                />
                <Stat
                  label="Equipped"
                  value={formatInteger(d.share_funnel.equipped.players)}
                  note={`${formatPercent(d.share_funnel.equipped.conversion)} of reach`}
                />
                <Stat
                  label="Shared"
                  value={formatInteger(d.share_funnel.shared.players)}
                  note={`${formatPercent(d.share_funnel.shared.conversion)} of equipped`}
                />
                <Stat
                  label="Reach → share"
                  value={formatPercent(d.share_funnel.overall_conversion)}
                  note="overall"
                />
              </div>
              <div className="grid-2">
                <section className="card" aria-labelledby="br-funnel">
                  <h3 id="br-funnel">Share funnel</h3>
                  {option ? (
                    <Chart
                      option={option}
                      label={`Share funnel: ${d.share_funnel.zone_reach.players} reached a zone, ${d.share_funnel.equipped.players} equipped, ${d.share_funnel.shared.players} shared`}
                    />
                  ) : null}
                </section>
                <section className="card" aria-labelledby="br-dest">
                  <h3 id="br-dest">Shares by destination</h3>
                  {d.share_funnel.by_share_platform.length ? (
                    <DataTable
                      caption="Shared stage per destination"
                      rows={d.share_funnel.by_share_platform}
                      columns={shareColumns}
                      rowKey={(s) => s.share_platform}
                    />
                  ) : (
                    <p className="muted">No shares in this range.</p>
                  )}
                </section>
              </div>
              <section className="card" aria-labelledby="br-zones">
                <h3 id="br-zones">Brand zones</h3>
                {d.zones.length ? (
                  <DataTable
                    testId="brand-zones"
                    caption="Brand zones"
                    rows={d.zones}
                    columns={zoneColumns}
                    rowKey={(z) => z.zone_id}
                  />
                ) : (
                  <p className="muted">No zone entered in this range.</p>
                )}
              </section>
              <section className="card" aria-labelledby="br-items">
                <h3 id="br-items">Items equipped</h3>
                {d.items.length ? (
                  <DataTable
                    caption="Items equipped"
                    rows={d.items}
                    columns={itemColumns}
                    rowKey={(i) => i.item_id}
                  />
                ) : (
                  <p className="muted">No item equipped in this range.</p>
                )}
              </section>
            </>
          )}
          <Method>
            Dwell median: {d.percentile_method}. Funnel stages are sets of players over the range, in any
            order.
          </Method>
        </div>
      )}
    </QueryView>
  );
}
