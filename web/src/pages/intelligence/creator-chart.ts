/** Chart options of the creator page (pure, tested without a browser). */
import type { paths } from '../../api/client';
import type { EChartsCoreOption } from '../../components/echarts';

export type CreatorPage =
  paths['/api/intelligence/creators/{creator_id}']['get']['responses'][200]['content']['application/json'];

/**
 * The creator's total daily CCU as an area, and each of its busiest games as a line on the same
 * days (a day a game has no reading is a gap, not a zero).
 */
export function creatorHistory(page: Pick<CreatorPage, 'history' | 'game_history'>): EChartsCoreOption {
  const days = page.history.map((h) => h.day);
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0, type: 'scroll' },
    grid: { left: 56, right: 16, top: 40, bottom: 32 },
    xAxis: { type: 'category', data: days },
    yAxis: { type: 'value', name: 'CCU' },
    series: [
      {
        type: 'line',
        name: 'All games',
        data: page.history.map((h) => h.ccu),
        areaStyle: { opacity: 0.12 },
        showSymbol: false,
      },
      ...page.game_history.map((g) => {
        const byDay = new Map(g.days.map((d) => [d.day, d.ccu]));
        return {
          type: 'line',
          name: g.name,
          data: days.map((d) => byDay.get(d) ?? null),
          showSymbol: false,
          connectNulls: false,
        };
      }),
    ],
  };
}
