/**
 * Experiments through the real app, on both engines: create, list, read, stop and delete (team
 * scoped, 404 for another team's), assignment with a session or the game's SDK key, and the results
 * of a small hand-computed fixture (every number below worked out by hand and checked with SciPy,
 * not by the code under test).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalyticsTeam, analyticsTeam, eventFactory, sendEvents } from '../../test/helpers/analytics.js';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngines } from '../../test/helpers/db.js';
import { fixedClock } from '../clock.js';

const make = eventFactory('xp');
const ev = (
  player: string,
  ts: string,
  type = 'session_start',
  payload: Record<string, unknown> = {},
  more = {},
) => make(player, ts, type, payload, more);
const expose = (player: string, ts: string, variant: string, experiment = 'shop-layout') =>
  make(player, ts, 'custom', { name: 'experiment_exposure', experiment, variant });
const buy = (player: string, ts: string, price: number, currency = 'USD') =>
  make(player, ts, 'purchase', { sku: 'gems', price, currency });
const tutorial = (player: string, ts: string) => make(player, ts, 'custom', { name: 'tutorial_done' });

/**
 * The clock reads 2026-11-20 12:00 UTC; the experiment starts 2026-11-01, control and grid 1:1.
 *   c1 control 11-01 10:00; back 11-02 and 11-08; bought 4.99 USD at 09:00 the same day (counts: day
 *      resolution); tutorial_done at 09:30, before the exposure (does not count)
 *   c2 control 11-03 12:00; back 11-04 on platform_3; bought 100 R$ (0.38 USD) on 11-05; tutorial 13:00
 *   c3 control 11-05; nothing else
 *   c4 control 11-19; tutorial after it; its day 1 (today) has not ended: not in D1 or D7
 *   g1 grid 11-01; back 11-02, 11-08; bought 9.99 USD on 11-02 and 0.99 on 11-09; tutorial after
 *   g2 grid 11-02; back 11-03; bought 5 EUR (a purchase, no USD revenue)
 *   g3 grid 11-02; back 11-03 and 11-09
 *   x1 control 11-01 then grid 11-02: contaminated (counted under control, left out)
 *   u1 exposed to "blue", which the experiment lacks; o1 exposed 10-30, before start_day
 *   g1 also exposed to another experiment, and one exposure without a variant: both ignored
 */
function fixture() {
  return [
    expose('c1', '2026-11-01T10:00:00Z', 'control'),
    buy('c1', '2026-11-01T09:00:00Z', 4.99),
    tutorial('c1', '2026-11-01T09:30:00Z'),
    ev('c1', '2026-11-02T08:00:00Z'),
    ev('c1', '2026-11-08T08:00:00Z'),
    expose('c2', '2026-11-03T12:00:00Z', 'control'),
    tutorial('c2', '2026-11-03T13:00:00Z'),
    ev('c2', '2026-11-04T08:00:00Z', 'session_start', {}, { platform: 'platform_3' }),
    buy('c2', '2026-11-05T08:00:00Z', 100, 'R$'),
    expose('c3', '2026-11-05T08:00:00Z', 'control'),
    expose('c4', '2026-11-19T08:00:00Z', 'control'),
    tutorial('c4', '2026-11-19T09:00:00Z'),
    expose('g1', '2026-11-01T10:00:00Z', 'grid'),
    tutorial('g1', '2026-11-01T11:00:00Z'),
    ev('g1', '2026-11-02T08:00:00Z'),
    buy('g1', '2026-11-02T09:00:00Z', 9.99),
    ev('g1', '2026-11-08T08:00:00Z'),
    buy('g1', '2026-11-09T09:00:00Z', 0.99),
    expose('g1', '2026-11-03T10:00:00Z', 'blue', 'other-exp'),
    make('g1', '2026-11-03T10:00:00Z', 'custom', { name: 'experiment_exposure', experiment: 'shop-layout' }),
    expose('g2', '2026-11-02T10:00:00Z', 'grid'),
    ev('g2', '2026-11-03T08:00:00Z'),
    buy('g2', '2026-11-03T09:00:00Z', 5, 'EUR'),
    expose('g3', '2026-11-02T10:00:00Z', 'grid'),
    ev('g3', '2026-11-03T08:00:00Z'),
    ev('g3', '2026-11-09T08:00:00Z'),
    expose('x1', '2026-11-01T10:00:00Z', 'control'),
    expose('x1', '2026-11-02T10:00:00Z', 'grid'),
    expose('u1', '2026-11-02T10:00:00Z', 'blue'),
    expose('o1', '2026-10-30T10:00:00Z', 'control'),
  ];
}

