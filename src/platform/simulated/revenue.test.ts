import { describe, expect, it } from 'vitest';
import { TEST_SHAPE, testMarket } from '../../../test/helpers/market.js';
import type { GameSpec } from './catalogue.js';
import { DEFAULT_SHAPE } from './defaults.js';
import { GENRE_MONETISATION, gameMonetisation, monthlyPassRevenue, playerHours } from './revenue.js';
import { createSimulatedSource } from './source.js';

const T = Date.parse('2026-11-22T00:00:00Z');
const DAY = 86_400_000;

describe('simulated game-pass revenue', () => {
  const market = createSimulatedSource({ seed: 1, shape: DEFAULT_SHAPE });
  const live = market.catalogue.filter((g) => g.launchAt < T - 30 * DAY);

  it('is a pure function of the game and the moment', () => {
    const g = live[0]!;
    expect(monthlyPassRevenue(1, DEFAULT_SHAPE, g, T)).toEqual(monthlyPassRevenue(1, DEFAULT_SHAPE, g, T));
    // Another seed is another market: the same index earns something else.
    const other = testMarket().catalogue.find((x) => x.passes.length > 0 && x.launchAt < T - 30 * DAY)!;
    expect(monthlyPassRevenue(7, TEST_SHAPE, other, T).robux).not.toBe(
      monthlyPassRevenue(1, DEFAULT_SHAPE, live[other.index]!, T).robux,
    );
  });

  it('earns nothing without a priced pass, and more for the busier of two otherwise equal games', () => {
    const g = live.find((x) => x.passes.some((p) => p.price !== null))!;
    const free: GameSpec = { ...g, passes: g.passes.map((p) => ({ ...p, price: null })) };
    expect(monthlyPassRevenue(1, DEFAULT_SHAPE, free, T).robux).toBe(0);
    expect(monthlyPassRevenue(1, DEFAULT_SHAPE, { ...g, passes: [] }, T).robux).toBe(0);
    const busier = { ...g, base: g.base * 3 };
    expect(monthlyPassRevenue(1, DEFAULT_SHAPE, busier, T).robux).toBeGreaterThan(
      monthlyPassRevenue(1, DEFAULT_SHAPE, g, T).robux,
    );
  });

  it('sums player hours over the month from the CCU path', () => {
    const g = live[0]!;
    const hours = playerHours(1, DEFAULT_SHAPE, g, T - 30 * DAY, T);
    const r = monthlyPassRevenue(1, DEFAULT_SHAPE, g, T);
    expect(r.playerHours).toBe(hours);
    expect(hours).toBeGreaterThan(0);
  });

  it("draws each game's own behaviour around its genre means", () => {
    const sim = live.filter((g) => g.genre === 'simulation');
    const traits = sim.map((g) => gameMonetisation(1, g));
    const mean = (k: keyof (typeof traits)[number]) => traits.reduce((s, t) => s + t[k], 0) / traits.length;
    const genre = GENRE_MONETISATION.simulation!;
    expect(sim.length).toBeGreaterThan(500);
    // Games differ from one another …
    expect(new Set(traits.map((t) => t.sessionHours)).size).toBe(sim.length);
    // … and average to the genre means (within sampling error of ~800 draws).
    expect(mean('sessionHours') / genre.sessionHours).toBeCloseTo(1, 1);
    expect(mean('sessionsPerPlayer') / genre.sessionsPerPlayer).toBeCloseTo(1, 1);
    expect(mean('payerShare') / genre.payerShare).toBeCloseTo(1, 1);
    expect(mean('passAppetite') / genre.passAppetite).toBeCloseTo(1, 1);
  });

  it('lets purchases per payer saturate with the pass count rather than cap at a fixed number', () => {
    const g = live.find((x) => x.passes.filter((p) => p.price !== null).length >= 8)!;
    const few = { ...g, passes: g.passes.filter((p) => p.price !== null).slice(0, 1) };
    const r1 = monthlyPassRevenue(1, DEFAULT_SHAPE, few, T);
    const rAll = monthlyPassRevenue(1, DEFAULT_SHAPE, g, T);
    const appetite = gameMonetisation(1, g).passAppetite;
    expect(r1.purchasesPerPayer).toBeCloseTo(1 - Math.exp(-appetite), 10);
    expect(rAll.purchasesPerPayer).toBeLessThan(appetite);
    expect(rAll.purchasesPerPayer).toBeGreaterThan(r1.purchasesPerPayer);
  });
});
