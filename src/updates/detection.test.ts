import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { testMarket } from '../../test/helpers/market.js';
import { fixedClock } from '../clock.js';
import { backfill, collectOnce, collectorDeps } from '../market/index.js';
import { updateIndex, updateTime } from '../platform/simulated/market.js';

const NOW = new Date('2026-11-22T15:05:00Z');
const DAY = 86_400_000;
const log = { info() {}, warn() {} };

describe('updates seen by the backfill and the collector', () => {
  const market = testMarket();
  let t: TestApp;
  let stored: Map<number, number[]>;

  beforeAll(async () => {
    t = await buildTestApp({ clock: fixedClock(NOW) });
    const deps = collectorDeps(t.testDb.db, market, log, undefined, t.services.updates.record);
    const stats = await backfill(deps, 10, NOW);
    expect(stats.updates).toBeGreaterThan(0);
    const rows = await t.testDb.db.query<{ universe_id: number; released_at: Date; previous_at: Date }>(
      'SELECT universe_id::float8 AS universe_id, released_at, previous_at FROM game_updates ORDER BY released_at',
    );
    stored = new Map();
    for (const r of rows.rows)
      stored.set(r.universe_id, [...(stored.get(r.universe_id) ?? []), r.released_at.getTime()]);
  });
  afterAll(() => t.close());

  it("stores exactly the simulator's updates between the backfill's first and last readings", () => {
    // The backfill's first reading is 1.5 h into its first day; its last, 5 minutes before now.
    const from = Date.UTC(2026, 10, 12, 1, 30);
    const until = NOW.getTime() - 5 * 60_000;
    let compared = 0;
    for (const g of market.catalogue.filter((x) => x.launchAt < from)) {
      const expected: number[] = [];
      for (let k = updateIndex(g, from) + 1; k <= updateIndex(g, until); k++)
        expected.push(new Date(updateTime(g, k)).getTime());
      expect(stored.get(g.universeId) ?? [], g.name).toEqual(expected);
      compared += expected.length;
    }
    expect(compared).toBeGreaterThan(50);
  });

  it("stores the next collection's updates once, with the time it saw them", async () => {
    const deps = collectorDeps(t.testDb.db, market, log, undefined, t.services.updates.record);
    const later = new Date(NOW.getTime() + 3 * DAY);
    const expected = market.catalogue
      .filter(
        (g) => g.launchAt < NOW.getTime() && updateIndex(g, later.getTime()) > updateIndex(g, NOW.getTime()),
      )
      .map((g) => ({
        universe_id: g.universeId,
        released_at: new Date(updateTime(g, updateIndex(g, later.getTime()))),
      }))
      .sort((a, b) => a.universe_id - b.universe_id);
    await collectOnce(deps, later);
    await collectOnce(deps, new Date(later.getTime() + 5 * 60_000)); // nothing new: nothing stored twice
    const rows = await t.testDb.db.query<{ universe_id: number; released_at: Date; detected_at: Date }>(
      'SELECT universe_id::float8 AS universe_id, released_at, detected_at FROM game_updates WHERE detected_at > $1 ORDER BY universe_id',
      [NOW],
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(rows.rows.map(({ universe_id, released_at }) => ({ universe_id, released_at }))).toEqual(expected);
    for (const r of rows.rows) expect(r.detected_at).toEqual(later);
  });

  it('measures nothing before its window has passed, and settles every update it can', async () => {
    await t.services.updates.measureDue(new Date(NOW.getTime() + 3 * DAY));
    const statuses = await t.testDb.db.query<{ status: string; released_at: Date }>(
      'SELECT status, released_at FROM game_updates',
    );
    const cutoff = Date.UTC(2026, 10, 25) - 7 * DAY; // released before this: the 7 days passed by Nov 25, 01:00
    for (const s of statuses.rows) {
      if (s.released_at.getTime() < cutoff) expect(s.status).not.toBe('measuring');
      else expect(s.status).toBe('measuring');
    }
    // Ten days of history: none has the 14 days before its release a counterfactual needs.
    expect(new Set(statuses.rows.map((s) => s.status))).toEqual(
      new Set(['insufficient_history', 'measuring']),
    );
  });
});
