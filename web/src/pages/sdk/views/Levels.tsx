/** Levels: players, attempts, outcomes and attempts to a first finish per level. */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, type Schemas, unwrap } from '../../../api/client';
import { Chart } from '../../../components/Chart';
import { type Column, DataTable } from '../../../components/DataTable';
import { Empty, QueryView } from '../../../components/states';
import { formatInteger, formatPercent, formatScore } from '../../../lib/format';
import { COLOURS, RangeNote, type ViewProps } from '../common';
import { levelOutcomeSeries } from '../sdk-data';

type Level = Schemas['SdkLevels']['levels'][number];

const columns: Column<Level>[] = [
  { key: 'level', header: 'Level', cell: (l) => l.level, sort: (l) => l.level, numeric: true },
  {
    key: 'players',
    header: 'Players',
    cell: (l) => formatInteger(l.players),
    sort: (l) => l.players,
    numeric: true,
  },
  {
    key: 'attempts',
    header: 'Attempts',
    cell: (l) => formatInteger(l.attempts),
    sort: (l) => l.attempts,
    numeric: true,
  },
  {
    key: 'win',
    header: 'Win',
    cell: (l) => formatPercent(l.win_rate),
    sort: (l) => l.win_rate,
    numeric: true,
  },
  {
    key: 'loss',
    header: 'Loss',
    cell: (l) => formatPercent(l.loss_rate),
    sort: (l) => l.loss_rate,
    numeric: true,
  },
  {
    key: 'quit',
    header: 'Quit',
    cell: (l) => formatPercent(l.quit_rate),
    sort: (l) => l.quit_rate,
    numeric: true,
  },
  {
    key: 'complete',
    header: 'Complete',
    cell: (l) => formatPercent(l.complete_rate),
    sort: (l) => l.complete_rate,
    numeric: true,
  },
  {
    key: 'median',
    header: 'Attempts to finish',
    title: 'Median attempts to a first win or complete (players whose first finish is in the range)',
    cell: (l) =>
      formatScore(l.median_attempts_to_complete, Number.isInteger(l.median_attempts_to_complete) ? 0 : 1),
    sort: (l) => l.median_attempts_to_complete,
    numeric: true,
  },
];

export function LevelsView({ gameId, query }: ViewProps) {
  const levels = useQuery({
    queryKey: ['sdk', 'levels', gameId, query],
    queryFn: () =>
      unwrap(
        api.GET('/api/sdk/analytics/{game_id}/levels', { params: { path: { game_id: gameId }, query } }),
      ),
  });
  const l = levels.data;
  const option = useMemo(() => {
    if (!l) return null;
    const s = levelOutcomeSeries(l.levels);
    const bar = (name: string, data: number[], color: string) => ({
      name,
      type: 'bar',
      stack: 'outcome',
      data,
      itemStyle: { color },
    });
    return {
      grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      legend: { top: 0 },
      xAxis: { type: 'category', data: s.labels },
      yAxis: [
        { type: 'value', max: 100, axisLabel: { formatter: '{value}%' } },
        { type: 'value', name: 'Players', splitLine: { show: false } },
      ],
      series: [
        bar('Win', s.win, COLOURS.good),
        bar('Complete', s.complete, COLOURS.second),
        bar('Loss', s.loss, COLOURS.bad),
        bar('Quit', s.quit, COLOURS.muted),
        {
          name: 'Players',
          type: 'line',
          yAxisIndex: 1,
          data: l.levels.map((x) => x.players),
          itemStyle: { color: COLOURS.third },
          lineStyle: { color: COLOURS.third },
        },
      ],
    };
  }, [l]);
  return (
    <QueryView
      query={levels}
      label="Loading levels"
      empty={(d) =>
        d.levels.length === 0 ? (
          <Empty title="No level events in this range yet">
            <p className="muted small">
              Send <code>level</code> events (level, optional score, result win | loss | quit | complete).
            </p>
          </Empty>
        ) : null
      }
    >
      {(d) => (
        <div className="stack">
          <RangeNote data={d} />
          <section className="card" aria-labelledby="lv-chart">
            <h3 id="lv-chart">Outcomes and players per level</h3>
            {option ? (
              <Chart
                option={option}
                label={`Share of attempts won, completed, lost and quit per level, with players reaching each, for ${d.levels.length} levels`}
              />
            ) : null}
          </section>
          <section className="card" aria-labelledby="lv-table">
            <h3 id="lv-table">Every level</h3>
            <DataTable
              testId="levels-table"
              caption="Levels"
              rows={d.levels}
              columns={columns}
              rowKey={(x) => x.level}
            />
          </section>
        </div>
      )}
    </QueryView>
  );
}
