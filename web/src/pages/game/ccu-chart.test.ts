import { describe, expect, it } from 'vitest';
import { ccuChartOption } from './ccu-chart';

const history = [
  { ts: '2026-11-22T00:00:00.000Z', ccu: 100 },
  { ts: '2026-11-23T00:00:00.000Z', ccu: 120 },
];

describe('ccuChartOption', () => {
  it('draws the daily history, the forecast joined to its last day, and the band as lower + height', () => {
    const option = ccuChartOption(
      history,
      [
        { date: '2026-11-24', predicted_ccu: 130.4, lower_bound: 110, upper_bound: 150 },
        { date: '2026-11-25', predicted_ccu: 140.6, lower_bound: 100, upper_bound: 190 },
      ],
      'daily',
    );
    const [past, line, lower, band] = option.series as { name: string; data: [number, number][] }[];
    expect(past!.data).toEqual([
      [Date.parse('2026-11-22T00:00:00Z'), 100],
      [Date.parse('2026-11-23T00:00:00Z'), 120],
    ]);
    expect(line!.name).toBe('Forecast');
    expect(line!.data).toEqual([
      [Date.parse('2026-11-23T00:00:00Z'), 120],
      [Date.parse('2026-11-24T00:00:00Z'), 130],
      [Date.parse('2026-11-25T00:00:00Z'), 141],
    ]);
    expect(lower!.data.map((p) => p[1])).toEqual([110, 100]);
    expect(band!.data.map((p) => p[1])).toEqual([40, 90]);
    expect(option.legend.data).toEqual(['Daily mean CCU', 'Forecast', '80% interval']);
  });

  it('draws no band without bounds (Builder) and no forecast on the hourly zoom', () => {
    const builder = ccuChartOption(
      history,
      [{ date: '2026-11-24', predicted_ccu: 130, lower_bound: null, upper_bound: null }],
      'daily',
    );
    expect((builder.series as { name: string }[]).map((s) => s.name)).toEqual(['Daily mean CCU', 'Forecast']);
    const hourly = ccuChartOption(
      history,
      [{ date: '2026-11-24', predicted_ccu: 130, lower_bound: 1, upper_bound: 2 }],
      'hourly',
    );
    expect((hourly.series as { name: string }[]).map((s) => s.name)).toEqual(['Hourly mean CCU']);
  });

  it('does not join a forecast that starts days after the history ends', () => {
    const option = ccuChartOption(
      history,
      [{ date: '2026-11-30', predicted_ccu: 130, lower_bound: null, upper_bound: null }],
      'daily',
    );
    expect((option.series as { data: unknown[] }[])[1]!.data).toHaveLength(1);
  });
});
