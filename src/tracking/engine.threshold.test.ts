import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertOwner, type Owner, recordingSink, setCcu } from '../../test/helpers/alerts.js';
import { migratedDb, type TestDb, testEngines } from '../../test/helpers/db.js';
import { type GameSeed, seedGames } from '../../test/helpers/games.js';
import { fixedClock } from '../clock.js';
import { DEFAULT_ENTITLEMENTS } from '../plans.js';
import { AlertsService } from './alerts.service.js';
import { evaluateAlerts } from './engine.js';
import { claimNextState } from './engine.repo.js';
import type { AlertType } from './rules.js';

const T0 = new Date('2026-11-22T18:05:00Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

/** A Simulation genre, busiest first: 101, 102, 103, 104. */
const GAMES: GameSeed[] = [
  { universeId: 101, placeId: 9101, name: 'Blox Fruits', creatorName: 'Gamer Robot', ccu: 400_000 },
  { universeId: 102, placeId: 9102, name: 'Pet Simulator 99', creatorName: 'BIG Games', ccu: 300_000 },
  { universeId: 103, placeId: 9103, name: 'Bee Swarm Simulator', creatorName: 'Onett', ccu: 100_000 },
  { universeId: 104, placeId: 9104, name: 'Mining Simulator', creatorName: 'Rumble', ccu: 50_000 },
];

/** PATCH /api/alerts/{id} with a new threshold starts the rule over as if it were created now. */
describe.each(testEngines())('an edited alert threshold on %s', (engine) => {
  let t: TestDb;
  let owner: Owner;
  let alerts: AlertsService;
  let sink: ReturnType<typeof recordingSink>;

  beforeAll(async () => {
    t = await migratedDb(engine);
    await seedGames(t.db, GAMES, new Date('2026-11-22T18:00:00Z'));
    alerts = new AlertsService({ db: t.db, clock: fixedClock(T0), entitlements: DEFAULT_ENTITLEMENTS });
  });
  afterAll(async () => {
    await t.dispose();
  });
  beforeEach(async () => {
    await t.db.query('DELETE FROM alerts');
    for (const g of GAMES) await setCcu(t.db, g.universeId, g.ccu!);
    owner = await insertOwner(t.db, 'Builder');
    sink = recordingSink();
  });

  const create = (game_id: number, type: AlertType, threshold: number) =>
    alerts.create(owner, { game_id, type, threshold });
  const evaluate = (minutes: number) =>
    evaluateAlerts({ db: t.db, sink, entitlements: DEFAULT_ENTITLEMENTS }, at(minutes));
  const messages = () => sink.calls.map((c) => c.firing.message);
  const listed = async () => (await alerts.list(owner)).alerts[0]!;

  it('re-arms a level rule, so CCU already past the new line fires once more; the same threshold changes nothing', async () => {
    const rule = await create(101, 'ccu_spike', 450_000);
    await setCcu(t.db, 101, 500_000);
    await evaluate(0);
    await evaluate(5);
    const edited = await alerts.update(owner, rule.id, { threshold: 480_000, viewed: true });
    expect(edited).toMatchObject({
      threshold: 480_000,
      viewed: true,
      message: 'Blox Fruits passed 500,000 CCU (threshold 450,000) at 18:05 UTC',
    });
    await evaluate(10);
    await evaluate(15);
    await alerts.update(owner, rule.id, { threshold: 480_000 });
    await evaluate(20);
    expect(messages()).toEqual([
      'Blox Fruits passed 500,000 CCU (threshold 450,000) at 18:05 UTC',
      'Blox Fruits passed 500,000 CCU (threshold 480,000) at 18:15 UTC',
    ]);
    expect(await listed()).toMatchObject({
      viewed: false,
      threshold: 480_000,
      last_fired_at: '2026-11-22T18:15:00.000Z',
    });
  });

  it('says what the rule watches with the new threshold until it first fires', async () => {
    const rule = await create(102, 'ccu_drop', 100_000);
    await alerts.update(owner, rule.id, { threshold: 250_000.5 });
    expect(await listed()).toMatchObject({
      message: 'Watching Pet Simulator 99 for CCU at or below 250,000.5',
      threshold: 250_000.5,
      viewed: false,
    });
  });

  it('takes a new competitor baseline: games already past the new line do not fire, later crossings do', async () => {
    await create(101, 'competitor', 200_000);
    await evaluate(0); // Pet Simulator 99 (300,000) is the baseline
    const [rule] = (await alerts.list(owner)).alerts;
    await alerts.update(owner, rule!.id, { threshold: 90_000 });
    await evaluate(5); // Bee Swarm Simulator (100,000) is past the new line: baseline, no firing
    await setCcu(t.db, 104, 95_000);
    await evaluate(10);
    expect(messages()).toEqual([
      'Mining Simulator passed 95,000 CCU in Simulation (threshold 90,000) at 18:15 UTC',
    ]);
  });

  it('takes a new reference rank, so a move made before the edit does not fire', async () => {
    const rule = await create(104, 'rank_change', 3);
    await evaluate(0); // #4
    await setCcu(t.db, 104, 350_000);
    await evaluate(5); // #2: two places, under 3
    await alerts.update(owner, rule.id, { threshold: 2 });
    await evaluate(10); // #2 is the new reference
    await setCcu(t.db, 104, 40_000);
    await evaluate(15); // #4: two places from #2
    expect(messages()).toEqual([
      'Mining Simulator moved down from #2 to #4 in Simulation by CCU at 18:20 UTC',
    ]);
  });

  it('keeps an engine run that read the old threshold from writing its decision', async () => {
    const rule = await create(101, 'ccu_spike', 450_000);
    const version = async () =>
      (await t.db.query<{ version: number }>('SELECT version FROM alerts WHERE id = $1', [rule.id])).rows[0]!
        .version;
    const read = await version();
    await alerts.update(owner, rule.id, { threshold: 300_000 });
    expect(await version()).toBe(read + 1);
    expect(
      await t.db.transaction((tx) => claimNextState(tx, rule.id, read, { armed: false, state: null })),
    ).toBe(false);
    expect(await evaluate(0)).toEqual({ evaluated: 1, dormant: 0, fired: 1, lost: 0, failed: 0 });
    expect(messages()).toEqual(['Blox Fruits passed 400,000 CCU (threshold 300,000) at 18:05 UTC']);
  });
});
