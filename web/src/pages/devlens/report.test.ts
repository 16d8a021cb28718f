import { describe, expect, it } from 'vitest';
import {
  basisText,
  benchmarkChartOption,
  benchmarkRows,
  formatMetric,
  funnelOption,
  orderedMetrics,
  retentionCurveOption,
} from './report';

describe('formatMetric', () => {
  it('formats each unit for people', () => {
    expect(formatMetric('d1_retention', 0.2843)).toBe('28.4%');
    expect(formatMetric('dau_trend_pct_per_week', 0.031)).toBe('+3.1% / week');
    expect(formatMetric('dau_trend_pct_per_week', -0.2)).toBe('-20.0% / week');
    expect(formatMetric('dau_avg', 1234.4)).toBe('1,234');
    expect(formatMetric('impressions', 2_345_678)).toBe('2.3M');
    expect(formatMetric('session_length_minutes', 23.5)).toBe('23m 30s');
    expect(formatMetric('arpdau', 1.523)).toBe('R$ 1.52');
    expect(formatMetric('revenue_total', 24_512.4)).toBe('R$ 24,512');
    expect(formatMetric('worst_step_number', 3)).toBe('Step 3');
    expect(formatMetric('sessions_per_dau', 1.34)).toBe('1.3');
  });

  it('shows a figure the file could not give as a dash', () => {
    expect(formatMetric('d30_retention', null)).toBe('–');
  });
});

describe('orderedMetrics', () => {
  it('keeps the documented order and puts missing figures last', () => {
    expect(
      orderedMetrics({ d7_retention: 0.06, d30_retention: null, d1_retention: 0.3 }).map((m) => m.key),
    ).toEqual(['d1_retention', 'd7_retention', 'd30_retention']);
  });
});

describe('benchmarkRows', () => {
  it('recovers the benchmark each label compares with', () => {
    expect(
      benchmarkRows(
        { d1_vs_genre: '+20.0%', d7_vs_genre: '-25.0%' },
        { d1_retention: 0.3, d7_retention: 0.06 },
      ),
    ).toEqual([
      {
        key: 'd1_vs_genre',
        label: 'Day 1 retention',
        metric: 'd1_retention',
        yours: '30.0%',
        benchmark: '25.0%',
        difference: '+20.0%',
        ahead: true,
      },
      {
        key: 'd7_vs_genre',
        label: 'Day 7 retention',
        metric: 'd7_retention',
        yours: '6.0%',
        benchmark: '8.0%',
        difference: '-25.0%',
        ahead: false,
      },
    ]);
  });

  it('leaves the benchmark unknown when the metric is missing', () => {
    expect(benchmarkRows({ arppu_vs_genre: '+1.0%' }, { arppu: null })[0]).toMatchObject({
      yours: '–',
      benchmark: '–',
    });
  });
});

describe('charts', () => {
  it('draws benchmark differences top-down in the API’s order', () => {
    const option = benchmarkChartOption({ dau_vs_genre: '-60.2%', stickiness_vs_genre: '+10.0%' });
    expect(option.yAxis.data).toEqual(['Stickiness (DAU/MAU)', 'Average DAU']);
    expect(option.series[0]?.data.map((d) => d.value)).toEqual([10, -60.2]);
  });

  it('draws the retention curve with the benchmark curve, or nothing with under two days', () => {
    const option = retentionCurveOption(
      { d1_retention: 0.3, d7_retention: 0.06, d30_retention: 0.02 },
      { d1_vs_genre: '+20.0%', d7_vs_genre: '-25.0%', d30_vs_genre: '-20.0%' },
    );
    expect(option?.series.map((s) => s.data)).toEqual([
      [30, 6, 2],
      [25, 8, 2.5],
    ]);
    expect(
      retentionCurveOption({ d1_retention: 0.3, d7_retention: null, d30_retention: null }, {}),
    ).toBeNull();
  });

  it('draws the funnel’s first and last step', () => {
    expect(funnelOption({ first_step_users: 10_000, last_step_users: 600, steps: 4 })?.xAxis.data).toEqual([
      'First step',
      'Last step (4)',
    ]);
    expect(funnelOption({ first_step_users: null, last_step_users: 600 })).toBeNull();
  });
});

describe('basisText', () => {
  it('says what the numbers rest on', () => {
    expect(
      basisText(
        { rows: 270, days: 90, missing_days: 0, first_day: '2024-02-23', last_day: '2024-05-22' },
        { genre: 'simulation', from_file: true },
        () => 'Simulation',
      ),
    ).toEqual([
      '270 data rows covering 90 days (2024-02-23 to 2024-05-22, no day missing).',
      'Benchmarks: the file’s own Creator Hub benchmark rows where it has them, otherwise the reference values for the Simulation genre.',
    ]);
    expect(
      basisText(
        { rows: 4, days: 0, missing_days: 0, first_day: null, last_day: null },
        { genre: 'all', from_file: false },
        (g) => g,
      ),
    ).toEqual([
      '4 data rows, not dated.',
      'Benchmarks: svc’s reference values for all genres (design values; Roblox publishes no per-genre table).',
    ]);
  });
});
