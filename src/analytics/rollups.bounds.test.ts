/**
 * The largest values ingest accepts reach the dashboards: a level and a quantity of 2^53 − 1 (past a
 * 32-bit integer) are rolled up and shown, instead of failing their day's rebuild for good.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalyticsTeam, analyticsTeam, getView, sendEvents } from '../../test/helpers/analytics.js';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngines } from '../../test/helpers/db.js';
import { fixedClock } from '../clock.js';

const BIG = Number.MAX_SAFE_INTEGER;

describe.each(testEngines())('rollups of the largest accepted values (%s)', (engine) => {
  let t: TestApp;
  let team: AnalyticsTeam;
  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock('2026-11-20T12:00:00Z') });
    team = await analyticsTeam(t);
    const base = {
      platform: 'platform_2',
      game_id: 'big',
      player_id: 'p1',
      session_id: 's1',
      ts: '2026-11-20T10:00:00Z',
    };
    await sendEvents(t, team.key, [
      { ...base, event_id: 'big-level-1', type: 'level', payload: { level: BIG, result: 'win' } },
      {
        ...base,
        event_id: 'big-purchase',
        type: 'purchase',
        payload: { sku: 'bulk', price: 0, quantity: BIG },
      },
    ]);
  });
  afterAll(() => t.close());

  it('shows a level of 2^53 − 1 and a quantity of 2^53 − 1', async () => {
    expect(await t.services.analytics.service.rollups.run()).toBe(0);
    const levels = await getView(t, team.headers, 'big', 'levels', { from: '2026-11-20', to: '2026-11-20' });
    expect(levels.statusCode, levels.body).toBe(200);
    expect(levels.json().levels).toMatchObject([{ level: BIG, players: 1, attempts: 1 }]);
    const money = await getView(t, team.headers, 'big', 'monetization', {
      from: '2026-11-20',
      to: '2026-11-20',
    });
    expect(money.statusCode, money.body).toBe(200);
    expect(money.json().top_skus).toMatchObject([{ sku: 'bulk', units: BIG, buyers: 1 }]);
  });
});
