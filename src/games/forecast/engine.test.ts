import { describe, expect, it } from 'vitest';
import { type DailyValue, forecastSeries, InsufficientHistoryError, probabilityAbove } from './index.js';
import { weekday } from './series.js';

const DAY = 86_400_000;
const START = Date.UTC(2026, 5, 1); // a Monday
const date = (i: number) => new Date(START + i * DAY).toISOString().slice(0, 10);
const series = (values: readonly number[]): DailyValue[] =>
  values.map((value, i) => ({ date: date(i), value }));

/** Deterministic noise in [-1, 1) (a small LCG), so the tests are exact from run to run. */
function noise(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return (s / 2 ** 31) * 2 - 1;
  };
}

function correlation(a: readonly number[], b: readonly number[]): number {
  const ma = a.reduce((x, y) => x + y, 0) / a.length;
  const mb = b.reduce((x, y) => x + y, 0) / b.length;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  a.forEach((v, i) => {
    sab += (v - ma) * (b[i]! - mb);
    saa += (v - ma) ** 2;
    sbb += (b[i]! - mb) ** 2;
  });
  return sab / Math.sqrt(saa * sbb);
}

const WEEK = [0.85, 0.9, 0.95, 1, 1.05, 1.15, 1.1]; // Monday first

describe('forecastSeries', () => {
  it('recovers a known weekly seasonality', () => {
    const r = noise(7);
    const history = series(Array.from({ length: 70 }, (_, i) => 1000 * WEEK[i % 7]! * (1 + 0.02 * r())));
    const result = forecastSeries(history, { horizon: 14, level: 0.8 });
    expect(result.modelVersion).toBe('ets-auto-log+median7+weekly@2');
    const truth = result.points.map((p) => 1000 * WEEK[weekday(Date.parse(p.date) / DAY)]!);
    expect(
      correlation(
        result.points.map((p) => p.point),
        truth,
      ),
    ).toBeGreaterThan(0.95);
    const mape = result.points.reduce((s, p, i) => s + Math.abs(p.point - truth[i]!) / truth[i]!, 0) / 14;
    expect(mape).toBeLessThan(0.03);
  });

  it('starts the day after the last history date and gives horizon points', () => {
    const result = forecastSeries(series(Array.from({ length: 20 }, () => 50)), { horizon: 7, level: 0.8 });
    expect(result.points.map((p) => p.date)).toEqual([21, 22, 23, 24, 25, 26, 27].map((i) => date(i - 1)));
    expect(result.logMean).toHaveLength(7);
    expect(result.logSd).toHaveLength(7);
  });

  it('widens the interval with the horizon', () => {
    const r = noise(3);
    let level = 200;
    const values = Array.from({ length: 60 }, () => {
      level *= 1 + 0.05 * r();
      return level * (1 + 0.05 * r());
    });
    const result = forecastSeries(series(values), { horizon: 30, level: 0.8 });
    const widths = result.points.map((p) => Math.log1p(p.upper) - Math.log1p(p.lower));
    for (let h = 1; h < 30; h++) expect(widths[h]).toBeGreaterThanOrEqual(widths[h - 1]! - 1e-12);
    expect(widths[29]).toBeGreaterThan(widths[0]! * 1.5);
  });

  it('keeps every value finite and lower bounds at or above 0 for zeros, spikes and flat series', () => {
    const cases = [
      Array.from({ length: 20 }, () => 0),
      Array.from({ length: 30 }, (_, i) => (i % 9 === 0 ? 50_000 : 3)),
      Array.from({ length: 14 }, () => 42),
      Array.from({ length: 25 }, (_, i) => (i < 20 ? 1e9 : 0)),
      Array.from({ length: 25 }, (_, i) => 2 ** i),
    ];
    for (const values of cases) {
      const result = forecastSeries(series(values), { horizon: 30, level: 0.8 });
      for (const p of result.points) {
        expect([p.point, p.lower, p.upper].every(Number.isFinite)).toBe(true);
        expect(p.lower).toBeGreaterThanOrEqual(0);
        expect(p.lower).toBeLessThanOrEqual(p.point);
        expect(p.point).toBeLessThanOrEqual(p.upper);
      }
    }
    const zeros = forecastSeries(series(cases[0]!), { horizon: 3, level: 0.8 });
    expect(zeros.points.map((p) => [p.point, p.lower])).toEqual([
      [0, 0],
      [0, 0],
      [0, 0],
    ]);
    const flat = forecastSeries(series(cases[2]!), { horizon: 3, level: 0.8 });
    for (const p of flat.points) expect(p.point).toBeCloseTo(42, 6);
  });

  it('refuses 13 usable days with InsufficientHistoryError', () => {
    const thirteen = series(Array.from({ length: 13 }, () => 10));
    expect(() => forecastSeries(thirteen, { horizon: 7, level: 0.8 })).toThrow(InsufficientHistoryError);
    const withBad = [...thirteen, { date: date(13), value: Number.NaN }, { date: 'not a date', value: 4 }];
    try {
      forecastSeries(withBad, { horizon: 7, level: 0.8 });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(InsufficientHistoryError);
      expect((err as InsufficientHistoryError).days).toBe(13);
    }
  });

  it('fills gaps between days and forecasts from the last date', () => {
    const values = Array.from({ length: 24 }, (_, i) => 100 + i);
    const history = series(values).filter((_, i) => i < 5 || i > 9); // days 5..9 missing
    expect(history).toHaveLength(19);
    const result = forecastSeries(history, { horizon: 2, level: 0.8 });
    expect(result.points[0]!.date).toBe(date(24));
    expect(result.points[0]!.point).toBeGreaterThan(110);
    expect(result.points[0]!.point).toBeLessThan(130);
  });
});

describe('probabilityAbove', () => {
  const r = noise(11);
  const result = forecastSeries(series(Array.from({ length: 40 }, () => 300 * (1 + 0.1 * r()))), {
    horizon: 7,
    level: 0.8,
  });

  it('is a probability, monotone in the threshold and one half at the point forecast', () => {
    const p = result.points[6]!;
    let previous = 1;
    for (const t of [-1, 0, 1, 100, 250, p.point, 350, 500, 1e6]) {
      const prob = probabilityAbove(result, 6, t);
      expect(prob).toBeGreaterThanOrEqual(0);
      expect(prob).toBeLessThanOrEqual(1);
      expect(prob).toBeLessThanOrEqual(previous);
      previous = prob;
    }
    expect(probabilityAbove(result, 6, p.point)).toBeCloseTo(0.5, 6);
    expect(probabilityAbove(result, 6, p.lower)).toBeCloseTo(0.9, 3);
    expect(probabilityAbove(result, 6, p.upper)).toBeCloseTo(0.1, 3);
  });

  it('rejects a day outside the forecast', () => {
    expect(() => probabilityAbove(result, 7, 1)).toThrow(RangeError);
  });
});
