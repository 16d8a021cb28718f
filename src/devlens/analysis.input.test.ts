import { describe, expect, it } from 'vitest';
import { days, gaussian, rng } from '../../test/fixtures/devlens/make.js';
import { AppError } from '../errors.js';
import { analyseCsv, BENCHMARK_GENRES, KNOWN_LAYOUTS, safeCell, signedPercent } from './analysis.js';

async function rejection(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

async function* chunks(text: string, size: number): AsyncGenerator<Buffer> {
  const buf = Buffer.from(text, 'utf8');
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

describe('labels and escaping', () => {
  it('writes signed percentages with one decimal, always signed', () => {
    expect(signedPercent(0.125)).toBe('+12.5%');
    expect(signedPercent(-0.03)).toBe('-3.0%');
    expect(signedPercent(0)).toBe('+0.0%');
    expect(signedPercent(-0.00004)).toBe('+0.0%');
    expect(signedPercent(-0.12251)).toBe('-12.3%');
    expect(signedPercent(1e19)).toBe('+1000000000000000000000.0%');
  });

  it('prefixes formula-like text with an apostrophe', () => {
    expect(safeCell('=HYPERLINK("http://x")')).toBe(`'=HYPERLINK("http://x")`);
    expect(['+1', '-1', '@SUM(A1)'].map(safeCell)).toEqual(["'+1", "'-1", "'@SUM(A1)"]);
    expect(safeCell('Tutorial')).toBe('Tutorial');
  });
});

describe('other layouts', () => {
  it('reads a Creator Hub retention export and prefers its own benchmark rows', async () => {
    const d = days('2024-04-01', 14);
    const csv = [
      'Experience ID,123',
      '',
      'Breakdown,Date,Day 1 retention',
      ...d.map((x) => `Total,${x}T00:00:00.000Z,0.3`),
      ...d.map((x) => `Phone,${x}T00:00:00.000Z,0.9`),
      ...d.map((x) => `Benchmark (P50),${x}T00:00:00.000Z,0.24`),
      ...d.map((x) => `Benchmark (P90),${x}T00:00:00.000Z,0.5`),
    ].join('\n');
    const a = await analyseCsv(chunks(csv, 7), { genre: 'rpg' });
    expect(a.file_type).toBe('retention');
    expect(a.metrics.d1_retention).toBe(0.3);
    expect(a.metrics.d7_retention).toBeNull();
    // 0.3 / 0.24 − 1 from the file's first benchmark tier, not the rpg table.
    expect(a.benchmarks).toEqual({ d1_vs_genre: '+25.0%' });
    expect(a.benchmark_source).toEqual({ genre: 'rpg', from_file: true });
    expect(a.coverage.days).toBe(14);
  });

  it('reads the documented Sales data export, skipping cancelled sales', async () => {
    const csv = [
      'Buyer User ID,Sale Date and Time,Sale Location,Universe ID,Universe,Asset ID,Asset Name,Asset Type,Hold Status,Revenue,Price',
      '1,2022-07-15T19:04:30.397Z,Game,9,My Game,55,VIP,Game Pass,Released,70,100',
      '2,2022-07-15T20:00:00.000Z,Game,9,My Game,55,VIP,Game Pass,Held,70,100',
      '1,2022-07-16T08:00:00.000Z,WebSite,9,My Game,56,=HYPERLINK("x"),Private Server,Released,35,50',
      '3,2022-07-16T09:00:00.000Z,Game,9,My Game,55,VIP,Game Pass,Cancelled,70,100',
    ].join('\r\n');
    const a = await analyseCsv(csv, {});
    expect(a.file_type).toBe('monetization');
    expect(a.metrics).toEqual({
      revenue_total: 175,
      revenue_per_day: 87.5,
      paying_users: 2,
      arppu: 87.5,
      arpdau: null,
      conversion: null,
      purchases: 3,
      revenue_trend_pct_per_week: null,
    });
    expect(a.benchmarks).toEqual({ arppu_vs_genre: '-41.7%' });
    expect(JSON.stringify(a)).not.toContain('HYPERLINK');
  });
});

describe('bad input', () => {
  it('rejects an empty file and a header without rows', async () => {
    expect((await rejection(analyseCsv('', {}))).code).toBe('empty_file');
    expect((await rejection(analyseCsv(Buffer.from('\uFEFF\r\n\r\n'), {}))).code).toBe('empty_file');
    expect((await rejection(analyseCsv('Date,DAU\r\n', {}))).code).toBe('empty_file');
    expect((await rejection(analyseCsv('Date,DAU\nnot a date,5\n', {}))).code).toBe('empty_file');
  });

  it('rejects binary bytes naming the line', async () => {
    const err = await rejection(
      analyseCsv(Buffer.from([0x44, 0x61, 0x74, 0x65, 0x0a, 0x89, 0x50, 0x4e, 0x47, 0x00]), {}),
    );
    expect(err.status).toBe(422);
    expect(err.code).toBe('invalid_csv');
    expect(err.message).toContain('line 2');
  });

  it('rejects an unclosed quote as invalid CSV with its line', async () => {
    const err = await rejection(analyseCsv('Date,DAU\n2024-01-01,5\n2024-01-02,"7\n', {}));
    expect(err.code).toBe('invalid_csv');
    expect(err.message).toMatch(/line \d+/);
  });

  it('rejects an unknown layout naming the known layouts and the escaped headers it saw', async () => {
    const err = await rejection(analyseCsv('=cmd|calc,Colour\n1,red\n', {}));
    expect(err.status).toBe(422);
    expect(err.code).toBe('unsupported_file');
    expect(err.message).toContain(`"'=cmd|calc", "Colour"`);
    for (const layout of KNOWN_LAYOUTS) expect(err.message).toContain(layout);
  });

  it('never echoes a formula step name raw', async () => {
    const a = await analyseCsv('Step,Users\n=HYPERLINK("http://evil"),1000\n@SUM(1),100\n', {});
    expect(a.patterns[0]!.text).toContain(`"'=HYPERLINK("http://evil")" to step 2 "'@SUM(1)"`);
  });

  it('rejects an unknown genre on body.genre', async () => {
    const err = await rejection(analyseCsv('Date,DAU\n2024-01-01,5\n', { genre: 'knitting' }));
    expect(err.code).toBe('validation_failed');
    expect(err.fields.field).toBe('body.genre');
    expect(BENCHMARK_GENRES).toContain('all');
    expect(BENCHMARK_GENRES).toContain('simulation');
  });
});

describe('statistics on synthetic series', () => {
  const series = (seed: number, f: (i: number, day: Date) => number) => {
    const rand = rng(seed);
    const lines = days('2024-01-01', 90).map(
      (d, i) => `${d},${Math.round(f(i, new Date(d)) * Math.exp(0.1 * gaussian(rand)))}`,
    );
    return `Date,DAU\n${lines.join('\n')}\n`;
  };

  it('finds no patterns in pure noise (at most 2 across 20 seeds)', async () => {
    let found = 0;
    for (let seed = 1; seed <= 20; seed++)
      found += (
        await analyseCsv(
          series(seed, () => 1000),
          {},
        )
      ).patterns.length;
    expect(found).toBeLessThanOrEqual(2);
  });

  it('finds a planted weekend lift, a 5%/week trend and a dated spike', async () => {
    const csv = series(
      7,
      (i, d) => 1000 * 1.05 ** (i / 7) * ([0, 6].includes(d.getUTCDay()) ? 1.4 : 1) * (i === 40 ? 3 : 1),
    );
    const a = await analyseCsv(csv, {});
    const kinds = a.patterns.map((p) => p.kind).sort();
    expect(kinds).toEqual(['anomaly', 'trend', 'weekly_cycle']);
    const trend = a.patterns.find((p) => p.kind === 'trend')!;
    expect(trend.figures.pct_per_week).toBeGreaterThan(0.04);
    expect(trend.figures.pct_per_week).toBeLessThan(0.06);
    expect(a.patterns.find((p) => p.kind === 'anomaly')!.text.startsWith('2024-02-10: ')).toBe(true);
  });
});
