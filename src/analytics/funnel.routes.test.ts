/**
 * POST /api/sdk/analytics/{game_id}/funnel against a small hand-computed fixture: a player who
 * skips a step, one whose next step falls outside the window, one doing the steps out of order, a
 * `where` condition on an extra payload field, one event never counting for two steps, and the
 * 422s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalyticsTeam, analyticsTeam, eventFactory, sendEvents } from '../../test/helpers/analytics.js';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngines } from '../../test/helpers/db.js';
import { fixedClock } from '../clock.js';

const make = eventFactory('fn');
const ev = (player: string, ts: string, type: 'level' | 'custom', payload: Record<string, unknown>) =>
  make(player, ts, type, payload, { session_id: `s-${player}` });
const tutorial = (p: string, ts: string) => ev(p, ts, 'custom', { name: 'tutorial_start' });
const level1 = (p: string, ts: string, result = 'win') => ev(p, ts, 'level', { level: 1, result });
const shop = (p: string, ts: string, source: string) => ev(p, ts, 'custom', { name: 'shop_open', source });

/**
 * Steps: tutorial_start → level 1 → shop_open with payload.source = banner (an extra field).
 *   f1  18th 10:00 tutorial, 10:10 level 1, 10:30 shop banner: every step (600 s, 1200 s)
 *   f2  18th 11:00 tutorial, 11:30 shop banner: skips level 1, so step 0 only
 *   f3  18th 12:00 tutorial, 19th 13:00 level 1 (25 h later), 13:30 shop banner
 *   f4  18th 09:00 level 1, 09:05 shop banner, 09:10 tutorial (out of order), 09:40 level 1 (1800 s)
 *   f5  19th 08:00 tutorial, 08:20 level 1 (1200 s), 08:30 shop from the menu (not banner),
 *       20th 09:00 shop banner (25 h after its tutorial, 88800 s after its level 1)
 */
function fixture() {
  return [
    tutorial('f1', '2026-11-18T10:00:00Z'),
    level1('f1', '2026-11-18T10:10:00Z'),
    shop('f1', '2026-11-18T10:30:00Z', 'banner'),
    tutorial('f2', '2026-11-18T11:00:00Z'),
    shop('f2', '2026-11-18T11:30:00Z', 'banner'),
    tutorial('f3', '2026-11-18T12:00:00Z'),
    level1('f3', '2026-11-19T13:00:00Z', 'loss'),
    shop('f3', '2026-11-19T13:30:00Z', 'banner'),
    level1('f4', '2026-11-18T09:00:00Z'),
    shop('f4', '2026-11-18T09:05:00Z', 'banner'),
    tutorial('f4', '2026-11-18T09:10:00Z'),
    level1('f4', '2026-11-18T09:40:00Z', 'quit'),
    tutorial('f5', '2026-11-19T08:00:00Z'),
    level1('f5', '2026-11-19T08:20:00Z'),
    shop('f5', '2026-11-19T08:30:00Z', 'menu'),
    shop('f5', '2026-11-20T09:00:00Z', 'banner'),
  ];
}

const STEPS = [
  { custom: 'tutorial_start' },
  { level: 1 },
  { custom: 'shop_open', where: [{ field: 'payload.source', op: 'eq', value: 'banner' }] },
];
const RANGE = { from: '2026-11-18', to: '2026-11-20' };
const header = {
  game_id: 'g1',
  platform: null,
  from: '2026-11-18',
  to: '2026-11-20',
  granularity: 'day',
  segment: null,
  history_limited_from: null,
};

