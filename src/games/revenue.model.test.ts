import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GENRE_KEYS } from '../platform/index.js';
import { confidenceOf, estimateRevenue, GENRE_PRIORS, typicality } from './revenue.model.js';

const prior = fc.constantFrom(...Object.values(GENRE_PRIORS));
const ccu = fc.integer({ min: 0, max: 10_000_000 });
const count = fc.integer({ min: 0, max: 200 });
const price = fc.double({ min: 0, max: 100_000, noNaN: true });
const cents = (usd: number) => Math.round(usd * 100);

describe('revenue model', () => {
  it('has a prior for every genre key', () => {
    expect(Object.keys(GENRE_PRIORS).sort()).toEqual([...GENRE_KEYS].sort());
  });

  it('follows the documented formula', () => {
    // DAU = 1000 × 24 / 0.55 = 43,636.36; payers × 0.045 = 1,963.64; × min(2, 4) passes × 150 R$
    // = 589,090.9 R$ spent; × 0.7 × 0.0038 = 1,566.98 USD.
    const r = estimateRevenue(
      { avgCcu: 1000, gamepassCount: 4, avgGamepassPrice: 150 },
      GENRE_PRIORS.simulation!,
    );
    expect(r.monthly).toBe(1566.98);
    expect(r.yearly).toBe(18_803.76);
    expect(r.breakdown.passesPerPayer).toBe(2);
    expect(r.breakdown.robuxSpent).toBeCloseTo(589_090.909, 2);
    // A single pass caps what a payer can buy.
    const one = estimateRevenue(
      { avgCcu: 1000, gamepassCount: 1, avgGamepassPrice: 150 },
      GENRE_PRIORS.simulation!,
    );
    expect(one.breakdown.passesPerPayer).toBe(1);
    expect(one.monthly).toBe(783.49);
  });

  it('earns nothing without players, passes or a price', () => {
    const sim = GENRE_PRIORS.simulation!;
    expect(estimateRevenue({ avgCcu: 0, gamepassCount: 5, avgGamepassPrice: 100 }, sim).monthly).toBe(0);
    expect(estimateRevenue({ avgCcu: 500, gamepassCount: 0, avgGamepassPrice: 100 }, sim).monthly).toBe(0);
    expect(estimateRevenue({ avgCcu: 500, gamepassCount: 5, avgGamepassPrice: 0 }, sim).monthly).toBe(0);
  });

  it('never falls when CCU grows', () => {
    fc.assert(
      fc.property(prior, ccu, ccu, count, price, (p, a, b, n, x) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const est = (c: number) =>
          estimateRevenue({ avgCcu: c, gamepassCount: n, avgGamepassPrice: x }, p).monthly;
        return est(lo) <= est(hi);
      }),
    );
  });

  it('never falls when the price or the pass count grows', () => {
    fc.assert(
      fc.property(prior, ccu, count, count, price, price, (p, c, n1, n2, x1, x2) => {
        const est = (n: number, x: number) =>
          estimateRevenue({ avgCcu: c, gamepassCount: n, avgGamepassPrice: x }, p).monthly;
        const [nLo, nHi] = n1 <= n2 ? [n1, n2] : [n2, n1];
        const [xLo, xHi] = x1 <= x2 ? [x1, x2] : [x2, x1];
        return est(nLo, xLo) <= est(nLo, xHi) && est(nLo, xLo) <= est(nHi, xLo);
      }),
    );
  });

  it('makes the yearly estimate exactly twelve monthly ones, to the cent', () => {
    fc.assert(
      fc.property(prior, ccu, count, price, (p, c, n, x) => {
        const r = estimateRevenue({ avgCcu: c, gamepassCount: n, avgGamepassPrice: x }, p);
        return cents(r.yearly) === 12 * cents(r.monthly) && Number(r.monthly.toFixed(2)) === r.monthly;
      }),
    );
  });
});

describe('confidence', () => {
  const band = { p10: 10, p90: 100, min: 0, max: 1000 };

  it('places a value in the band, the range or beyond', () => {
    expect(typicality(10, band)).toBe('typical');
    expect(typicality(100, band)).toBe('typical');
    expect(typicality(5, band)).toBe('unusual');
    expect(typicality(1000, band)).toBe('unusual');
    expect(typicality(1001, band)).toBe('outside_range');
    expect(typicality(1, null)).toBe('outside_range');
  });

  it('is high when all inputs are typical, medium with an unusual one, low beyond the range or without data', () => {
    expect(confidenceOf(['typical', 'typical', 'typical'], 500)).toBe('high');
    expect(confidenceOf(['typical', 'unusual', 'typical'], 500)).toBe('medium');
    expect(confidenceOf(['typical', 'unusual', 'outside_range'], 500)).toBe('low');
    expect(confidenceOf(['typical', 'typical', 'typical'], 19)).toBe('low');
  });
});
