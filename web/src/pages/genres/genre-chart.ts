/**
 * The opportunity map as an ECharts option (pure, tested in genre-chart.test.ts): one scatter series
 * per verdict from genreBubbleSeries, the crowded side of the map shaded from the 0.6 divider, and a
 * tooltip that names the genre with its numbers.
 */
import type { GenreBubblePoint, GenreBubbleSeries } from '../../lib/chart-data';
import { formatCompact, formatPercent, formatScore } from '../../lib/format';

/** saturation_index at and past which a genre is crowded (the API's verdict uses the same line). */
export const CROWDED_AT = 0.6;

const DIVIDER = '#8b8fa0';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The tooltip's lines for one bubble (plain text; the formatter escapes and joins them). */
export function genreTooltipLines(point: GenreBubblePoint, verdictLabel: string): string[] {
  const [saturation, growth, demand, score] = point.value;
  return [
    point.name,
    `Verdict: ${verdictLabel}`,
    `Opportunity score: ${formatScore(score, 0)}`,
    `Saturation: ${formatScore(saturation, 2)}${saturation >= CROWDED_AT ? ' (crowded)' : ''}`,
    `Growth (7 d): ${point.growthKnown ? formatPercent(growth, { signed: true }) : 'no baseline yet'}`,
    `Demand per game: ${formatCompact(demand)} CCU`,
  ];
}

interface TooltipParams {
  seriesName?: string;
  data?: unknown;
}

/**
 * `compact` (a phone-sized chart) shrinks the bubbles to 60% and the labels, so a 350 px wide map
 * is not one blot.
 */
export function genreChartOption(
  series: GenreBubbleSeries[],
  { compact = false }: { compact?: boolean } = {},
) {
  const scale = compact ? 0.6 : 1;
  return {
    grid: { left: 8, right: 24, top: 56, bottom: 36, containLabel: true },
    legend: { top: 0, data: series.map((s) => s.label), itemGap: 14 },
    tooltip: {
      trigger: 'item',
      formatter: (p: TooltipParams) => {
        const point = p.data as GenreBubblePoint | undefined;
        if (!point?.value) return '';
        const [title, ...rest] = genreTooltipLines(point, p.seriesName ?? '');
        return `<strong>${escapeHtml(title ?? '')}</strong><br>${rest.map(escapeHtml).join('<br>')}`;
      },
    },
    xAxis: {
      type: 'value',
      name: 'Saturation →',
      nameLocation: 'middle',
      nameGap: 26,
      min: 0,
      max: 1,
      interval: 0.2,
      splitLine: { show: false },
    },
    yAxis: {
      type: 'value',
      name: 'Growth vs 7 days ago',
      nameTextStyle: { align: 'left' },
      axisLabel: { formatter: (v: number) => formatPercent(v, { digits: 0 }) },
      splitLine: { lineStyle: { opacity: 0.4 } },
    },
    series: [
      ...series.map((s) => ({
        name: s.label,
        type: 'scatter',
        color: s.colour,
        data:
          scale === 1
            ? s.data
            : s.data.map((d) => ({ ...d, symbolSize: Math.round(d.symbolSize * scale * 10) / 10 })),
        emphasis: { focus: 'series', label: { show: true } },
        label: {
          show: true,
          position: 'top',
          formatter: (p: { name?: string }) => p.name ?? '',
          fontSize: compact ? 10 : 11,
        },
        labelLayout: { hideOverlap: true },
      })),
      {
        // The divider and the crowded side live on a series of their own, so hiding a verdict in the
        // legend never hides them.
        name: 'crowded divider',
        type: 'scatter',
        data: [],
        silent: true,
        tooltip: { show: false },
        markLine: {
          silent: true,
          symbol: 'none',
          lineStyle: { color: DIVIDER, type: 'dashed', width: 1.5 },
          label: { formatter: 'crowded →', position: 'end', color: DIVIDER },
          data: [{ xAxis: CROWDED_AT }],
        },
        markArea: {
          silent: true,
          itemStyle: { color: 'rgba(220, 38, 38, 0.06)' },
          data: [[{ xAxis: CROWDED_AT }, { xAxis: 1 }]],
        },
      },
    ],
  };
}