describe.each(testEngines())('SDK analytics: funnel (%s)', (engine) => {
  let t: TestApp;
  let team: AnalyticsTeam;

  function funnel(body: unknown, query: Record<string, string> = RANGE, headers = team.headers) {
    return t.app.inject({
      method: 'POST',
      url: `/api/sdk/analytics/g1/funnel?${new URLSearchParams(query).toString()}`,
      headers,
      payload: body as Record<string, unknown>,
    });
  }

  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock('2026-11-20T12:00:00Z') });
    team = await analyticsTeam(t);
    await sendEvents(t, team.key, fixture());
  });
  afterAll(() => t.close());

  it('counts the players through the steps within the default 24-hour window', async () => {
    const res = await funnel({ steps: STEPS });
    expect(res.statusCode).toBe(200);
    // Step 0: all five. Level 1: f1 (600 s), f4 (1800 s), f5 (1200 s); f2 skipped it and f3's came
    // 25 h later. Shop banner: f1 only (1200 s); f5's banner came 25 h after its tutorial.
    expect(res.json()).toEqual({
      ...header,
      window_hours: 24,
      steps: [
        {
          index: 0,
          label: 'tutorial_start',
          players: 5,
          conversion_from_first: 1,
          conversion_from_previous: null,
          median_seconds_from_previous: null,
        },
        {
          index: 1,
          label: 'level 1',
          players: 3,
          conversion_from_first: 0.6,
          conversion_from_previous: 0.6,
          median_seconds_from_previous: 1200,
        },
        {
          index: 2,
          label: 'shop_open',
          players: 1,
          conversion_from_first: 0.2,
          conversion_from_previous: 0.3333,
          median_seconds_from_previous: 1200,
        },
      ],
    });
  });

  it('lets a longer window take in the later steps', async () => {
    const res = await funnel({ steps: STEPS, window_hours: 48 });
    expect(res.statusCode).toBe(200);
    // Level 1: f1 600, f5 1200, f4 1800, f3 90000 → 4 players, median 1500.
    // Shop banner: f1 1200, f3 1800, f5 88800 → 3 players, median 1800.
    expect(res.json().steps).toEqual([
      {
        index: 0,
        label: 'tutorial_start',
        players: 5,
        conversion_from_first: 1,
        conversion_from_previous: null,
        median_seconds_from_previous: null,
      },
      {
        index: 1,
        label: 'level 1',
        players: 4,
        conversion_from_first: 0.8,
        conversion_from_previous: 0.8,
        median_seconds_from_previous: 1500,
      },
      {
        index: 2,
        label: 'shop_open',
        players: 3,
        conversion_from_first: 0.6,
        conversion_from_previous: 0.75,
        median_seconds_from_previous: 1800,
      },
    ]);
    expect(res.json().window_hours).toBe(48);
  });

  it('never counts one event for two steps, and reads only the range', async () => {
    // Level 1 twice: only f4 has two level 1 events (09:00 and 09:40: 2400 s).
    const twice = await funnel({ steps: [{ level: 1 }, { level: 1 }] });
    expect(twice.json().steps.map((s: { players: number }) => s.players)).toEqual([4, 1]);
    expect(twice.json().steps[1].median_seconds_from_previous).toBe(2400);
    // On the 19th alone: f5's tutorial (08:00) → level 1 (08:20); f3's tutorial was on the 18th.
    const day = await funnel({ steps: STEPS }, { from: '2026-11-19', to: '2026-11-19' });
    expect(day.json()).toMatchObject({ from: '2026-11-19', to: '2026-11-19' });
    expect(day.json().steps.map((s: { players: number }) => s.players)).toEqual([1, 1, 0]);
    expect(day.json().steps[2]).toEqual({
      index: 2,
      label: 'shop_open',
      players: 0,
      conversion_from_first: 0,
      conversion_from_previous: 0,
      median_seconds_from_previous: null,
    });
  });

  it('answers null conversions when nobody enters the funnel', async () => {
    const res = await funnel({ steps: [{ custom: 'never_sent' }, { level: 1 }] });
    expect(res.json().steps).toEqual([
      {
        index: 0,
        label: 'never_sent',
        players: 0,
        conversion_from_first: null,
        conversion_from_previous: null,
        median_seconds_from_previous: null,
      },
      {
        index: 1,
        label: 'level 1',
        players: 0,
        conversion_from_first: null,
        conversion_from_previous: null,
        median_seconds_from_previous: null,
      },
    ]);
  });

  it('refuses bad step lists with 422 naming the field', async () => {
    const one = await funnel({ steps: [{ level: 1 }] });
    expect([one.statusCode, one.json().code, one.json().field]).toEqual([
      422,
      'validation_failed',
      'body.steps',
    ]);
    const eleven = await funnel({ steps: Array.from({ length: 11 }, (_, i) => ({ level: i })) });
    expect([eleven.statusCode, eleven.json().field]).toEqual([422, 'body.steps']);
    const both = await funnel({ steps: [{ level: 1 }, { level: 2, custom: 'x' }] });
    expect(both.json()).toEqual({
      detail: 'body.steps[1] must have exactly one of level and custom',
      code: 'validation_failed',
      field: 'body.steps[1]',
    });
    const neither = await funnel({
      steps: [{ where: [{ field: 'country', op: 'eq', value: 'DE' }] }, { level: 1 }],
    });
    expect([neither.statusCode, neither.json().field]).toEqual([422, 'body.steps[0]']);
    const badCondition = await funnel({
      steps: [
        { level: 1 },
        { custom: 'shop_open', where: [{ field: 'payload.source', op: 'gt', value: 'x' }] },
      ],
    });
    expect(badCondition.json()).toEqual({
      detail: 'body.steps[1].where[0].value must be a number with gt',
      code: 'validation_failed',
      field: 'body.steps[1].where[0].value',
    });
    const window = await funnel({ steps: STEPS, window_hours: 721 });
    expect([window.statusCode, window.json().field]).toEqual([422, 'body.window_hours']);
  });

  it("answers 404 for another team's game and 401 without a session", async () => {
    const stranger = await analyticsTeam(t);
    const res = await funnel({ steps: STEPS }, RANGE, stranger.headers);
    expect([res.statusCode, res.json().code]).toEqual([404, 'not_found']);
    expect((await funnel({ steps: STEPS }, RANGE, {})).statusCode).toBe(401);
  });
});
