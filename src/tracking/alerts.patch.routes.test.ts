import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { bearer, type LoggedIn, signedIn } from '../../test/helpers/auth.js';
import { testEngines } from '../../test/helpers/db.js';
import { seedGames } from '../../test/helpers/games.js';
import { fixedClock } from '../clock.js';

const NOW = new Date('2026-11-22T18:05:00Z');
const CREATED_AT = '2026-11-22T18:05:00.000Z';

describe.each(testEngines())('PATCH /api/alerts/{id} on %s', (engine) => {
  let t: TestApp;
  let user: LoggedIn;
  let other: LoggedIn;

  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock(NOW) });
    await seedGames(
      t.testDb.db,
      [{ universeId: 602, placeId: 7602, name: 'Quiet Game', creatorName: 'Q', genre: 'rpg', ccu: 10 }],
      NOW,
    );
    user = await signedIn(t, { plan: 'Builder' });
    other = await signedIn(t, { plan: 'Builder' });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    await t.testDb.db.query('DELETE FROM alerts');
  });

  const create = async (type: string, threshold?: number) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/alerts',
      headers: bearer(user),
      payload: { game_id: 602, type, ...(threshold === undefined ? {} : { threshold }) },
    });
    return res.json().id as number;
  };
  const patch = (id: number, payload: object, who: LoggedIn = user) =>
    t.app.inject({ method: 'PATCH', url: `/api/alerts/${id}`, headers: bearer(who), payload });
  const mine = async () =>
    (await t.app.inject({ url: '/api/alerts/my', headers: bearer(user) })).json().alerts as object[];

  it('changes the threshold and answers the rule as the list shows it, viewed flag untouched', async () => {
    const id = await create('ccu_drop', 5);
    const res = await patch(id, { threshold: 12.5 });
    expect(res.statusCode).toBe(200);
    const expected = {
      id,
      message: 'Watching Quiet Game for CCU at or below 12.5',
      type: 'ccu_drop',
      viewed: false,
      created_at: CREATED_AT,
      game_id: 602,
      threshold: 12.5,
      last_fired_at: null,
    };
    expect(res.json()).toEqual(expected);
    expect(await mine()).toEqual([expected]);
  });

  it('changes the threshold and the viewed flag in one request', async () => {
    const id = await create('rank_change');
    const res = await patch(id, { threshold: 5, viewed: true });
    expect(res.json()).toEqual({
      id,
      message: 'Watching Quiet Game for a move of 5 or more places in the RPG rank by CCU',
      type: 'rank_change',
      viewed: true,
      created_at: CREATED_AT,
      game_id: 602,
      threshold: 5,
      last_fired_at: null,
    });
  });

  it.each([
    ['ccu_spike', 100, -1, 'body.threshold must be >= 0'],
    ['ccu_spike', 100, 'lots', 'body.threshold must be number'],
    ['competitor', 100, -0.5, 'body.threshold must be >= 0'],
    ['trend_change', undefined, 150, 'body.threshold must be at most 100 for trend_change alerts'],
    ['rank_change', undefined, 0, 'body.threshold must be at least 1 for rank_change alerts'],
    ['rank_change', undefined, 2.5, 'body.threshold must be a whole number of places for rank_change alerts'],
  ] as const)(
    'refuses a %s threshold of %s → %s with 422, changing nothing',
    async (type, initial, bad, detail) => {
      const id = await create(type, initial);
      const before = await mine();
      const res = await patch(id, { threshold: bad, viewed: true });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ detail, code: 'validation_failed', field: 'body.threshold' });
      expect(await mine()).toEqual(before);
    },
  );

  it('refuses an empty body with 422 naming the body', async () => {
    const id = await create('ccu_spike', 100);
    const res = await patch(id, {});
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      detail: 'body must include threshold, viewed or both',
      code: 'validation_failed',
      field: 'body',
    });
  });

  it('answers 404 for another user’s rule and leaves it alone', async () => {
    const id = await create('ccu_spike', 100);
    const res = await patch(id, { threshold: 50 }, other);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'not_found', detail: 'No such alert.' });
    expect(await mine()).toMatchObject([{ id, threshold: 100 }]);
  });

  it('documents the threshold in the PATCH body of /openapi.json', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json?prefix=/api' })).json();
    const op = doc.paths['/api/alerts/{alert_id}'].patch;
    expect(op.summary).toBe('Mark an alert viewed or unviewed, or change its threshold');
    expect(Object.keys(op.requestBody.content['application/json'].schema.properties).sort()).toEqual([
      'threshold',
      'viewed',
    ]);
    expect(op.description).toContain('A different threshold starts the rule over');
  });
});
