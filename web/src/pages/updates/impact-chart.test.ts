import { describe, expect, it } from 'vitest';
import { hourBars, impactBars, signedPercent, weekdayBars } from './impact-chart';

const bucket = { mean_percent: 0, significant_gain_share: 0, significant_loss_share: 0 };

describe('update impact charts', () => {
  it('writes signed percentages', () => {
    expect(signedPercent(12.5)).toBe('+12.5%');
    expect(signedPercent(-3)).toBe('−3.0%');
    expect(signedPercent(0)).toBe('0.0%');
  });

  it('draws a bar per weekday and hour with updates, labelled with the sample size', () => {
    const option = weekdayBars([
      { weekday: 0, name: 'Monday', updates: 0, median_percent: 0, ...bucket },
      { weekday: 1, name: 'Tuesday', updates: 12, median_percent: 18.4, ...bucket },
    ]) as {
      xAxis: { data: string[] };
      series: { data: (number | null)[]; label: { formatter: (p: { dataIndex: number }) => string } }[];
    };
    expect(option.xAxis.data).toEqual(['Mon', 'Tue']);
    expect(option.series[0]!.data).toEqual([null, 18.4]);
    expect(option.series[0]!.label.formatter({ dataIndex: 1 })).toBe('n=12');
    const hours = hourBars([{ hour: 5, updates: 2, median_percent: -4, ...bucket }]) as {
      xAxis: { data: string[] };
    };
    expect(hours.xAxis.data).toEqual(['05']);
  });

  it("plots a game's measured updates oldest first with their 95% interval", () => {
    const impact = (percent: number) => ({
      percent,
      ci80: { low: percent - 5, high: percent + 5 },
      ci95: { low: percent - 9, high: percent + 9 },
      significant: true,
      observed_mean_ccu: 1,
      counterfactual_mean_ccu: 1,
      baseline_days: 60,
      window_days: 7,
      model_version: 'm@2',
    });
    const base = {
      previous_update_at: null,
      detected_at: '2026-11-01T00:00:00Z',
      measurable_from: '2026-11-01T00:00:00Z',
      overlapping_update: false,
    };
    const option = impactBars([
      { ...base, released_at: '2026-11-20T00:00:00Z', status: 'measuring', impact: null },
      { ...base, released_at: '2026-10-30T00:00:00Z', status: 'measured', impact: impact(-2) },
      { ...base, released_at: '2026-10-10T00:00:00Z', status: 'measured', impact: impact(30) },
    ]) as { xAxis: { data: string[] }; series: { data: number[] }[] };
    expect(option.xAxis.data).toEqual(['2026-10-10', '2026-10-30']);
    expect(option.series.map((s) => s.data)).toEqual([
      [30, -2],
      [21, -11],
      [39, 7],
    ]);
  });
});
