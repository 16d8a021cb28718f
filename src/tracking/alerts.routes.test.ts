import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingSink, setCcu } from '../../test/helpers/alerts.js';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { bearer, type LoggedIn, signedIn } from '../../test/helpers/auth.js';
import { testEngines } from '../../test/helpers/db.js';
import { seedGames } from '../../test/helpers/games.js';
import { fixedClock } from '../clock.js';
import { evaluateAlerts } from './engine.js';

const NOW = new Date('2026-11-22T18:05:00Z');
const CREATED_AT = '2026-11-22T18:05:00.000Z';

describe.each(testEngines())('alert routes on %s', (engine) => {
  let t: TestApp;
  let user: LoggedIn;
  let other: LoggedIn;

  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock(NOW) });
    await seedGames(
      t.testDb.db,
      [
        {
          universeId: 994732206,
          placeId: 2753915549,
          name: 'Blox Fruits',
          creatorName: 'Gamer Robot',
          ccu: 400_000,
        },
        { universeId: 602, placeId: 7602, name: 'Quiet Game', creatorName: 'Q', genre: 'rpg', ccu: 10 },
      ],
      NOW,
    );
    user = await signedIn(t, { plan: 'Explorer' });
    other = await signedIn(t, { plan: 'Explorer' });
  });
  afterAll(async () => {
    await t.close();
  });

  const inject = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    who: LoggedIn = user,
    payload?: object,
  ) => t.app.inject({ method, url, headers: bearer(who), ...(payload ? { payload } : {}) });
  const create = (payload: object, who: LoggedIn = user) => inject('POST', '/api/alerts', who, payload);
  const clear = async () => {
    await t.testDb.db.query('DELETE FROM alerts');
  };

  it('creates a rule with 201, the threshold given, and lists it as watching, unviewed', async () => {
    await clear();
    const res = await create({ game_id: 994732206, type: 'ccu_spike', threshold: 450_000 });
    expect(res.statusCode).toBe(201);
    const id = res.json().id as number;
    expect(res.json()).toEqual({
      id,
      game_id: 994732206,
      type: 'ccu_spike',
      threshold: 450_000,
      created_at: CREATED_AT,
    });
    expect((await inject('GET', '/api/alerts/my')).json()).toEqual({
      alerts: [
        {
          id,
          message: 'Watching Blox Fruits for CCU at or above 450,000',
          type: 'ccu_spike',
          viewed: false,
          created_at: CREATED_AT,
          game_id: 994732206,
          threshold: 450_000,
          last_fired_at: null,
        },
      ],
    });
  });

  it('gives trend_change a minimum of 10 and rank_change 3 places when no threshold is sent', async () => {
    await clear();
    expect((await create({ game_id: 602, type: 'trend_change' })).json().threshold).toBe(10);
    expect((await create({ game_id: 602, type: 'rank_change' })).json().threshold).toBe(3);
  });

  it.each([
    [{ type: 'ccu_spike', threshold: 1 }, 'body.game_id'],
    [{ game_id: 602, threshold: 1 }, 'body.type'],
    [{ game_id: 602, type: 'viral', threshold: 1 }, 'body.type'],
    [{ game_id: 602, type: 'ccu_spike', threshold: -1 }, 'body.threshold'],
    [{ game_id: 602, type: 'ccu_spike', threshold: 'lots' }, 'body.threshold'],
    [{ game_id: 602, type: 'ccu_spike' }, 'body.threshold'],
    [{ game_id: 602, type: 'competitor' }, 'body.threshold'],
    [{ game_id: 602, type: 'rank_change', threshold: 2.5 }, 'body.threshold'],
    [{ game_id: 602, type: 'trend_change', threshold: 150 }, 'body.threshold'],
    [{ game_id: 'x', type: 'ccu_drop', threshold: 1 }, 'body.game_id'],
  ])('refuses %o with 422 naming %s', async (payload, field) => {
    const res = await create(payload);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'validation_failed', field });
  });

  it('names the allowed types when the type is unknown', async () => {
    expect((await create({ game_id: 602, type: 'viral' })).json().detail).toBe(
      'body.type must be one of: ccu_spike, ccu_drop, trend_change, competitor, rank_change',
    );
  });

  it('answers 404 for a game that is not in the catalogue', async () => {
    const res = await create({ game_id: 123, type: 'ccu_spike', threshold: 5 });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      code: 'not_found',
      detail: 'No game with universe id 123 is in the catalogue.',
    });
  });

  it('refuses a rule past the plan cap with 409 limit_reached', async () => {
    await clear();
    for (let i = 0; i < 5; i += 1) {
      expect((await create({ game_id: 602, type: 'ccu_drop', threshold: i })).statusCode).toBe(201);
    }
    const res = await create({ game_id: 602, type: 'ccu_drop', threshold: 9 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'limit_reached',
      detail: 'Your Explorer plan allows 5 alerts; delete one or upgrade to add more.',
    });
  });

  it('never shows, changes or deletes another user’s rule', async () => {
    await clear();
    const id = (await create({ game_id: 602, type: 'ccu_drop', threshold: 1 }, other)).json().id as number;
    expect((await inject('GET', '/api/alerts/my')).json()).toEqual({ alerts: [] });
    for (const [method, url, payload] of [
      ['PATCH', `/api/alerts/${id}`, { viewed: true }],
      ['DELETE', `/api/alerts/${id}`, undefined],
      ['GET', `/api/alerts/${id}/events`, undefined],
    ] as const) {
      const res = await inject(method, url, user, payload);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'not_found', detail: 'No such alert.' });
    }
    expect((await inject('POST', '/api/alerts/viewed')).json()).toEqual({ status: 'viewed', count: 0 });
    expect((await inject('GET', '/api/alerts/my', other)).json().alerts).toMatchObject([
      { id, viewed: false },
    ]);
  });

  it('marks one rule viewed or unviewed, and all of them viewed', async () => {
    await clear();
    const a = (await create({ game_id: 602, type: 'ccu_drop', threshold: 1 })).json().id as number;
    const b = (await create({ game_id: 602, type: 'ccu_drop', threshold: 2 })).json().id as number;
    const patched = await inject('PATCH', `/api/alerts/${a}`, user, { viewed: true });
    expect(patched.json()).toEqual({
      id: a,
      message: 'Watching Quiet Game for CCU at or below 1',
      type: 'ccu_drop',
      viewed: true,
      created_at: CREATED_AT,
      game_id: 602,
      threshold: 1,
      last_fired_at: null,
    });
    expect((await inject('PATCH', `/api/alerts/${a}`, user, {})).json()).toEqual({
      detail: 'body must include threshold, viewed or both',
      code: 'validation_failed',
      field: 'body',
    });
    expect((await inject('POST', '/api/alerts/viewed')).json()).toEqual({ status: 'viewed', count: 1 });
    expect((await inject('PATCH', `/api/alerts/${b}`, user, { viewed: false })).json().viewed).toBe(false);
    const listed = (await inject('GET', '/api/alerts/my')).json().alerts as { id: number; viewed: boolean }[];
    expect(listed.map((r) => [r.id, r.viewed])).toEqual([
      [b, false],
      [a, true],
    ]);
  });

  it('lists a rule’s firings, newest first', async () => {
    await clear();
    const id = (await create({ game_id: 994732206, type: 'ccu_spike', threshold: 450_000 })).json()
      .id as number;
    expect((await inject('GET', `/api/alerts/${id}/events`)).json()).toEqual({ events: [] });
    const sink = recordingSink();
    await setCcu(t.testDb.db, 994732206, 500_000);
    await evaluateAlerts({ db: t.testDb.db, sink, entitlements: t.config.entitlements }, NOW);
    expect((await inject('GET', `/api/alerts/${id}/events`)).json()).toEqual({
      events: [
        {
          fired_at: CREATED_AT,
          message: 'Blox Fruits passed 500,000 CCU (threshold 450,000) at 18:05 UTC',
          details: {
            universe_id: 994732206,
            name: 'Blox Fruits',
            genre: 'simulation',
            threshold: 450_000,
            ccu: 500_000,
          },
        },
      ],
    });
    expect(sink.calls.map((c) => c.plan)).toEqual(['Explorer']);
    expect((await inject('GET', '/api/alerts/my')).json().alerts).toMatchObject([
      { id, viewed: false, last_fired_at: CREATED_AT },
    ]);
  });

  it('deletes a rule once, then answers 404', async () => {
    await clear();
    const id = (await create({ game_id: 602, type: 'ccu_drop', threshold: 1 })).json().id as number;
    expect((await inject('DELETE', `/api/alerts/${id}`)).json()).toEqual({ status: 'deleted' });
    expect((await inject('DELETE', `/api/alerts/${id}`)).statusCode).toBe(404);
    expect((await inject('GET', '/api/alerts/my')).json()).toEqual({ alerts: [] });
  });

  it('refuses API keys with 403 api_key_read_only and anonymous callers with 401', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/keys',
      headers: bearer(user),
      payload: { name: 'read', scopes: ['read'] },
    });
    const key = { 'x-api-key': (created.json() as { key: string }).key };
    for (const [method, url] of [
      ['GET', '/api/alerts/my'],
      ['POST', '/api/alerts'],
      ['POST', '/api/alerts/viewed'],
      ['PATCH', '/api/alerts/1'],
      ['DELETE', '/api/alerts/1'],
      ['GET', '/api/alerts/1/events'],
    ] as const) {
      const keyed = await t.app.inject({ method, url, headers: key });
      expect(keyed.json()).toMatchObject({ code: 'api_key_read_only' });
      expect((await t.app.inject({ method, url })).statusCode).toBe(401);
    }
  });

  it('documents every answer of the tracking and alert endpoints in /openapi.json', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json?prefix=/api' })).json() as {
      paths: Record<
        string,
        Record<string, { tags: string[]; description: string; responses: Record<string, unknown> }>
      >;
      tags: { name: string }[];
    };
    const codes = (path: string, method: string) => Object.keys(doc.paths[path]![method]!.responses).sort();
    expect(codes('/api/alerts', 'post')).toEqual([
      '201',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '415',
      '422',
      '429',
      '500',
      '503',
    ]);
    expect(codes('/api/track/{universe_id}', 'post')).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '414',
      '415',
      '422',
      '429',
      '500',
      '503',
    ]);
    expect(codes('/api/alerts/{alert_id}', 'patch')).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '413',
      '414',
      '415',
      '422',
      '429',
      '500',
      '503',
    ]);
    expect(doc.paths['/api/alerts']!.post!.description).toContain('- `rank_change`: fires when');
    expect(doc.tags.map((tag) => tag.name)).toContain('tracking');
  });
});
