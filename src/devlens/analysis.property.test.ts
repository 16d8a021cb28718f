import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { analyseCsv } from './analysis.js';
import { FILE_TYPES } from './types.js';

const HEADERS = [
  'Date',
  'date',
  'Breakdown',
  'Daily Active Users',
  'DAU',
  'MAU',
  'Sessions',
  'Playtime',
  'D1 Retention',
  'd7_retention',
  'Day 30 retention',
  'Revenue',
  'Price',
  'Paying Users',
  'ARPPU',
  'Payer conversion rate',
  'Impressions',
  'Clicks',
  'Plays',
  'Step',
  'Users',
  'Step number',
  'Sale Date and Time',
  'Buyer User ID',
  'Hold Status',
  'Colour',
  'x',
  '',
];
const CELLS = fc.oneof(
  fc.constantFrom(
    '2024-01-01',
    '2024-02-30',
    '2024-01-02T00:00:00.000Z',
    '1.2.2024',
    '13/01/2024',
    'Total',
    'Benchmark (P50)',
  ),
  fc.constantFrom('0', '-5', '1,5', '35%', '1e308', 'NaN', '=HYPERLINK("x")', '@x', '"', 'Cancelled', ''),
  fc.double({ noNaN: true }).map(String),
  fc.integer().map(String),
  fc.string({ maxLength: 6 }),
);

const csvFile = fc.record({
  header: fc.array(fc.constantFrom(...HEADERS), { minLength: 1, maxLength: 6 }),
  rows: fc.array(fc.array(CELLS, { maxLength: 7 }), { maxLength: 30 }),
  sep: fc.constantFrom(',', ';'),
  eol: fc.constantFrom('\n', '\r\n'),
  bom: fc.boolean(),
  preamble: fc.boolean(),
});

const LABEL = /^[+-]\d+\.\d%$/;

describe('any generated CSV', () => {
  it('analyses or fails with a 4xx AppError, never anything else', async () => {
    await fc.assert(
      fc.asyncProperty(csvFile, async (f) => {
        const lines = [f.header, ...f.rows].map((r) => r.join(f.sep));
        const text = `${f.bom ? '\uFEFF' : ''}${f.preamble ? `Experience ID${f.sep}0${f.eol}${f.eol}` : ''}${lines.join(f.eol)}`;
        try {
          const a = await analyseCsv(Buffer.from(text, 'utf8'), {});
          expect(FILE_TYPES).toContain(a.file_type);
          for (const v of Object.values(a.benchmarks)) expect(v).toMatch(LABEL);
          for (const v of Object.values(a.metrics)) expect(v === null || Number.isFinite(v)).toBe(true);
          for (const p of a.patterns) expect(p.text).not.toMatch(/^[=+\-@]/);
        } catch (err) {
          expect(err).toBeInstanceOf(AppError);
          const status = (err as AppError).status;
          expect(status >= 400 && status < 500).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('a million rows', () => {
  it('streams a 1,000,000-row file in chunks and keeps per-day totals', async () => {
    // 1,000 days × 1,000 rows of "YYYY-MM-DD;1": every day sums to 1,000 DAU.
    const dates = Array.from({ length: 1000 }, (_, i) =>
      new Date(Date.UTC(2021, 0, 1) + i * 86_400_000).toISOString().slice(0, 10),
    );
    async function* file(): AsyncGenerator<Buffer> {
      yield Buffer.from('Date;DAU\n');
      for (let block = 0; block < 1000; block++) {
        yield Buffer.from(dates.map((d) => `${d};1\n`).join(''));
      }
    }
    const a = await analyseCsv(file(), {});
    expect(a.file_type).toBe('engagement');
    expect(a.metrics.dau_avg).toBe(1000);
    expect(a.coverage).toEqual({
      rows: 1_000_000,
      days: 1000,
      missing_days: 0,
      first_day: '2021-01-01',
      last_day: '2023-09-27',
    });
    expect(a.patterns).toEqual([]);
  });
});
