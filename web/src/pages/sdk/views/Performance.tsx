/** Performance: the FPS histogram, fps percentiles overall and per device, frame time, memory. */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, type Schemas, unwrap } from '../../../api/client';
import { Chart } from '../../../components/Chart';
import { type Column, DataTable } from '../../../components/DataTable';
import { Empty, QueryView } from '../../../components/states';
import { formatInteger, formatScore } from '../../../lib/format';
import { COLOURS, Method, RangeNote, Stat, type ViewProps } from '../common';
import { fpsBucketLabel } from '../sdk-data';

type P = Schemas['SdkPerformance'];
type DeviceRow = Omit<P['by_device'][number], 'device'> & { device: string; key: string };

const fps = (n: number | null) => (n == null ? '–' : `${formatScore(n, 1)} fps`);
const ms = (n: number | null) => (n == null ? '–' : `${formatScore(n, 1)} ms`);
const mb = (n: number | null) => (n == null ? '–' : `${formatInteger(n)} MB`);

const columns: Column<DeviceRow>[] = [
  { key: 'device', header: 'Device', cell: (d) => d.device, sort: (d) => d.device },
  {
    key: 'samples',
    header: 'Samples',
    cell: (d) => formatInteger(d.samples),
    sort: (d) => d.samples,
    numeric: true,
  },
  {
    key: 'sessions',
    header: 'Sessions',
    cell: (d) => formatInteger(d.sessions_sampled),
    sort: (d) => d.sessions_sampled,
    numeric: true,
  },
  {
    key: 'players',
    header: 'Players',
    cell: (d) => formatInteger(d.players_sampled),
    sort: (d) => d.players_sampled,
    numeric: true,
  },
  { key: 'p5', header: 'FPS p5', cell: (d) => fps(d.fps_avg.p5), sort: (d) => d.fps_avg.p5, numeric: true },
  {
    key: 'p50',
    header: 'FPS p50',
    cell: (d) => fps(d.fps_avg.p50),
    sort: (d) => d.fps_avg.p50,
    numeric: true,
  },
  {
    key: 'p95',
    header: 'FPS p95',
    cell: (d) => fps(d.fps_avg.p95),
    sort: (d) => d.fps_avg.p95,
    numeric: true,
  },
  {
    key: 'frame',
    header: 'Frame time p95',
    cell: (d) => ms(d.frame_time_ms_p95),
    sort: (d) => d.frame_time_ms_p95,
    numeric: true,
  },
  {
    key: 'mem',
    header: 'Memory p50',
    cell: (d) => mb(d.memory_mb_p50),
    sort: (d) => d.memory_mb_p50,
    numeric: true,
  },
];

function deviceRows(p: P): DeviceRow[] {
  const rows: DeviceRow[] = p.by_device.map((d, i) => ({
    ...d,
    device: d.device ?? '(not named)',
    key: `${i}`,
  }));
  if (p.other_devices) {
    rows.push({
      ...p.other_devices,
      device: `${formatInteger(p.other_devices.devices)} other devices`,
      key: 'other',
    });
  }
  return rows;
}

export function PerformanceView({ gameId, query }: ViewProps) {
  const perf = useQuery({
    queryKey: ['sdk', 'performance', gameId, query],
    queryFn: () =>
      unwrap(
        api.GET('/api/sdk/analytics/{game_id}/performance', { params: { path: { game_id: gameId }, query } }),
      ),
  });
  const p = perf.data;
  const option = useMemo(() => {
    if (!p) return null;
    const colour = (from: number) => (from < 20 ? COLOURS.bad : from < 40 ? COLOURS.warn : COLOURS.good);
    return {
      grid: { left: 8, right: 16, top: 24, bottom: 8, containLabel: true },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      xAxis: {
        type: 'category',
        data: p.fps_histogram.map((b) => fpsBucketLabel(b.from_fps, b.to_fps)),
      },
      yAxis: { type: 'value', name: 'Samples' },
      series: [
        {
          name: 'Samples',
          type: 'bar',
          data: p.fps_histogram.map((b) => ({ value: b.samples, itemStyle: { color: colour(b.from_fps) } })),
        },
      ],
    };
  }, [p]);
  return (
    <QueryView
      query={perf}
      label="Loading performance"
      empty={(d) =>
        d.samples === 0 ? (
          <Empty title="No performance samples in this range yet">
            <p className="muted small">
              Send <code>performance</code> events (fps_avg, optional frame_time_ms_p95, memory_mb, device).
            </p>
          </Empty>
        ) : null
      }
    >
      {(d) => (
        <div className="stack">
          <RangeNote data={d} />
          <div className="stats">
            <Stat label="FPS p5" value={fps(d.fps_avg.p5)} note="the slowest 5% of samples" />
            <Stat label="FPS p50" value={fps(d.fps_avg.p50)} note="median sample" />
            <Stat label="FPS p95" value={fps(d.fps_avg.p95)} />
            <Stat label="Frame time p95" value={ms(d.frame_time_ms_p95)} />
            <Stat label="Memory p50" value={mb(d.memory_mb_p50)} />
            <Stat label="Samples" value={formatInteger(d.samples)} note="performance events" />
            <Stat label="Sessions sampled" value={formatInteger(d.sessions_sampled)} />
            <Stat label="Players sampled" value={formatInteger(d.players_sampled)} />
          </div>
          <section className="card" aria-labelledby="pf-hist">
            <h3 id="pf-hist">FPS histogram</h3>
            {option ? (
              <Chart
                option={option}
                testId="perf-histogram"
                label={`Samples per frames-per-second bucket: ${d.fps_histogram
                  .map((b) => `${fpsBucketLabel(b.from_fps, b.to_fps)} fps ${b.samples}`)
                  .join(', ')}`}
              />
            ) : null}
          </section>
          <section className="card" aria-labelledby="pf-dev">
            <h3 id="pf-dev">By device</h3>
            <DataTable
              testId="perf-devices"
              caption="Performance per device, the 20 with the most samples, then the others together"
              rows={deviceRows(d)}
              columns={columns}
              rowKey={(r) => r.key}
            />
            {d.other_devices ? (
              <p className="muted small">
                Sessions and players of the other devices are sums per device: a player on two of them counts
                twice.
              </p>
            ) : null}
          </section>
          <Method>Percentiles: {d.percentile_method}.</Method>
        </div>
      )}
    </QueryView>
  );
}
