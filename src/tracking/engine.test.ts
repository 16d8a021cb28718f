import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertOwner, type Owner, recordingSink, setCcu } from '../../test/helpers/alerts.js';
import { migratedDb, type TestDb, testEngines } from '../../test/helpers/db.js';
import { type GameSeed, seedGames, seedHourly } from '../../test/helpers/games.js';
import { fixedClock } from '../clock.js';
import { DEFAULT_ENTITLEMENTS } from '../plans.js';
import { AlertsService } from './alerts.service.js';
import { evaluateAlerts } from './engine.js';
import type { AlertType } from './rules.js';

const T0 = new Date('2026-11-22T18:05:00Z');
const MIN = 60_000;
const at = (minutes: number) => new Date(T0.getTime() + minutes * MIN);

/** A hand-built Simulation genre (busiest first: 101, 102, 103, 104) and one RPG game that never counts. */
const GAMES: GameSeed[] = [
  { universeId: 101, placeId: 9101, name: 'Blox Fruits', creatorName: 'Gamer Robot', ccu: 400_000 },
  { universeId: 102, placeId: 9102, name: 'Pet Simulator 99', creatorName: 'BIG Games', ccu: 300_000 },
  { universeId: 103, placeId: 9103, name: 'Bee Swarm Simulator', creatorName: 'Onett', ccu: 100_000 },
  { universeId: 104, placeId: 9104, name: 'Mining Simulator', creatorName: 'Rumble', ccu: 50_000 },
  { universeId: 201, placeId: 9201, name: 'Deepwoken', creatorName: 'Monad', genre: 'rpg', ccu: 900_000 },
];

