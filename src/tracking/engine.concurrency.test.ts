import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOwner, recordingSink, setCcu } from '../../test/helpers/alerts.js';
import { migratedDb, POSTGRES_URL, type TestDb } from '../../test/helpers/db.js';
import { seedGames } from '../../test/helpers/games.js';
import { fixedClock } from '../clock.js';
import { type Db, openPostgres } from '../db/index.js';
import { DEFAULT_ENTITLEMENTS } from '../plans.js';
import { AlertsService } from './alerts.service.js';
import { evaluateAlerts } from './engine.js';

const T0 = new Date('2026-11-22T18:05:00Z');
const GAMES = 4;
const RULES_PER_GAME = 60;

/** Several worker processes on one PostgreSQL database: each their own pool. */
describe.skipIf(!POSTGRES_URL)('alert engine with concurrent workers on postgres', () => {
  let t: TestDb;
  let workers: Db[];

  beforeAll(async () => {
    t = await migratedDb('postgres');
    workers = [await openPostgres(t.url!, { max: 3 }), await openPostgres(t.url!, { max: 3 })];
    await seedGames(
      t.db,
      Array.from({ length: GAMES }, (_, i) => ({
        universeId: 300 + i,
        placeId: 9300 + i,
        name: `Race ${i}`,
        creatorName: 'Racer',
        ccu: 100,
      })),
      T0,
    );
    const alerts = new AlertsService({ db: t.db, clock: fixedClock(T0), entitlements: DEFAULT_ENTITLEMENTS });
    const owner = await insertOwner(t.db, 'Enterprise');
    for (let g = 0; g < GAMES; g += 1) {
      for (let r = 0; r < RULES_PER_GAME; r += 1) {
        await alerts.create(owner, { game_id: 300 + g, type: 'ccu_spike', threshold: 1_000 + r });
      }
    }
  });
  afterAll(async () => {
    for (const w of workers ?? []) await w.close();
    await t?.dispose();
  });

  it('records each firing exactly once when two engines evaluate at the same time', async () => {
    const sinks = [recordingSink(), recordingSink()];
    const round = (minutes: number) =>
      Promise.all(
        workers.map((db, i) =>
          evaluateAlerts(
            { db, sink: sinks[i]!, entitlements: DEFAULT_ENTITLEMENTS },
            new Date(T0.getTime() + minutes * 60_000),
          ),
        ),
      );
    const setAll = async (ccu: number) => {
      for (let g = 0; g < GAMES; g += 1) await setCcu(t.db, 300 + g, ccu);
    };
    const rules = GAMES * RULES_PER_GAME;

    await setAll(5_000);
    const first = await round(5);
    await round(10); // still above: nothing new
    await setAll(10); // below every threshold: every rule re-arms
    await round(15);
    await setAll(5_000);
    await round(20);
    await round(20);

    const firings = await t.db.query<{ alert_id: number; n: number }>(
      'SELECT alert_id, count(*)::int AS n FROM alert_firings GROUP BY alert_id',
    );
    expect(firings.rows).toHaveLength(rules);
    expect(firings.rows.every((r) => r.n === 2)).toBe(true);
    const handed = sinks.flatMap((s) => s.calls.map((c) => c.firing.firingId)).sort((a, b) => a - b);
    expect(handed).toHaveLength(2 * rules);
    expect(new Set(handed).size).toBe(2 * rules);
    expect(first.reduce((n, s) => n + s.fired, 0)).toBe(rules);
    expect(first.reduce((n, s) => n + s.failed, 0)).toBe(0);
  });
});
