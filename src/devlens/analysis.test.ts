import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { days, messy, type Table, toCsv } from '../../test/fixtures/devlens/make.js';
import { CREATOR_HUB_EXPORT, realdataFile } from '../../test/helpers/realdata.js';
import { analyseCsv } from './analysis.js';

const realFile = (): Buffer => readFileSync(realdataFile(CREATOR_HUB_EXPORT));

describe('the real Creator Hub export', () => {
  it('is detected as engagement with the exact DAU figures and its own benchmark rows', async () => {
    const a = await analyseCsv(realFile(), {});
    expect(a.file_type).toBe('engagement');
    // 90 "Total" rows summing to 36,573 → 406.3667; the 90 "Benchmark (Top n experience)" rows sum to
    // 47,151, so DAU runs 36,573 / 47,151 − 1 = −22.43% against the file's own benchmark.
    expect(a.metrics).toEqual({
      dau_avg: 406.3667,
      mau_avg: null,
      stickiness: null,
      session_length_minutes: null,
      playtime_minutes_per_dau: null,
      sessions_per_dau: null,
      dau_trend_pct_per_week: 0.0472,
    });
    expect(a.benchmarks).toEqual({ dau_vs_genre: '-22.4%' });
    expect(a.benchmark_source).toEqual({ genre: 'all', from_file: true });
    expect(a.coverage).toEqual({
      rows: 180,
      days: 90,
      missing_days: 0,
      first_day: '2024-02-23',
      last_day: '2024-05-22',
    });
  });

  it('finds the weekend cycle and the growth trend (values checked against SciPy)', async () => {
    const a = await analyseCsv(realFile(), { genre: 'simulator' });
    expect(a.benchmark_source.genre).toBe('simulation');
    expect(a.patterns.map((p) => p.kind)).toEqual(['weekly_cycle', 'trend']);
    const [weekly, trend] = a.patterns;
    // scipy.stats.ttest_ind(equal_var=False) on Theil–Sen residuals of log DAU: t = 6.0773, df = 53.2414.
    expect(weekly!.figures).toMatchObject({
      weekend_vs_weekday: 0.3953,
      t: 6.0773,
      df: 53.2414,
      weekend_days: 26,
      weekday_days: 64,
    });
    expect(weekly!.text).toBe(
      'Daily active users on weekends run 39.5% above weekdays (Welch t = 6.08, p < 0.001).',
    );
    expect(trend!.figures).toMatchObject({ pct_per_week: 0.0472, days: 90 });
    expect(trend!.figures.p).toBeLessThan(1e-5);
  });
});

const retention: Table = {
  header: ['Date', 'D1 Retention', 'D7 Retention', 'D30 Retention'],
  rows: days('2024-01-01', 28).map((d, i) => [d, i % 2 ? '0.32' : '0.28', i % 2 ? '0.07' : '0.05', '0.02']),
};
const engagement: Table = {
  header: ['date', 'DAU', 'MAU', 'Sessions', 'Playtime', 'New users'],
  rows: days('2024-01-01', 28).map((d) => {
    const weekend = [6, 0].includes(new Date(`${d}T00:00:00Z`).getUTCDay());
    const dau = weekend ? 1500 : 1000;
    return [d, String(dau), '10000', String(dau * 2), String(dau / 2), '50'];
  }),
};
const monetization: Table = {
  header: ['Date', 'Daily Revenue', 'Paying Users', 'Daily Active Users'],
  rows: days('2024-03-01', 10).map((d, i) => [d, i % 2 ? '2000' : '1000', i % 2 ? '12' : '8', '1000']),
};
const acquisition: Table = {
  header: ['Date', 'Impressions', 'Clicks', 'Plays'],
  rows: days('2024-03-01', 7).map((d) => [d, '10000', '600', '300']),
};
const funnel: Table = {
  header: ['Step number', 'Step', 'Users'],
  rows: [
    ['1', 'Join', '1000'],
    ['2', 'Tutorial done', '800'],
    ['3', 'First quest', '200'],
    ['4', 'Shop opened', '150'],
  ],
};

