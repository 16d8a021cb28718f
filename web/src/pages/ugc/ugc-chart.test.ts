import { describe, expect, it } from 'vitest';
import { categoryGrowthBars, growthLabel, priceFavoritesChart } from './ugc-chart';

describe('UGC charts', () => {
  it('draws the price as steps with gaps while off sale, and favourites on the right axis', () => {
    const option = priceFavoritesChart({
      price_history: [
        { day: '2026-11-20', price: 100, price_min: 80, price_max: 100, on_sale: true },
        { day: '2026-11-21', price: null, price_min: null, price_max: null, on_sale: false },
        { day: '2026-11-22', price: 120, price_min: 120, price_max: 120, on_sale: true },
      ],
      favorites_history: [
        { day: '2026-11-20', favorites: 10 },
        { day: '2026-11-21', favorites: 15 },
        { day: '2026-11-22', favorites: 40 },
      ],
    }) as { xAxis: { data: string[] }; series: { data: (number | null)[]; yAxisIndex: number }[] };
    expect(option.xAxis.data).toEqual(['2026-11-20', '2026-11-21', '2026-11-22']);
    expect(option.series[0]!.data).toEqual([100, null, 120]);
    expect(option.series[1]).toMatchObject({ data: [10, 15, 40], yAxisIndex: 1 });
  });

  it('labels growth with its sign and keeps the 12 fastest categories', () => {
    expect([growthLabel(12.5), growthLabel(-3), growthLabel(0)]).toEqual(['+12.5%', '−3.0%', '0.0%']);
    const cats = Array.from({ length: 15 }, (_, i) => ({
      category: `c${i}`,
      name: `C${i}`,
      items: 1,
      new_items_7d: 0,
      favorites_gain_7d: 1,
      favorites_gain_prev_7d: 1,
      growth_percent: 15 - i,
      avg_price: null,
    }));
    const option = categoryGrowthBars(cats) as { yAxis: { data: string[] } };
    expect(option.yAxis.data).toHaveLength(12);
    expect(option.yAxis.data[0]).toBe('C0');
  });
});
