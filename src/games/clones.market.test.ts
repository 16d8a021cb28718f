import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { bearer, type LoggedIn, signedIn } from '../../test/helpers/auth.js';
import { testMarket } from '../../test/helpers/market.js';
import { fixedClock } from '../clock.js';
import { backfill, collectorDeps } from '../market/index.js';
import type { GameSpec } from '../platform/simulated/catalogue.js';
import { CLONE_THRESHOLD, cloneKey, jaccard, trigrams } from './clones.js';

const NOW = new Date('2026-11-22T15:05:00Z');
/**
 * Copycats are planted among games ranked below 500, so the test market needs more than its usual
 * 200 games: 1,500 with 5% copycats gives a few dozen.
 */
const market = testMarket({ games: 1500 });

/** A planted copycat keeps its original's description, which opens with the original's name. */
function originalName(g: GameSpec): string | null {
  const opening = g.description.slice(0, g.description.indexOf(': a '));
  return opening === g.name ? null : opening;
}

describe('clone detection on the simulated market', () => {
  let t: TestApp;
  let user: LoggedIn;
  const live = market.catalogue.filter((g) => g.launchAt <= NOW.getTime());
  const clones = live.filter((g) => originalName(g) !== null);

  beforeAll(async () => {
    t = await buildTestApp({ clock: fixedClock(NOW) });
    await backfill(collectorDeps(t.testDb.db, market, { info() {}, warn() {} }), 1, NOW);
    user = await signedIn(t, { plan: 'Builder' });
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  const detectedFor = async (g: GameSpec) => {
    const res = await t.app.inject({ url: `/api/game/${g.placeId}`, headers: bearer(user) });
    expect(res.statusCode).toBe(200);
    return (res.json() as { clones: { place_id: number; similarity: number }[] }).clones;
  };

  it('finds the original of every planted copycat', async () => {
    let planted = 0;
    let found = 0;
    for (const c of clones) {
      // Generated names repeat, so any same-genre game carrying the original's name and text counts.
      const originals = new Set(
        live
          .filter((g) => g.genre === c.genre && g.name === originalName(c) && g.description === c.description)
          .map((g) => g.placeId),
      );
      // Some originals launch after NOW: nothing to find yet.
      if (originals.size === 0) continue;
      planted++;
      const listed = await detectedFor(c);
      if (listed.some((m) => originals.has(m.place_id) && m.similarity >= 0.8)) found++;
    }
    // Measured: 38 of 38 (every copycat variant normalises to its original's key).
    expect(planted).toBeGreaterThanOrEqual(30);
    expect(found / planted).toBeGreaterThanOrEqual(0.95);
  }, 60_000);

  it('lists nothing for a game whose name is its own, however templated its description', async () => {
    // "Its own": no other game of the genre has a name within the clone threshold.
    const grams = new Map(live.map((g) => [g, trigrams(cloneKey(g.name))]));
    const unique = live
      .filter((g) =>
        live.every(
          (o) => o === g || o.genre !== g.genre || jaccard(grams.get(g)!, grams.get(o)!) < CLONE_THRESHOLD,
        ),
      )
      .slice(0, 40);
    expect(unique).toHaveLength(40);
    for (const g of unique) expect(await detectedFor(g)).toEqual([]);
  }, 60_000);
});