describe('hand-made files of every type', () => {
  const cases: [string, Table, Record<string, number | null>, Record<string, string>][] = [
    [
      'retention',
      retention,
      {
        d1_retention: 0.3,
        d7_retention: 0.06,
        d30_retention: 0.02,
        d7_d1_ratio: 0.2,
        d1_trend_pct_per_week: 0,
      },
      { d1_vs_genre: '+20.0%', d7_vs_genre: '-25.0%', d30_vs_genre: '-20.0%' },
    ],
    [
      'engagement',
      engagement,
      // 20 weekdays × 1000 + 8 weekend days × 1500 = 32,000 DAU over 28 days; MAU 280,000; playtime 16,000 h.
      {
        dau_avg: 1142.8571,
        mau_avg: 10000,
        stickiness: 0.1143,
        session_length_minutes: 15,
        playtime_minutes_per_dau: 30,
        sessions_per_dau: 2,
        dau_trend_pct_per_week: 0,
      },
      { dau_vs_genre: '+14.3%', stickiness_vs_genre: '-23.8%', session_length_vs_genre: '-25.0%' },
    ],
    [
      'monetization',
      monetization,
      {
        revenue_total: 15000,
        revenue_per_day: 1500,
        paying_users: 10,
        arppu: 150,
        arpdau: 1.5,
        conversion: 0.01,
        purchases: null,
        revenue_trend_pct_per_week: null,
      },
      { arppu_vs_genre: '+0.0%', arpdau_vs_genre: '+0.0%', conversion_vs_genre: '+0.0%' },
    ],
    [
      'acquisition',
      acquisition,
      {
        impressions: 70000,
        clicks: 4200,
        plays: 2100,
        click_rate: 0.06,
        play_rate: 0.5,
        conversion: 0.03,
        plays_trend_pct_per_week: null,
      },
      { click_rate_vs_genre: '+20.0%', play_rate_vs_genre: '-16.7%', conversion_vs_genre: '+0.0%' },
    ],
    [
      'funnel',
      funnel,
      {
        steps: 4,
        first_step_users: 1000,
        last_step_users: 150,
        overall_conversion: 0.15,
        worst_step_conversion: 0.25,
        worst_step_number: 3,
      },
      { overall_conversion_vs_genre: '-54.5%' },
    ],
  ];

  for (const [type, table, metrics, benchmarks] of cases) {
    it(`analyses a clean ${type} file and its messy twin identically`, async () => {
      const clean = await analyseCsv(toCsv(table), {});
      expect(clean.file_type).toBe(type);
      expect(clean.metrics).toEqual(metrics);
      expect(clean.benchmarks).toEqual(benchmarks);
      const dated = type !== 'funnel';
      const twin = messy(table, dated ? { dateColumn: 0, gapDays: ['2025-06-01', '2025-06-02'] } : {});
      const m = await analyseCsv(Buffer.from(twin, 'utf8'), {});
      expect(m.file_type).toBe(type);
      expect(m.metrics).toEqual(metrics);
      expect(m.benchmarks).toEqual(benchmarks);
      expect(m.coverage.days).toBe(clean.coverage.days);
      expect(m.coverage.rows).toBe(clean.coverage.rows + (dated ? 2 : 0));
    });
  }

  it('reports the D1→D7 cliff of a retention file', async () => {
    const a = await analyseCsv(toCsv(retention), { genre: 'rpg' });
    expect(a.patterns).toEqual([
      {
        kind: 'd1_d7_cliff',
        text: 'Only 20.0% of day-1 retention survives to day 7 (D1 30.0%, D7 6.0%; below 25% is a cliff).',
        weight: 0.6,
        figures: { d1_retention: 0.3, d7_retention: 0.06, ratio: 0.2, threshold: 0.25 },
      },
    ]);
    // rpg retains 15% better than all genres: D1 benchmark 0.2875.
    expect(a.benchmarks.d1_vs_genre).toBe('+4.3%');
  });

  it('names the worst funnel step', async () => {
    const a = await analyseCsv(toCsv(funnel), {});
    expect(a.patterns[0]).toMatchObject({
      kind: 'worst_funnel_step',
      text: 'The biggest drop is from step 2 "Tutorial done" to step 3 "First quest": 800 → 200 players, 25.0% continue.',
      figures: { step_number: 3, users_before: 800, users_after: 200, conversion: 0.25, drop: 0.75 },
    });
    expect(a.coverage).toEqual({ rows: 4, days: 0, missing_days: 0, first_day: null, last_day: null });
  });
});
