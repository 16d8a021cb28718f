import { describe, expect, it } from 'vitest';
import { demandHistory, opportunityMap } from './keyword-chart';

const trend = {
  keyword: 'pet',
  games: 4,
  title_games: 4,
  demand: 300,
  previous_demand: 170,
  growth: 0.7647,
  demand_per_game: 75,
  top3_share: 0.9333,
  newcomer_share: 0.1,
  opportunity_score: 76,
};

describe('keyword charts', () => {
  it("plots a keyword's demand and its games per day", () => {
    const option = demandHistory([
      { day: '2026-11-30', games: 3, demand: 170 },
      { day: '2026-12-01', games: 4, demand: 300 },
    ]) as { xAxis: { data: string[] }; series: { data: number[]; yAxisIndex?: number }[] };
    expect(option.xAxis.data).toEqual(['2026-11-30', '2026-12-01']);
    expect(option.series[0]!.data).toEqual([170, 300]);
    expect(option.series[1]!.data).toEqual([3, 4]);
    expect(option.series[1]!.yAxisIndex).toBe(1);
  });

  it('places each keyword by demand per game and growth, sized by its games', () => {
    const option = opportunityMap([
      { rank: 1, trend },
      { rank: 2, trend: { ...trend, keyword: 'obby', games: 1, growth: null, demand_per_game: 20 } },
    ]) as {
      series: { data: { name: string; value: number[] }[]; symbolSize: (v: number[]) => number }[];
    };
    expect(option.series[0]!.data).toEqual([
      { name: 'pet', value: [75, 76.47, 4] },
      { name: 'obby', value: [20, 0, 1] },
    ]);
    expect(option.series[0]!.symbolSize([75, 76.47, 4])).toBe(32);
    expect(option.series[0]!.symbolSize([20, 0, 1])).toBe(20);
  });
});
