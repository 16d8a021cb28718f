import { describe, expect, it } from 'vitest';
import { genreBubbleSeries } from '../../lib/chart-data';
import { CROWDED_AT, genreChartOption, genreTooltipLines } from './genre-chart';

const rows = [
  {
    name: 'rpg',
    display_name: 'RPG',
    locked: false,
    saturation_index: 0.42,
    growth_rate: 0.125,
    demand_per_game: 1520,
    entry_verdict: 'strong',
    opportunity_score: 71,
  },
  {
    name: 'obby_platformer',
    display_name: 'Obby & platformer',
    locked: false,
    saturation_index: 0.71,
    growth_rate: null,
    demand_per_game: 80,
    entry_verdict: 'unproven',
    opportunity_score: 38,
  },
];

describe('genreChartOption', () => {
  it('draws one legend entry per verdict present and the crowded divider at 0.6', () => {
    const option = genreChartOption(genreBubbleSeries(rows));
    expect(option.legend.data).toEqual(['Strong', 'Unproven']);
    const divider = option.series.at(-1) as { markLine: { data: { xAxis: number }[] }; data: unknown[] };
    expect(divider.markLine.data).toEqual([{ xAxis: CROWDED_AT }]);
    expect(divider.data).toEqual([]);
    expect(option.xAxis).toMatchObject({ min: 0, max: 1 });
  });

  it('shrinks the bubbles to 60% on a phone-sized chart', () => {
    const sizes = (compact: boolean) =>
      genreChartOption(genreBubbleSeries(rows), { compact }).series.flatMap((s) =>
        (s.data as { symbolSize: number }[]).map((d) => d.symbolSize),
      );
    expect(sizes(false)).toEqual([48, 17.2]);
    expect(sizes(true)).toEqual([28.8, 10.3]);
  });

  it('shows growth on the y axis as a percentage', () => {
    const option = genreChartOption(genreBubbleSeries(rows));
    expect(option.yAxis.axisLabel.formatter(0.2)).toBe('20%');
    expect(option.yAxis.axisLabel.formatter(-0.1)).toBe('-10%');
  });

  it('names the genre and its numbers in the tooltip, escaping the name', () => {
    const option = genreChartOption(genreBubbleSeries(rows));
    const point = genreBubbleSeries(rows)[1]?.data[0];
    expect(option.tooltip.formatter({ seriesName: 'Unproven', data: point })).toBe(
      '<strong>Obby &#38; platformer</strong><br>Verdict: Unproven<br>Opportunity score: 38<br>' +
        'Saturation: 0.71 (crowded)<br>Growth (7 d): no baseline yet<br>Demand per game: 80 CCU',
    );
  });
});

describe('genreTooltipLines', () => {
  it('writes a known growth signed', () => {
    const point = genreBubbleSeries(rows)[0]?.data[0];
    expect(point && genreTooltipLines(point, 'Strong')).toEqual([
      'RPG',
      'Verdict: Strong',
      'Opportunity score: 71',
      'Saturation: 0.42',
      'Growth (7 d): +12.5%',
      'Demand per game: 1.5K CCU',
    ]);
  });
});
