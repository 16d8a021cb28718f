/** Engagement: actives, stickiness, new vs returning, sessions and playtime. */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, type Schemas, unwrap } from '../../../api/client';
import { Chart } from '../../../components/Chart';
import { type Column, DataTable } from '../../../components/DataTable';
import { QueryView } from '../../../components/states';
import { formatDay, formatInteger, formatPercent, formatScore } from '../../../lib/format';
import { timeOption } from '../chart-options';
import { COLOURS, Method, NoEvents, RangeNote, Stat, type ViewProps } from '../common';
import { formatSeconds } from '../sdk-data';

type Point = Schemas['SdkEngagement']['series'][number];

const SOURCES: Record<string, string> = {
  session_end: 'from session_end duration_s',
  event_span: 'from first to last event of each session',
  mixed: 'session_end where sent, else event span',
  none: 'no sessions in the range',
};

const columns: Column<Point>[] = [
  { key: 'date', header: 'Day', cell: (p) => formatDay(p.date), sort: (p) => p.date },
  {
    key: 'dau',
    header: 'DAU',
    cell: (p) => formatScore(p.dau, Number.isInteger(p.dau) ? 0 : 1),
    sort: (p) => p.dau,
    numeric: true,
  },
  { key: 'wau', header: 'WAU', cell: (p) => formatInteger(p.wau), sort: (p) => p.wau, numeric: true },
  { key: 'mau', header: 'MAU', cell: (p) => formatInteger(p.mau), sort: (p) => p.mau, numeric: true },
  {
    key: 'stickiness',
    header: 'Stickiness',
    title: 'DAU / MAU',
    cell: (p) => formatPercent(p.stickiness),
    sort: (p) => p.stickiness,
    numeric: true,
  },
  {
    key: 'new',
    header: 'New',
    cell: (p) => formatInteger(p.new_players),
    sort: (p) => p.new_players,
    numeric: true,
  },
  {
    key: 'returning',
    header: 'Returning',
    cell: (p) => formatInteger(p.returning_players),
    sort: (p) => p.returning_players,
    numeric: true,
  },
];

export function EngagementView({ gameId, query }: ViewProps) {
  const engagement = useQuery({
    queryKey: ['sdk', 'engagement', gameId, query],
    queryFn: () =>
      unwrap(
        api.GET('/api/sdk/analytics/{game_id}/engagement', { params: { path: { game_id: gameId }, query } }),
      ),
  });
  const e = engagement.data;
  const charts = useMemo(() => {
    if (!e) return null;
    const dates = e.series.map((p) => p.date);
    return {
      actives: timeOption(dates, [
        { name: 'DAU', data: e.series.map((p) => p.dau), colour: COLOURS.primary },
        { name: 'WAU', data: e.series.map((p) => p.wau), colour: COLOURS.second },
        { name: 'MAU', data: e.series.map((p) => p.mau), colour: COLOURS.third },
      ]),
      mix: timeOption(dates, [
        {
          name: 'New',
          data: e.series.map((p) => p.new_players),
          colour: COLOURS.good,
          type: 'bar',
          stack: 'players',
        },
        {
          name: 'Returning',
          data: e.series.map((p) => p.returning_players),
          colour: COLOURS.primary,
          type: 'bar',
          stack: 'players',
        },
      ]),
      stickiness: timeOption(
        dates,
        [
          {
            name: 'Stickiness (DAU/MAU)',
            data: e.series.map((p) => (p.stickiness == null ? null : Math.round(p.stickiness * 1000) / 10)),
            colour: COLOURS.warn,
            area: true,
          },
        ],
        { percent: true },
      ),
    };
  }, [e]);
  return (
    <QueryView
      query={engagement}
      label="Loading engagement"
      empty={(d) => (d.series.every((p) => p.dau === 0) ? <NoEvents /> : null)}
    >
      {(d) => (
        <div className="stack">
          <RangeNote data={d} />
          <div className="stats">
            <Stat
              label="Sessions / player"
              value={formatScore(d.sessions_per_player, 2)}
              note="sessions started / players"
            />
            <Stat
              label="Session length"
              value={formatSeconds(d.session_length_s.avg)}
              note={`median ${formatSeconds(d.session_length_s.p50)} · p90 ${formatSeconds(d.session_length_s.p90)}`}
            />
            <Stat
              label="Playtime / player-day"
              value={formatSeconds(d.playtime_per_player_day_s.avg)}
              note={`median ${formatSeconds(d.playtime_per_player_day_s.p50)} · p90 ${formatSeconds(d.playtime_per_player_day_s.p90)}`}
            />
            <Stat
              label="Length source"
              value={d.session_length_source.replace('_', ' ')}
              note={SOURCES[d.session_length_source]}
            />
          </div>
          {charts ? (
            <div className="grid-2">
              <section className="card" aria-labelledby="en-actives">
                <h3 id="en-actives">DAU, WAU and MAU</h3>
                <Chart
                  option={charts.actives}
                  label={`Daily, weekly and monthly active players from ${d.from} to ${d.to}`}
                />
              </section>
              <section className="card" aria-labelledby="en-mix">
                <h3 id="en-mix">New and returning players</h3>
                <Chart option={charts.mix} label="New and returning players per period, stacked" />
              </section>
              <section className="card" aria-labelledby="en-stick">
                <h3 id="en-stick">Stickiness</h3>
                <Chart option={charts.stickiness} label="Stickiness, DAU divided by MAU, per period" />
              </section>
            </div>
          ) : null}
          <details className="card">
            <summary>Every {d.granularity} as a table</summary>
            <DataTable
              caption="Engagement per period"
              rows={d.series}
              columns={columns}
              rowKey={(p) => p.date}
            />
          </details>
          <Method>
            Per ISO week, DAU is the average over the week's days in the range; WAU, MAU and stickiness those
            of its last day. Percentiles: {d.percentile_method}.
          </Method>
        </div>
      )}
    </QueryView>
  );
}
