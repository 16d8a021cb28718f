/** Retention: the cohort heatmap (day 1..30 per cohort) and the weighted day 1/7/30 figures. */
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { api, type Schemas, unwrap } from '../../../api/client';
import { Chart } from '../../../components/Chart';
import { type Column, DataTable } from '../../../components/DataTable';
import { QueryView } from '../../../components/states';
import { retentionCells } from '../../../lib/chart-data';
import { formatDay, formatInteger, formatPercent } from '../../../lib/format';
import { Method, NoEvents, RangeNote, Stat, usePrefersDark, type ViewProps } from '../common';

type Cohort = Schemas['SdkRetention']['cohorts'][number];
type Kind = 'classic' | 'rolling';

const day = (c: Cohort, kind: Kind, n: number) => c[kind][n - 1] ?? null;

function cohortColumns(kind: Kind): Column<Cohort>[] {
  return [
    { key: 'date', header: 'Cohort', cell: (c) => formatDay(c.date), sort: (c) => c.date },
    {
      key: 'size',
      header: 'Players',
      cell: (c) => formatInteger(c.size),
      sort: (c) => c.size,
      numeric: true,
    },
    ...[1, 3, 7, 14, 30].map(
      (n): Column<Cohort> => ({
        key: `d${n}`,
        header: `D${n}`,
        cell: (c) => formatPercent(day(c, kind, n)),
        sort: (c) => day(c, kind, n),
        numeric: true,
      }),
    ),
  ];
}

export function RetentionView({ gameId, query }: ViewProps) {
  const [kind, setKind] = useState<Kind>('classic');
  const dark = usePrefersDark();
  const retention = useQuery({
    queryKey: ['sdk', 'retention', gameId, query],
    queryFn: () =>
      unwrap(
        api.GET('/api/sdk/analytics/{game_id}/retention', { params: { path: { game_id: gameId }, query } }),
      ),
  });
  const r = retention.data;
  const heat = useMemo(() => (r ? retentionCells(r.cohorts, kind) : null), [r, kind]);
  const option = useMemo(() => {
    if (!heat) return null;
    const max = Math.max(1, ...heat.cells.map((c) => c[2]));
    return {
      grid: { left: 8, right: 16, top: 8, bottom: 72, containLabel: true },
      tooltip: {
        position: 'top',
        formatter: (p: { value: [number, number, number] }) => {
          const row = heat.rows[p.value[1]];
          return row
            ? `Cohort ${formatDay(row.date)} (${formatInteger(row.size)} players)<br/>Day ${p.value[0] + 1}: ${p.value[2]}%`
            : '';
        },
      },
      xAxis: { type: 'category', data: heat.days, splitArea: { show: true } },
      yAxis: {
        type: 'category',
        data: heat.rows.map((row) => `${formatDay(row.date)} · ${formatInteger(row.size)}`),
        inverse: true,
        splitArea: { show: true },
      },
      visualMap: {
        min: 0,
        max,
        calculable: true,
        orient: 'horizontal',
        left: 'center',
        bottom: 4,
        itemWidth: 12,
        formatter: (v: number) => `${Math.round(v)}%`,
        inRange: { color: dark ? ['#1e1b4b', '#4f46e5', '#c7d2fe'] : ['#e0e7ff', '#818cf8', '#3730a3'] },
      },
      series: [
        {
          name: `${kind} retention`,
          type: 'heatmap',
          data: heat.cells,
          label: {
            show: heat.rows.length <= 16,
            fontSize: 9,
            formatter: (p: { value: number[] }) => Math.round(p.value[2] ?? 0),
          },
          emphasis: { itemStyle: { borderColor: '#111', borderWidth: 1 } },
        },
      ],
    };
  }, [heat, kind, dark]);
  return (
    <QueryView
      query={retention}
      label="Loading retention"
      empty={(d) => (d.cohorts.every((c) => c.size === 0) ? <NoEvents what="new players" /> : null)}
    >
      {(d) => (
        <div className="stack">
          <RangeNote data={d} />
          <div className="stats">
            {(['d1', 'd7', 'd30'] as const).map((k) => (
              <Stat
                key={`c-${k}`}
                label={`Classic ${k.toUpperCase()}`}
                value={formatPercent(d.summary.classic[k])}
                note={`active on exactly day ${k.slice(1)}`}
              />
            ))}
            {(['d1', 'd7', 'd30'] as const).map((k) => (
              <Stat
                key={`r-${k}`}
                label={`Rolling ${k.toUpperCase()}`}
                value={formatPercent(d.summary.rolling[k])}
                note={`active on day ${k.slice(1)} or later`}
              />
            ))}
          </div>
          <section className="card stack" aria-labelledby="ret-heat">
            <div className="page-header">
              <h3 id="ret-heat">Cohorts by first day</h3>
              <fieldset className="segmented" aria-label="Retention kind">
                <button type="button" aria-pressed={kind === 'classic'} onClick={() => setKind('classic')}>
                  Classic
                </button>
                <button type="button" aria-pressed={kind === 'rolling'} onClick={() => setKind('rolling')}>
                  Rolling
                </button>
              </fieldset>
            </div>
            {heat && heat.days.length === 0 ? (
              <p className="notice">No cohort of this range has reached its day 1 yet: come back tomorrow.</p>
            ) : heat && option ? (
              <section
                className="table-scroll"
                aria-label="Retention heatmap, scrolls sideways"
                // biome-ignore lint/a11y/noNoninteractiveTabindex: the wide heatmap scrolls sideways on a phone; focus lets the keyboard scroll it
                tabIndex={0}
              >
                <div className="sdk-heatmap">
                  <Chart
                    option={option}
                    testId="retention-heatmap"
                    height={Math.max(260, heat.rows.length * 24 + 90)}
                    label={`${kind === 'classic' ? 'Classic' : 'Rolling'} retention heatmap: ${heat.rows.length} cohorts, days 1 to ${heat.days.length}. Weighted day 1 ${formatPercent(d.summary[kind].d1)}, day 7 ${formatPercent(d.summary[kind].d7)}.`}
                  />
                </div>
              </section>
            ) : null}
            <p className="muted small">
              Rows: players first seen that UTC day (cohort size after the date). Cells: the share active on
              day N{kind === 'rolling' ? ' or any later day' : ''}; blank where day N has not come yet.
            </p>
          </section>
          <details className="card">
            <summary>Cohorts as a table</summary>
            <DataTable
              caption={`${kind} retention per cohort`}
              rows={d.cohorts.filter((c) => c.size > 0)}
              columns={cohortColumns(kind)}
              rowKey={(c) => c.date}
            />
          </details>
          <Method>
            Summary figures are weighted by cohort size over the cohorts where that day is already observed.
          </Method>
        </div>
      )}
    </QueryView>
  );
}
