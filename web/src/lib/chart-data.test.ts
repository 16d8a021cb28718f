import { describe, expect, it } from 'vitest';
import {
  benchmarkBars,
  type GenreOpportunityLike,
  genreBubbleSeries,
  parseSignedPercent,
  VERDICT_COLOURS,
} from './chart-data';

const genre = (over: Partial<GenreOpportunityLike>): GenreOpportunityLike => ({
  name: 'rpg',
  display_name: 'RPG',
  locked: false,
  saturation_index: 0.4,
  growth_rate: 0.1,
  demand_per_game: 100,
  entry_verdict: 'strong',
  opportunity_score: 70,
  ...over,
});

describe('genreBubbleSeries', () => {
  it('groups genres into one series per verdict, best verdict first, leaving out verdicts nobody has', () => {
    const series = genreBubbleSeries([
      genre({ name: 'a', display_name: 'A', entry_verdict: 'avoid', saturation_index: 0.7 }),
      genre({ name: 'b', display_name: 'B', entry_verdict: 'strong' }),
      genre({ name: 'c', display_name: 'C', entry_verdict: 'avoid', saturation_index: 0.8 }),
    ]);
    expect(series.map((s) => [s.label, s.data.map((d) => d.name)])).toEqual([
      ['Strong', ['B']],
      ['Avoid', ['A', 'C']],
    ]);
    expect(series[1]?.colour).toBe(VERDICT_COLOURS.avoid);
  });

  it('places saturation on x, growth on y and sizes bubbles by demand on a square-root scale', () => {
    const [s] = genreBubbleSeries([
      genre({
        name: 'big',
        display_name: 'Big',
        demand_per_game: 400,
        growth_rate: -0.05,
        opportunity_score: 61,
      }),
      genre({ name: 'small', display_name: 'Small', demand_per_game: 100 }),
    ]);
    expect(s?.data[0]?.value).toEqual([0.4, -0.05, 400, 61]);
    expect(s?.data[0]?.symbolSize).toBe(48);
    // sqrt(100 / 400) = 0.5 → 8 + 40 × 0.5
    expect(s?.data[1]?.symbolSize).toBe(28);
  });

  it('draws a genre with unknown growth as a hollow ring on 0 %', () => {
    const [s] = genreBubbleSeries([genre({ growth_rate: null, entry_verdict: 'unproven' })]);
    expect(s?.data[0]).toMatchObject({
      value: [0.4, 0, 100, 70],
      symbol: 'emptyCircle',
      growthKnown: false,
      itemStyle: { color: 'transparent', borderColor: VERDICT_COLOURS.unproven, borderWidth: 2 },
    });
  });

  it('draws nothing for locked free-tier rows', () => {
    expect(
      genreBubbleSeries([
        genre({
          locked: true,
          saturation_index: null,
          growth_rate: null,
          demand_per_game: null,
          entry_verdict: null,
          opportunity_score: null,
        }),
      ]),
    ).toEqual([]);
  });
});

describe('parseSignedPercent', () => {
  it('reads the signed labels the API writes for benchmarks', () => {
    expect(parseSignedPercent('+12.5%')).toBe(0.125);
    expect(parseSignedPercent('-3.0%')).toBe(-0.03);
    expect(parseSignedPercent('+0.0%')).toBe(0);
    expect(parseSignedPercent('+1234.5%')).toBe(12.345);
  });

  it('refuses anything else', () => {
    expect(parseSignedPercent('12.5%')).toBeNull();
    expect(parseSignedPercent('+12.5')).toBeNull();
    expect(parseSignedPercent("'=1+1")).toBeNull();
  });
});

describe('benchmarkBars', () => {
  it('turns labels into percentage bars coloured by side, skipping labels it cannot read', () => {
    expect(
      benchmarkBars({ d1_vs_genre: '+12.5%', d7_vs_genre: '-30.0%', d30_vs_genre: 'n/a' }, (k) =>
        k.toUpperCase(),
      ),
    ).toEqual([
      { key: 'd1_vs_genre', name: 'D1_VS_GENRE', value: 12.5, colour: '#16a34a' },
      { key: 'd7_vs_genre', name: 'D7_VS_GENRE', value: -30, colour: '#dc2626' },
    ]);
  });
});
