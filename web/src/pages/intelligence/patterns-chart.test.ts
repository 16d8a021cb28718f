import { describe, expect, it } from 'vitest';
import { effectText, forestPlot, groupText, type Pattern, signedEffect } from './patterns-chart';

const numeric: Pattern = {
  feature: 'updates_per_30d',
  kind: 'numeric',
  label: 'Updates per 30 days',
  measure: 'cliffs_delta',
  top: { n: 5, value: 4.6667 },
  rest: { n: 15, value: 1 },
  effect: 0.62,
  ci_low: 0.25,
  ci_high: 0.83,
  significant: true,
  pattern: 'The fastest-growing games update more often than the rest.',
};
const keyword: Pattern = {
  ...numeric,
  feature: 'title:obby',
  kind: 'title_keyword',
  label: '“obby” in the title',
  measure: 'difference_in_proportions',
  top: { n: 5, value: 0.2 },
  rest: { n: 15, value: 0.3333 },
  effect: -0.1333,
  ci_low: -0.45,
  ci_high: 0.3,
  significant: false,
  pattern: null,
};
const unmeasured: Pattern = {
  ...numeric,
  feature: 'age_days',
  label: 'Age (days)',
  top: { n: 0, value: null },
  effect: null,
  ci_low: null,
  ci_high: null,
  significant: false,
  pattern: null,
};

describe('success pattern charts', () => {
  it('writes effects with their sign and interval, and each group as a median or a share', () => {
    expect(signedEffect(0.4213)).toBe('+0.42');
    expect(signedEffect(-0.1)).toBe('−0.10');
    expect(signedEffect(0)).toBe('0.00');
    expect(effectText(numeric)).toBe('+0.62 (+0.25 to +0.83)');
    expect(effectText(unmeasured)).toBe('not measured');
    expect(groupText(numeric, 'top')).toBe('4.67 (n=5)');
    expect(groupText(keyword, 'rest')).toBe('33% (n=15)');
    expect(groupText(unmeasured, 'top')).toBe('– (n=0)');
  });

  it('plots each measured feature strongest on top, its interval as a line and zero marked', () => {
    const option = forestPlot([numeric, keyword, unmeasured]) as {
      yAxis: { data: string[] };
      series: { type: string; data: unknown[]; markLine?: { data: unknown[] } }[];
    };
    expect(option.yAxis.data).toEqual(['“obby” in the title', 'Updates per 30 days']);
    expect(option.series.map((s) => s.type)).toEqual(['line', 'line', 'scatter']);
    expect(option.series[1]!.data).toEqual([
      [0.25, 'Updates per 30 days'],
      [0.83, 'Updates per 30 days'],
    ]);
    const dots = option.series[2]!;
    expect(dots.data.map((d) => (d as { value: unknown }).value)).toEqual([
      [-0.1333, '“obby” in the title'],
      [0.62, 'Updates per 30 days'],
    ]);
    expect(dots.markLine!.data).toEqual([{ xAxis: 0 }]);
  });
});