describe.each(testEngines())('alert engine on %s', (engine) => {
  let t: TestDb;
  let owner: Owner;
  let alerts: AlertsService;
  let sink: ReturnType<typeof recordingSink>;
  const clock = fixedClock(T0);

  beforeAll(async () => {
    t = await migratedDb(engine);
    await seedGames(t.db, GAMES, new Date('2026-11-22T18:00:00Z'));
    alerts = new AlertsService({ db: t.db, clock, entitlements: DEFAULT_ENTITLEMENTS });
  });
  afterAll(async () => {
    await t.dispose();
  });
  beforeEach(async () => {
    await t.db.query('DELETE FROM alerts');
    await t.db.query('DELETE FROM ccu_hourly');
    for (const g of GAMES) await setCcu(t.db, g.universeId, g.ccu!);
    owner = await insertOwner(t.db, 'Builder');
    sink = recordingSink();
  });

  const create = (game_id: number, type: AlertType, threshold?: number) =>
    alerts.create(owner, { game_id, type, ...(threshold === undefined ? {} : { threshold }) });
  const evaluate = (minutes: number) =>
    evaluateAlerts({ db: t.db, sink, entitlements: DEFAULT_ENTITLEMENTS }, at(minutes));
  const messages = () => sink.calls.map((c) => c.firing.message);
  const events = async (id: number) => (await alerts.events(owner, id, 100)).events;

  it('fires a spike once, not on every evaluation, and again only after CCU fell below and rose again', async () => {
    const rule = await create(101, 'ccu_spike', 450_000);
    await evaluate(0);
    await setCcu(t.db, 101, 500_000);
    expect(await evaluate(5)).toEqual({ evaluated: 1, dormant: 0, fired: 1, lost: 0, failed: 0 });
    await setCcu(t.db, 101, 510_000);
    await evaluate(10);
    await setCcu(t.db, 101, 440_000);
    await evaluate(15);
    await setCcu(t.db, 101, 460_000);
    await evaluate(90);
    await evaluate(95);
    expect(messages()).toEqual([
      'Blox Fruits passed 500,000 CCU (threshold 450,000) at 18:10 UTC',
      'Blox Fruits passed 460,000 CCU (threshold 450,000) at 19:35 UTC',
    ]);
    expect(await events(rule.id)).toEqual([
      {
        fired_at: '2026-11-22T19:35:00.000Z',
        message: 'Blox Fruits passed 460,000 CCU (threshold 450,000) at 19:35 UTC',
        details: {
          universe_id: 101,
          name: 'Blox Fruits',
          genre: 'simulation',
          threshold: 450_000,
          ccu: 460_000,
        },
      },
      {
        fired_at: '2026-11-22T18:10:00.000Z',
        message: 'Blox Fruits passed 500,000 CCU (threshold 450,000) at 18:10 UTC',
        details: {
          universe_id: 101,
          name: 'Blox Fruits',
          genre: 'simulation',
          threshold: 450_000,
          ccu: 500_000,
        },
      },
    ]);
  });

  it('hands each firing to the sink once, with the owner and the owner’s plan', async () => {
    const rule = await create(101, 'ccu_spike', 450_000);
    await setCcu(t.db, 101, 500_000);
    await evaluate(0);
    await evaluate(5);
    const [row] = (
      await t.db.query<{ id: number }>('SELECT id FROM alert_firings WHERE alert_id = $1', [rule.id])
    ).rows;
    expect(sink.calls).toEqual([
      {
        plan: 'Builder',
        firing: {
          firingId: row!.id,
          alertId: rule.id,
          userId: owner.userId,
          teamId: owner.teamId,
          universeId: 101,
          type: 'ccu_spike',
          message: 'Blox Fruits passed 500,000 CCU (threshold 450,000) at 18:05 UTC',
          firedAt: at(0),
          details: {
            universe_id: 101,
            name: 'Blox Fruits',
            genre: 'simulation',
            threshold: 450_000,
            ccu: 500_000,
          },
        },
      },
    ]);
  });

  it('shows the watched condition until the first firing, then what happened, unread again', async () => {
    const rule = await create(101, 'ccu_spike', 450_000);
    const listed = async () => (await alerts.list(owner)).alerts[0]!;
    expect(await listed()).toMatchObject({
      message: 'Watching Blox Fruits for CCU at or above 450,000',
      viewed: false,
    });
    await alerts.update(owner, rule.id, { viewed: true });
    await setCcu(t.db, 101, 450_000);
    await evaluate(0);
    expect(await listed()).toMatchObject({
      message: 'Blox Fruits passed 450,000 CCU (threshold 450,000) at 18:05 UTC',
      viewed: false,
    });
  });

  it('fires a drop once per crossing below the threshold', async () => {
    await create(102, 'ccu_drop', 250_000);
    await evaluate(0);
    await setCcu(t.db, 102, 240_000);
    await evaluate(5);
    await setCcu(t.db, 102, 200_000);
    await evaluate(10);
    await setCcu(t.db, 102, 260_000);
    await evaluate(15);
    await setCcu(t.db, 102, 250_000);
    await evaluate(20);
    expect(messages()).toEqual([
      'Pet Simulator 99 fell to 240,000 CCU (threshold 250,000) at 18:10 UTC',
      'Pet Simulator 99 fell to 250,000 CCU (threshold 250,000) at 18:25 UTC',
    ]);
  });

  /** Hourly rollups for the two 24 h windows of an evaluation at T0: the 24 hours before, then the current 24. */
  async function trend(universeId: number, previous: number, recent: number) {
    await t.db.query('DELETE FROM ccu_hourly WHERE universe_id = $1', [universeId]);
    await seedHourly(t.db, universeId, new Date('2026-11-20T19:00:00Z'), new Array(24).fill(previous));
    await seedHourly(t.db, universeId, new Date('2026-11-21T19:00:00Z'), new Array(24).fill(recent));
  }

  it('fires trend_change when the 24 h trend direction flips beyond the minimum', async () => {
    await create(103, 'trend_change');
    const strict = await create(104, 'trend_change', 60);
    await trend(103, 100, 200); // +59.68: up, the reference
    await trend(104, 100, 200);
    await evaluate(0);
    await trend(103, 100, 105); // +4.83: inside the band, nothing changes
    await evaluate(5);
    await trend(103, 200, 100); // -59.68: down
    await trend(104, 200, 100); // |-59.68| < 60: never a direction for the strict rule
    await evaluate(10);
    await evaluate(15);
    expect(messages()).toEqual([
      'The 24 h trend of Bee Swarm Simulator turned down: trend score -59.68 (was up; minimum ±10) at 18:15 UTC',
    ]);
    expect(await events(strict.id)).toEqual([]);
  });

  it('fires competitor when a same-genre game overtakes the game, not for games already ahead', async () => {
    const rule = await create(102, 'competitor', 1_000_000);
    await evaluate(0); // Blox Fruits is already ahead: the baseline
    await setCcu(t.db, 103, 320_000);
    await setCcu(t.db, 201, 2_000_000); // another genre never counts
    await evaluate(5);
    await evaluate(10);
    expect(messages()).toEqual([
      'Bee Swarm Simulator overtook Pet Simulator 99 in Simulation: 320,000 CCU against 300,000 at 18:10 UTC',
    ]);
    expect((await events(rule.id))[0]!.details).toEqual({
      universe_id: 102,
      name: 'Pet Simulator 99',
      genre: 'simulation',
      threshold: 1_000_000,
      ccu: 300_000,
      competitors: [{ universe_id: 103, name: 'Bee Swarm Simulator', ccu: 320_000, reason: 'overtook' }],
    });
  });

  it('fires competitor when a same-genre game crosses the threshold CCU below the game', async () => {
    await create(101, 'competitor', 200_000);
    await evaluate(0); // Pet Simulator 99 (300,000) is past the line already
    await setCcu(t.db, 104, 250_000);
    await evaluate(5);
    await setCcu(t.db, 104, 150_000);
    await evaluate(10);
    await setCcu(t.db, 104, 210_000);
    await evaluate(15);
    expect(messages()).toEqual([
      'Mining Simulator passed 250,000 CCU in Simulation (threshold 200,000) at 18:10 UTC',
      'Mining Simulator passed 210,000 CCU in Simulation (threshold 200,000) at 18:20 UTC',
    ]);
  });

  it('fires rank_change when the genre rank moves by the threshold or more', async () => {
    await create(104, 'rank_change', 2);
    await evaluate(0); // #4, the reference
    await setCcu(t.db, 104, 350_000);
    await evaluate(5); // #2
    await setCcu(t.db, 104, 250_000);
    await evaluate(10); // #3: one place from #2
    await setCcu(t.db, 104, 40_000);
    await evaluate(15); // #4: two places from #2
    expect(messages()).toEqual([
      'Mining Simulator moved up from #4 to #2 in Simulation by CCU at 18:10 UTC',
      'Mining Simulator moved down from #2 to #4 in Simulation by CCU at 18:20 UTC',
    ]);
  });

  it('leaves the rules past a downgraded owner’s cap dormant', async () => {
    owner = await insertOwner(t.db, 'Studio');
    for (let i = 0; i < 6; i += 1) await create(101, 'ccu_spike', 100_000 + i);
    await t.db.query(`UPDATE users SET plan = 'Explorer' WHERE id = $1`, [owner.userId]);
    expect(await evaluate(0)).toEqual({ evaluated: 5, dormant: 1, fired: 5, lost: 0, failed: 0 });
    expect(sink.calls.map((c) => c.firing.details.threshold)).toEqual([
      100_000, 100_001, 100_002, 100_003, 100_004,
    ]);
    expect(sink.calls.every((c) => c.plan === 'Explorer')).toBe(true);
  });

  it('treats a canceled subscription as Explorer: rules past its cap dormant, firings in-app only', async () => {
    owner = await insertOwner(t.db, 'Studio');
    for (let i = 0; i < 6; i += 1) await create(101, 'ccu_spike', 100_000 + i);
    await t.db.query(
      `UPDATE users SET subscription_status = 'canceled', subscription_status_since = $2 WHERE id = $1`,
      [owner.userId, at(-60)],
    );
    expect(await evaluate(0)).toEqual({ evaluated: 5, dormant: 1, fired: 5, lost: 0, failed: 0 });
    expect(sink.calls.every((c) => c.plan === 'Explorer')).toBe(true);
  });

  it('keeps a past-due owner on the paid plan for 7 days, then Explorer', async () => {
    owner = await insertOwner(t.db, 'Studio');
    for (let i = 0; i < 6; i += 1) await create(101, 'ccu_spike', 100_000 + i);
    const pastDue = (days: number) =>
      t.db.query(
        `UPDATE users SET subscription_status = 'past_due', subscription_status_since = $2 WHERE id = $1`,
        [owner.userId, new Date(T0.getTime() - days * 86_400_000)],
      );
    await pastDue(6);
    expect(await evaluate(0)).toMatchObject({ evaluated: 6, dormant: 0, fired: 6 });
    expect(sink.calls.every((c) => c.plan === 'Studio')).toBe(true);
    await pastDue(8);
    await t.db.query('UPDATE alerts SET armed = true, state = NULL');
    expect(await evaluate(5)).toMatchObject({ evaluated: 5, dormant: 1 });
  });

  it('records no firing whose delivery could not be queued, and fires it on the next evaluation', async () => {
    const rule = await create(101, 'ccu_spike', 450_000);
    await setCcu(t.db, 101, 500_000);
    sink.failNext();
    expect(await evaluate(0)).toMatchObject({ fired: 0, failed: 1 });
    expect(await events(rule.id)).toEqual([]);
    expect(await evaluate(5)).toMatchObject({ fired: 1, failed: 0 });
    expect(messages()).toEqual(['Blox Fruits passed 500,000 CCU (threshold 450,000) at 18:10 UTC']);
  });
});
