/** Chart options and labels of the UGC catalog pages (pure, tested without a browser). */
import type { paths } from '../../api/client';
import type { EChartsCoreOption } from '../../components/echarts';

export type ItemDetail = paths['/api/ugc/items/{id}']['get']['responses'][200]['content']['application/json'];
export type ItemList = paths['/api/ugc/items']['get']['responses'][200]['content']['application/json'];
export type Trends = paths['/api/ugc/trends']['get']['responses'][200]['content']['application/json'];

/** 12.5 → "+12.5%", -3 → "−3.0%". */
export function growthLabel(p: number): string {
  const text = `${Math.abs(p).toFixed(1)}%`;
  return p > 0 ? `+${text}` : p < 0 ? `−${text}` : text;
}

/**
 * The item's daily price (a step line on the left axis; a day off sale is a gap, not a zero) and
 * favourites (a line on the right axis), one point per UTC day.
 */
export function priceFavoritesChart(
  d: Pick<ItemDetail, 'price_history' | 'favorites_history'>,
): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis' },
    legend: { data: ['Price (R$)', 'Favourites'] },
    grid: { left: 56, right: 64, top: 40, bottom: 32 },
    xAxis: { type: 'category', data: d.price_history.map((p) => p.day) },
    yAxis: [
      { type: 'value', name: 'R$', minInterval: 1 },
      { type: 'value', name: 'favourites', position: 'right', splitLine: { show: false } },
    ],
    series: [
      {
        type: 'line',
        name: 'Price (R$)',
        step: 'end',
        yAxisIndex: 0,
        data: d.price_history.map((p) => (p.on_sale ? p.price : null)),
      },
      {
        type: 'line',
        name: 'Favourites',
        yAxisIndex: 1,
        showSymbol: false,
        data: d.favorites_history.map((p) => p.favorites),
      },
    ],
  };
}

/** Growth of each category over the last 7 days against the 7 before, highest first. */
export function categoryGrowthBars(categories: Trends['categories']): EChartsCoreOption {
  const rows = categories.slice(0, 12);
  return {
    tooltip: { trigger: 'axis' },
    grid: { left: 140, right: 24, top: 16, bottom: 32 },
    xAxis: { type: 'value', axisLabel: { formatter: '{value}%' } },
    yAxis: { type: 'category', inverse: true, data: rows.map((c) => c.name) },
    series: [{ type: 'bar', name: 'Favourites growth', data: rows.map((c) => c.growth_percent) }],
  };
}
