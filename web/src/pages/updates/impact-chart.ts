/** Chart options and labels of the update-impact page (pure, tested without a browser). */
import type { paths, Schemas } from '../../api/client';
import type { EChartsCoreOption } from '../../components/echarts';

export type Timing =
  paths['/api/update-impact/timing']['get']['responses'][200]['content']['application/json'];
export type Recent =
  paths['/api/update-impact/recent']['get']['responses'][200]['content']['application/json'];
type Weekday = Timing['by_weekday'][number];
type Hour = Timing['by_hour'][number];
type Update = Schemas['UpdateImpact'];

/** 12.5 → "+12.5%", -3 → "−3.0%", 0 → "0.0%". */
export function signedPercent(p: number): string {
  const text = `${Math.abs(p).toFixed(1)}%`;
  return p > 0 ? `+${text}` : p < 0 ? `−${text}` : text;
}

function medianBars(
  labels: string[],
  buckets: { median_percent: number; updates: number }[],
): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis' },
    grid: { left: 48, right: 16, top: 16, bottom: 32 },
    xAxis: { type: 'category', data: labels },
    yAxis: { type: 'value', name: 'median %', axisLabel: { formatter: '{value}%' } },
    series: [
      {
        type: 'bar',
        name: 'Median impact',
        // A bucket without updates has no bar (not a zero one).
        data: buckets.map((b) => (b.updates > 0 ? b.median_percent : null)),
        label: {
          show: true,
          position: 'top',
          formatter: (p: { dataIndex: number }) => `n=${buckets[p.dataIndex]!.updates}`,
        },
      },
    ],
  };
}

export function weekdayBars(days: Weekday[]): EChartsCoreOption {
  return medianBars(
    days.map((d) => d.name.slice(0, 3)),
    days,
  );
}

export function hourBars(hours: Hour[]): EChartsCoreOption {
  return medianBars(
    hours.map((h) => String(h.hour).padStart(2, '0')),
    hours,
  );
}

/** Each measured update, oldest first: its impact as a bar, its 95% interval as a line above and below. */
export function impactBars(updates: Update[]): EChartsCoreOption {
  const measured = updates.filter((u) => u.impact).reverse();
  const labels = measured.map((u) => u.released_at.slice(0, 10));
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { left: 48, right: 16, top: 32, bottom: 32 },
    xAxis: { type: 'category', data: labels },
    yAxis: { type: 'value', axisLabel: { formatter: '{value}%' } },
    series: [
      { type: 'bar', name: 'Impact', data: measured.map((u) => u.impact!.percent) },
      { type: 'line', name: '95% low', data: measured.map((u) => u.impact!.ci95.low), symbol: 'triangle' },
      { type: 'line', name: '95% high', data: measured.map((u) => u.impact!.ci95.high), symbol: 'triangle' },
    ],
  };
}
