/** ECharts options shared by the SDK views: time series as lines or bars over UTC days. */
import type { EChartsCoreOption } from '../../components/echarts';
import { formatDay } from '../../lib/format';

export interface SeriesSpec {
  name: string;
  data: (number | null)[];
  colour: string;
  type?: 'line' | 'bar';
  stack?: string;
  area?: boolean;
  yAxisIndex?: number;
}

const GRID = { left: 8, right: 16, top: 36, bottom: 8, containLabel: true };

/** Series over the days (or ISO weeks) of a view; `percent` axes read 0–100 with a % sign. */
export function timeOption(
  dates: string[],
  series: SeriesSpec[],
  opts: { percent?: boolean; yMin?: number | 'floor5'; money?: boolean; secondAxis?: string } = {},
): EChartsCoreOption {
  const unit = opts.percent ? '{value}%' : opts.money ? (v: number) => `$${v}` : '{value}';
  return {
    grid: GRID,
    tooltip: { trigger: 'axis' },
    legend: series.length > 1 ? { top: 0 } : undefined,
    xAxis: {
      type: 'category',
      data: dates.map(formatDay),
      boundaryGap: series.some((s) => s.type === 'bar'),
    },
    yAxis: [
      {
        type: 'value',
        axisLabel: { formatter: unit },
        ...(opts.yMin === 'floor5'
          ? { min: (v: { min: number }) => Math.max(0, Math.floor(v.min / 5) * 5) }
          : opts.yMin != null
            ? { min: opts.yMin }
            : {}),
      },
      ...(opts.secondAxis
        ? [
            {
              type: 'value',
              name: opts.secondAxis.trim() || undefined,
              splitLine: { show: false },
              minInterval: 1,
            },
          ]
        : []),
    ],
    series: series.map((s) => ({
      name: s.name,
      type: s.type ?? 'line',
      data: s.data,
      smooth: false,
      showSymbol: dates.length <= 31,
      connectNulls: false,
      itemStyle: { color: s.colour },
      lineStyle: { color: s.colour },
      ...(s.stack ? { stack: s.stack } : {}),
      ...(s.area ? { areaStyle: { opacity: 0.12 } } : {}),
      ...(s.yAxisIndex ? { yAxisIndex: s.yAxisIndex } : {}),
    })),
  };
}

/** Horizontal bars for a ranked list (countries, devices): the first item on top. */
export function rankedBarOption(
  labels: string[],
  values: number[],
  colour: string,
  name: string,
): EChartsCoreOption {
  return {
    grid: { ...GRID, top: 8 },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: { type: 'value' },
    yAxis: { type: 'category', data: [...labels].reverse(), axisLabel: { width: 110, overflow: 'truncate' } },
    series: [{ name, type: 'bar', data: [...values].reverse(), itemStyle: { color: colour } }],
  };
}
