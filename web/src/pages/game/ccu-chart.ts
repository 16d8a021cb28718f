/**
 * The game page's CCU chart as an ECharts option: the history (hourly or daily means), and on the
 * daily zoom the forecast continuing it, with the 80% band stacked as lower bound + band height
 * when the plan has bounds. Pure, so chart-data mapping is unit-tested (ccu-chart.test.ts).
 */
import { type ForecastPoint, forecastSeries } from '../../lib/chart-data';
import { formatCompact } from '../../lib/format';

export interface HistoryPoint {
  ts: string;
  ccu: number;
}

const DAY = 86_400_000;

export function dayStart(day: string): number {
  return Date.parse(`${day}T00:00:00Z`);
}

export function ccuChartOption(
  history: HistoryPoint[],
  forecast: ForecastPoint[] | null,
  zoom: 'hourly' | 'daily',
) {
  const past: [number, number][] = history.map((p) => [Date.parse(p.ts), p.ccu]);
  const series: Record<string, unknown>[] = [
    {
      name: zoom === 'hourly' ? 'Hourly mean CCU' : 'Daily mean CCU',
      type: 'line',
      data: past,
      showSymbol: past.length < 40,
      lineStyle: { width: 2 },
    },
  ];
  const f = zoom === 'daily' && forecast && forecast.length > 0 ? forecastSeries(forecast) : null;
  if (f) {
    const at = f.days.map(dayStart);
    // The forecast line starts at the last observed day so the two lines join.
    const last = past.at(-1);
    const line: [number, number][] = at.map((t, i) => [t, Math.round(f.predicted[i]!)]);
    if (last && last[0] < at[0]! && at[0]! - last[0] <= 2 * DAY) line.unshift(last);
    series.push({
      name: 'Forecast',
      type: 'line',
      data: line,
      showSymbol: false,
      lineStyle: { type: 'dashed', width: 2 },
    });
    if (f.band) {
      series.push(
        {
          name: '80% band (lower)',
          type: 'line',
          stack: 'band',
          data: at.map((t, i) => [t, Math.round(f.band!.lower[i]!)]),
          lineStyle: { opacity: 0 },
          showSymbol: false,
          tooltip: { show: false },
        },
        {
          name: '80% interval',
          type: 'line',
          stack: 'band',
          data: at.map((t, i) => [t, Math.round(f.band!.height[i]!)]),
          lineStyle: { opacity: 0 },
          areaStyle: { opacity: 0.25 },
          showSymbol: false,
        },
      );
    }
  }
  return {
    grid: { left: 56, right: 16, top: 32, bottom: 40 },
    legend: { top: 0, data: series.map((s) => s.name).filter((n) => n !== '80% band (lower)') },
    tooltip: { trigger: 'axis', valueFormatter: (v: number) => formatCompact(v) },
    xAxis: { type: 'time' },
    yAxis: { type: 'value', axisLabel: { formatter: (v: number) => formatCompact(v) } },
    series,
  };
}