const BODY = {
  game_id: 'g1',
  key: 'shop-layout',
  variants: [
    { key: 'control', weight: 1 },
    { key: 'grid', weight: 1 },
  ],
  primary_metric: { metric: 'd1_retention' },
  secondary_metrics: [
    { metric: 'd7_retention' },
    { metric: 'conversion' },
    { metric: 'revenue_per_player' },
    { metric: 'custom', event_name: 'tutorial_done' },
  ],
  minimum_detectable_effect: 0.1,
  start_day: '2026-11-01',
};

describe.each(testEngines())('SDK experiments (%s)', (engine) => {
  let t: TestApp;
  let team: AnalyticsTeam;
  let other: AnalyticsTeam;
  let id: number;

  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    headers = team.headers,
    payload?: unknown,
  ) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock('2026-11-20T12:00:00Z') });
    team = await analyticsTeam(t, 'Studio');
    other = await analyticsTeam(t, 'Studio');
    await sendEvents(t, team.key, fixture());
    await sendEvents(t, other.key, [
      make('z1', '2026-11-19T08:00:00Z', 'session_start', {}, { game_id: 'theirs' }),
    ]);
    const res = await call('POST', '/api/sdk/experiments', team.headers, BODY);
    expect(res.statusCode, res.body).toBe(201);
    id = res.json().id;
  });
  afterAll(() => t.close());

  it('creates, lists and reads an experiment; another team sees none of it', async () => {
    const got = await call('GET', `/api/sdk/experiments/${id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual({
      id,
      game_id: 'g1',
      key: 'shop-layout',
      variants: BODY.variants,
      primary_metric: { metric: 'd1_retention' },
      secondary_metrics: BODY.secondary_metrics,
      minimum_detectable_effect: 0.1,
      baseline: null,
      start_day: '2026-11-01',
      status: 'running',
      created_at: '2026-11-20T12:00:00.000Z',
      stopped_at: null,
    });
    const list = await call('GET', '/api/sdk/experiments');
    expect(list.json().experiments.map((e: { id: number }) => e.id)).toEqual([id]);
    expect((await call('GET', '/api/sdk/experiments', other.headers)).json()).toEqual({ experiments: [] });
    for (const url of [`/api/sdk/experiments/${id}`, `/api/sdk/experiments/${id}/results`]) {
      const res = await call('GET', url, other.headers);
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
    expect(
      (await call('PATCH', `/api/sdk/experiments/${id}`, other.headers, { status: 'stopped' })).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `/api/sdk/experiments/${id}`, other.headers)).statusCode).toBe(404);
  });

  it('refuses a duplicate key, another team’s game and malformed definitions, naming the field', async () => {
    const dup = await call('POST', '/api/sdk/experiments', team.headers, BODY);
    expect(dup.statusCode).toBe(409);
    expect(dup.json().code).toBe('experiment_exists');
    const theirs = await call('POST', '/api/sdk/experiments', team.headers, {
      ...BODY,
      key: 'k2',
      game_id: 'theirs',
    });
    expect(theirs.statusCode).toBe(404);
    const cases: [Record<string, unknown>, string][] = [
      [{ variants: [{ key: 'a', weight: 1 }] }, 'body.variants'],
      [
        {
          variants: [
            { key: 'a', weight: 1 },
            { key: 'a', weight: 2 },
          ],
        },
        'body.variants[1].key',
      ],
      [{ primary_metric: { metric: 'custom' } }, 'body.primary_metric.event_name'],
      [
        { secondary_metrics: [{ metric: 'conversion', event_name: 'x' }] },
        'body.secondary_metrics[0].event_name',
      ],
      [{ secondary_metrics: [{ metric: 'd1_retention' }] }, 'body.secondary_metrics[0]'],
      [{ baseline: 1.5 }, 'body.baseline'],
    ];
    for (const [change, field] of cases) {
      const res = await call('POST', '/api/sdk/experiments', team.headers, {
        ...BODY,
        key: 'bad',
        ...change,
      });
      expect(res.statusCode, JSON.stringify(change)).toBe(422);
      expect(res.json().field, JSON.stringify(change)).toContain(field);
    }
  });

  it('answers assignments to a session and to the game’s SDK key, never to a read key or another team', async () => {
    const url = (player: string, key = 'shop-layout') =>
      `/api/sdk/experiments/${key}/assignment?game_id=g1&player_id=${encodeURIComponent(player)}`;
    // Expected variants from SHA-256("shop-layout:<player>")'s first 8 bytes mod 2 (Python's hashlib).
    const expected: Record<string, string> = {
      'player-1': 'grid',
      'player-2': 'control',
      'player-6': 'grid',
    };
    for (const [player, variant] of Object.entries(expected)) {
      const bySession = await call('GET', url(player));
      expect(bySession.statusCode, bySession.body).toBe(200);
      expect(bySession.json()).toEqual({
        experiment: 'shop-layout',
        experiment_id: id,
        game_id: 'g1',
        player_id: player,
        variant,
        status: 'running',
      });
      const byKey = await call('GET', url(player), { 'x-api-key': team.key });
      expect(byKey.statusCode, byKey.body).toBe(200);
      expect(byKey.json().variant).toBe(variant);
    }
    const theirKey = await call('GET', url('player-1'), { 'x-api-key': other.key });
    expect(theirKey.statusCode).toBe(404);
    const read = await t.accounts.apiKeys.create({ userId: team.userId, teamId: team.teamId }, 'reader', [
      'read',
    ]);
    const byRead = await call('GET', url('player-1'), { 'x-api-key': read.key });
    expect(byRead.statusCode).toBe(403);
    expect(byRead.json().code).toBe('insufficient_scope');
    expect((await call('GET', url('player-1'), {})).statusCode).toBe(401);
    expect((await call('GET', url('player-1', 'nope'))).statusCode).toBe(404);
    // The SDK key reaches nothing else.
    const list = await call('GET', '/api/sdk/experiments', { 'x-api-key': team.key });
    expect(list.statusCode).toBe(403);
  });

  it('computes the results of the hand-computed fixture', async () => {
    const res = await call('GET', `/api/sdk/experiments/${id}/results`);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json();
    expect(r.from).toBe('2026-11-01');
    expect(r.to).toBe('2026-11-20');
    expect(r.history_limited_from).toBeNull();
    expect(r.exposure).toMatchObject({ players_exposed: 7, contaminated: 1, unknown_variant: 1 });
    expect(r.variants).toEqual([
      {
        variant: 'control',
        weight: 1,
        expected_share: 0.5,
        players_exposed: 4,
        share: 0.571429,
        contaminated: 1,
      },
      {
        variant: 'grid',
        weight: 1,
        expected_share: 0.5,
        players_exposed: 3,
        share: 0.428571,
        contaminated: 0,
      },
    ]);
    // ((4 − 3.5)² + (3 − 3.5)²) / 3.5 = 1/7; upper tail of chi-square(1).
    expect(r.sample_ratio_mismatch).toMatchObject({
      observed: [4, 3],
      statistic: 0.142857,
      df: 1,
      p_value: 0.705457,
      flagged: false,
    });
    const [d1, d7, conversion, revenue, custom] = r.metrics;
    const rate = (
      variant: string,
      players: number,
      successes: number,
      value: number,
      ci: [number, number],
      diff: [number, number, number, number, number, number] | null,
    ) => ({
      variant,
      players,
      successes,
      value,
      ci_low: ci[0],
      ci_high: ci[1],
      sd: null,
      difference: diff?.[0] ?? null,
      difference_ci_low: diff?.[1] ?? null,
      difference_ci_high: diff?.[2] ?? null,
      relative_difference: diff?.[3] ?? null,
      statistic: diff?.[4] ?? null,
      p_value: diff?.[5] ?? null,
    });
    // D1: control c1, c2 of c1..c3 (c4's day 1 is today); grid g1, g2, g3.
    expect(d1).toMatchObject({
      metric: 'd1_retention',
      event_name: null,
      primary: true,
      unit: 'share_of_players',
    });
    expect(d1.variants).toEqual([
      rate('control', 3, 2, 0.666667, [0.20766, 0.938508], null),
      rate('grid', 3, 3, 1, [0.438503, 1], [0.333333, -0.290507, 0.79234, 0.5, 1.09545, 0.273322]),
    ]);
    // D7: c1 of c1..c3; g1 and g3.
    expect(d7.variants).toEqual([
      rate('control', 3, 1, 0.333333, [0.061492, 0.79234], null),
      rate(
        'grid',
        3,
        2,
        0.666667,
        [0.20766, 0.938508],
        [0.333333, -0.315801, 0.717775, 1, 0.816497, 0.414216],
      ),
    ]);
    // Conversion: c1 (same day, before the exposure: day resolution) and c2; g1 and g2 (EUR).
    expect(conversion.variants).toEqual([
      rate('control', 4, 2, 0.5, [0.150039, 0.849961], null),
      rate(
        'grid',
        3,
        2,
        0.666667,
        [0.20766, 0.938508],
        [0.166667, -0.410534, 0.609804, 0.333333, 0.440959, 0.659243],
      ),
    ]);
    // tutorial_done at or after the first exposure: c2, c4; g1.
    expect(custom).toMatchObject({ metric: 'custom', event_name: 'tutorial_done', primary: false });
    expect(custom.variants).toEqual([
      rate('control', 4, 2, 0.5, [0.150039, 0.849961], null),
      rate(
        'grid',
        3,
        1,
        0.333333,
        [0.061492, 0.79234],
        [-0.166667, -0.609804, 0.410534, -0.333333, -0.440959, 0.659243],
      ),
    ]);
    // Revenue: control [4.99, 0.38, 0, 0] (100 R$ × 0.0038), grid [10.98, 0, 0] (EUR not summed).
    expect(revenue).toMatchObject({ metric: 'revenue_per_player', unit: 'usd_per_player' });
    expect(revenue.variants).toEqual([
      {
        variant: 'control',
        players: 4,
        successes: null,
        value: 1.3425,
        ci_low: -2.537309,
        ci_high: 5.222309,
        sd: 2.438256,
        difference: null,
        difference_ci_low: null,
        difference_ci_high: null,
        relative_difference: null,
        statistic: null,
        p_value: null,
      },
      {
        variant: 'grid',
        players: 3,
        successes: null,
        value: 3.66,
        ci_low: -12.087709,
        ci_high: 19.407709,
        sd: 6.339306,
        difference: 2.3175,
        difference_ci_low: -11.682892,
        difference_ci_high: 16.317892,
        relative_difference: 1.726257,
        statistic: 0.600746,
        p_value: 0.598984,
      },
    ]);
    // Fleiss: baseline 2/3 (the control's D1), +0.1 → 318 per variant; the smallest has 3.
    expect(r.sample_size).toMatchObject({
      minimum_detectable_effect: 0.1,
      baseline: 0.666667,
      baseline_source: 'control_observed',
      alpha: 0.05,
      power: 0.8,
      required_per_variant: 318,
      smallest_variant: 3,
      progress: 0.009434,
      reached: false,
    });
    expect(r.verdict.status).toBe('collecting');
    expect(r.verdict.text).toContain('3 of the 318');
  });

  it('stops (assignment then answers the control) and deletes', async () => {
    const created = await call('POST', '/api/sdk/experiments', team.headers, { ...BODY, key: 'to-stop' });
    expect(created.statusCode).toBe(201);
    const xid = created.json().id;
    const stopped = await call('PATCH', `/api/sdk/experiments/${xid}`, team.headers, { status: 'stopped' });
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json()).toMatchObject({ status: 'stopped', stopped_at: '2026-11-20T12:00:00.000Z' });
    const a = await call('GET', '/api/sdk/experiments/to-stop/assignment?game_id=g1&player_id=player-1', {
      'x-api-key': team.key,
    });
    expect(a.json()).toMatchObject({ variant: 'control', status: 'stopped' });
    expect((await call('DELETE', `/api/sdk/experiments/${xid}`)).statusCode).toBe(204);
    expect((await call('GET', `/api/sdk/experiments/${xid}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/sdk/experiments/${xid}`)).statusCode).toBe(404);
  });
});
