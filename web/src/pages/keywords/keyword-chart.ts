/** Chart options of the keyword pages (pure, tested without a browser). */
import type { paths } from '../../api/client';
import type { EChartsCoreOption } from '../../components/echarts';

export type KeywordDetail =
  paths['/api/keywords/{keyword}']['get']['responses'][200]['content']['application/json'];
export type TrendingKeywords =
  paths['/api/keywords/trending']['get']['responses'][200]['content']['application/json'];
export type TitleScore =
  paths['/api/keywords/score-title']['get']['responses'][200]['content']['application/json'];

/** A keyword's daily demand (summed mean CCU) as an area, and how many games had readings, on a second axis. */
export function demandHistory(history: KeywordDetail['history']): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { left: 56, right: 48, top: 32, bottom: 32 },
    xAxis: { type: 'category', data: history.map((h) => h.day) },
    yAxis: [
      { type: 'value', name: 'CCU' },
      { type: 'value', name: 'games', minInterval: 1, splitLine: { show: false } },
    ],
    series: [
      {
        type: 'line',
        name: 'Demand (Σ mean CCU)',
        data: history.map((h) => h.demand),
        areaStyle: { opacity: 0.15 },
        showSymbol: false,
      },
      {
        type: 'line',
        name: 'Games',
        yAxisIndex: 1,
        step: 'end',
        data: history.map((h) => h.games),
        showSymbol: false,
      },
    ],
  };
}

/** The keywords of a list as bubbles: demand per game across, growth up, size by games. */
export function opportunityMap(items: TrendingKeywords['items']): EChartsCoreOption {
  const points = items.map((i) => ({
    name: i.trend.keyword,
    value: [i.trend.demand_per_game, i.trend.growth === null ? 0 : i.trend.growth * 100, i.trend.games],
  }));
  const maxGames = Math.max(1, ...items.map((i) => i.trend.games));
  return {
    tooltip: {
      formatter: (p: { name: string; value: number[] }) =>
        `${p.name}: ${Math.round(p.value[0]!)} CCU per game, ${p.value[1]!.toFixed(1)}% growth, ${p.value[2]} games`,
    },
    grid: { left: 56, right: 24, top: 24, bottom: 40 },
    xAxis: { type: 'log', name: 'CCU per game', nameLocation: 'middle', nameGap: 26 },
    yAxis: { type: 'value', name: 'growth %' },
    series: [
      {
        type: 'scatter',
        data: points,
        symbolSize: (v: number[]) => 8 + 24 * Math.sqrt(v[2]! / maxGames),
        label: { show: true, position: 'right', formatter: '{b}' },
      },
    ],
  };
}
