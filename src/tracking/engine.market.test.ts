import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOwner, recordingSink } from '../../test/helpers/alerts.js';
import { migratedDb, type TestDb } from '../../test/helpers/db.js';
import { testMarket } from '../../test/helpers/market.js';
import { fixedClock } from '../clock.js';
import { collectOnce } from '../market/index.js';
import { DEFAULT_ENTITLEMENTS } from '../plans.js';
import { AlertsService } from './alerts.service.js';
import { evaluateAlerts } from './engine.js';

/**
 * The simulated market driven through two days, collected and evaluated every 30 minutes as the
 * embedded service does: a spike rule on a game whose daily cycle crosses its threshold fires
 * exactly once per upward crossing of the readings the market produced.
 */
const START = new Date('2026-11-20T00:05:00Z');
const STEP = 30 * 60_000;
const STEPS = 96;
const log = { info: () => {}, warn: () => {} };

describe('the alert engine on the simulated market', () => {
  let t: TestDb;
  const market = testMarket();
  beforeAll(async () => {
    t = await migratedDb('pglite');
  });
  afterAll(() => t.dispose());

  it('fires ccu_spike once per upward crossing, as the market moved', async () => {
    // The 10th most played game at the start; threshold at the middle of its two-day range.
    const live = (await market.discover(START)).map((id) => market.gameAt(id, START)!);
    const game = live.sort((a, b) => b.playing - a.playing)[9]!;
    const readings = Array.from(
      { length: STEPS },
      (_, i) => market.gameAt(game.universeId, new Date(START.getTime() + i * STEP))!.playing,
    );
    const threshold = Math.round((Math.min(...readings) + Math.max(...readings)) / 2);
    // A rule is armed when created: the first reading at or above fires, then each rise after a fall.
    const expected = readings.filter(
      (v, i) => v >= threshold && (i === 0 || readings[i - 1]! < threshold),
    ).length;
    expect(expected).toBeGreaterThanOrEqual(2); // the daily cycle crosses it at least twice in two days

    await collectOnce({ db: t.db, platform: market, log }, START);
    const owner = await insertOwner(t.db, 'Builder');
    const clock = fixedClock(START);
    const rule = await new AlertsService({ db: t.db, clock, entitlements: DEFAULT_ENTITLEMENTS }).create(
      owner,
      {
        game_id: game.universeId,
        type: 'ccu_spike',
        threshold,
      },
    );
    const sink = recordingSink();
    for (let i = 0; i < STEPS; i++) {
      const now = new Date(START.getTime() + i * STEP);
      if (i > 0) await collectOnce({ db: t.db, platform: market, log }, now);
      await evaluateAlerts({ db: t.db, sink, entitlements: DEFAULT_ENTITLEMENTS }, now);
    }
    expect(sink.calls).toHaveLength(expected);
    for (const c of sink.calls) {
      expect(c.firing.alertId).toBe(rule.id);
      expect(c.firing.message).toContain(`passed`);
    }
  }, 60_000);
});
