import { describe, expect, it } from 'vitest';
import { forecastSeries } from '../games/index.js';
import { IMPACT_SD_SCALE, measureImpact, windowEnd } from './impact.js';

const DAY = 86_400_000;
const day = (i: number) => new Date(Date.UTC(2026, 5, 1) + i * DAY).toISOString().slice(0, 10);
/** Days 0..n-1 at `value(i)`. */
const series = (n: number, value: (i: number) => number) =>
  Array.from({ length: n }, (_, i) => ({ day: day(i), ccu: value(i) }));
// A steady game with a weekly rhythm and some day-to-day noise; the release is on day 60.
const weekly = (i: number) =>
  1000 * (1 + 0.1 * Math.sin((2 * Math.PI * i) / 7)) * (1 + 0.04 * Math.sin(i * 12.9898));

describe('measureImpact', () => {
  it('compares the 7 days after the release day with the forecast fitted on the days before it', () => {
    const history = series(68, (i) => weekly(i) * (i > 60 ? 1.3 : 1));
    const m = measureImpact(history, day(60));
    if (m.status !== 'measured') throw new Error(m.status);
    // The same arithmetic by hand from the engine: baseline days 0..59, horizon 8 (day 60 skipped).
    const f = forecastSeries(
      history.slice(0, 60).map((h) => ({ date: h.day, value: h.ccu })),
      { horizon: 8, level: 0.8 },
    );
    const medians = f.logMean.slice(1).map(Math.expm1);
    const c = medians.reduce((a, b) => a + b, 0);
    const o = history.slice(61).reduce((a, h) => a + h.ccu, 0);
    const s = medians.reduce((a, v, i) => a + v * f.logSd[i + 1]!, 0) / c;
    expect(m.impact).toBeCloseTo(o / c - 1, 12);
    expect(m.ci80[0]).toBeCloseTo((o / c) * Math.exp(-1.2815515655446004 * IMPACT_SD_SCALE[0.8] * s) - 1, 12);
    expect(m.ci95[1]).toBeCloseTo((o / c) * Math.exp(1.959963984540054 * IMPACT_SD_SCALE[0.95] * s) - 1, 12);
    expect(m.impact).toBeGreaterThan(0.2);
    expect(m.impact).toBeLessThan(0.45);
    expect(m.significant).toBe(true);
    expect(m).toMatchObject({ baselineDays: 60, windowDays: 7, modelVersion: f.modelVersion });
    expect(m.observedMean).toBeCloseTo(o / 7, 9);
    expect(m.counterfactualMean).toBeCloseTo(c / 7, 9);
  });

  it('finds no significant effect where nothing changed', () => {
    const m = measureImpact(series(68, weekly), day(60));
    if (m.status !== 'measured') throw new Error(m.status);
    expect(Math.abs(m.impact)).toBeLessThan(0.08);
    expect(m.ci95[0]).toBeLessThan(0);
    expect(m.ci95[1]).toBeGreaterThan(0);
    expect(m.ci95[0]).toBeLessThan(m.ci80[0]);
    expect(m.ci95[1]).toBeGreaterThan(m.ci80[1]);
    expect(m.significant).toBe(false);
  });

  it('reads only the 90 days before the release day and ignores the release day itself', () => {
    const base = series(200, weekly);
    const a = measureImpact(base, day(150));
    // Anything on day 150 or more than 90 days before it changes nothing.
    const noisy = base.map((h, i) => (i === 150 || i < 60 ? { ...h, ccu: h.ccu * 7 } : h));
    expect(measureImpact(noisy, day(150))).toEqual(a);
    if (a.status !== 'measured') throw new Error(a.status);
    expect(a.baselineDays).toBe(90);
  });

  it('needs 14 days before the release and 5 of the 7 after', () => {
    expect(measureImpact(series(21, weekly), day(13))).toEqual({
      status: 'insufficient_history',
      baselineDays: 13,
    });
    const gappy = series(68, weekly).filter((_, i) => i < 63 || i > 65);
    expect(measureImpact(gappy, day(60))).toEqual({ status: 'insufficient_data', windowDays: 4 });
    const fiveOfSeven = series(68, weekly).filter((_, i) => i !== 63 && i !== 64);
    expect(measureImpact(fiveOfSeven, day(60))).toMatchObject({ status: 'measured', windowDays: 5 });
  });

  it('skips days that are not usable (negative or not finite) and says when the window ends', () => {
    const history = series(68, weekly);
    history[10] = { ...history[10]!, ccu: Number.NaN };
    history[11] = { ...history[11]!, ccu: -5 };
    expect(measureImpact(history, day(60))).toMatchObject({ status: 'measured', baselineDays: 58 });
    expect(windowEnd('2026-06-30')).toBe('2026-07-08');
  });
});
