/**
 * Segments: create, list, read (with size), delete; the 422s naming the bad condition; another
 * team's segment is 404; and the overview of a segment's players, computed by hand, for a segment
 * on an extra payload field, with match any, and restricted to one event type.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AnalyticsTeam,
  analyticsTeam,
  eventFactory,
  getView,
  sendEvents,
} from '../../test/helpers/analytics.js';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngines } from '../../test/helpers/db.js';
import { fixedClock } from '../clock.js';

const make = eventFactory('seg');
const ev = (
  player: string,
  session: string,
  ts: string,
  type: string,
  payload: Record<string, unknown> = {},
  game = 'g1',
) => make(player, ts, type, payload, { session_id: session, game_id: game });

/**
 * The clock reads 2026-11-20 12:00 UTC. Game g1, 18th..20th:
 *   18th  p1 s1 {membership vip, version gate_40} DE, buys 4.99 USD, 1800 s
 *         p2 s2 {version gate_30} US, 600 s
 *   19th  p3 s3 {membership vip, version gate_40} BR, level 3 win, 1200 s
 *         p4 s4 {version 40 (a number)} US, custom boss_killed {boss gate_40}, 300 s
 *   20th  p1 s5 {version gate_41} DE, 900 s
 * Game g2 (for size only): p5 {version gate_40} on the 20th; p8 on 2026-10-22 00:00 (first second
 * of the 30-day window); p6 on 2026-10-21 23:59:59 (just before it).
 */
function fixture() {
  return [
    ev('p1', 's1', '2026-11-18T10:00:00Z', 'session_start', {
      membership: 'vip',
      version: 'gate_40',
      country: 'DE',
    }),
    ev('p1', 's1', '2026-11-18T10:05:00Z', 'purchase', { sku: 'gems', price: 4.99 }),
    ev('p1', 's1', '2026-11-18T10:30:00Z', 'session_end', { duration_s: 1800 }),
    ev('p2', 's2', '2026-11-18T11:00:00Z', 'session_start', { version: 'gate_30', country: 'US' }),
    ev('p2', 's2', '2026-11-18T11:10:00Z', 'session_end', { duration_s: 600 }),
    ev('p3', 's3', '2026-11-19T09:00:00Z', 'session_start', {
      membership: 'vip',
      version: 'gate_40',
      country: 'BR',
    }),
    ev('p3', 's3', '2026-11-19T09:05:00Z', 'level', { level: 3, result: 'win' }),
    ev('p3', 's3', '2026-11-19T09:20:00Z', 'session_end', { duration_s: 1200 }),
    ev('p4', 's4', '2026-11-19T12:00:00Z', 'session_start', { version: 40, country: 'US' }),
    ev('p4', 's4', '2026-11-19T12:05:00Z', 'custom', { name: 'boss_killed', boss: 'gate_40' }),
    ev('p4', 's4', '2026-11-19T12:05:00Z', 'session_end', { duration_s: 300 }),
    ev('p1', 's5', '2026-11-20T08:00:00Z', 'session_start', { version: 'gate_41', country: 'DE' }),
    ev('p1', 's5', '2026-11-20T08:15:00Z', 'session_end', { duration_s: 900 }),
    ev('p5', 's6', '2026-11-20T01:00:00Z', 'session_start', { version: 'gate_40' }, 'g2'),
    ev('p8', 's7', '2026-10-22T00:00:00Z', 'session_start', { version: 'gate_40' }, 'g2'),
    ev('p6', 's8', '2026-10-21T23:59:59Z', 'session_start', { version: 'gate_40' }, 'g2'),
  ];
}

const GATE_40 = { field: 'payload.version', op: 'eq', value: 'gate_40' };
const range = { from: '2026-11-18', to: '2026-11-20' };

describe.each(testEngines())('SDK analytics: segments (%s)', (engine) => {
  let t: TestApp;
  let team: AnalyticsTeam;
  const clock = fixedClock('2026-11-20T12:00:00Z');

  beforeAll(async () => {
    t = await buildTestApp({ engine, clock });
    team = await analyticsTeam(t);
    await sendEvents(t, team.key, fixture());
  });
  afterAll(() => t.close());

  function create(body: Record<string, unknown>, headers = team.headers) {
    return t.app.inject({ method: 'POST', url: '/api/sdk/segments', headers, payload: body });
  }
  async function createId(body: Record<string, unknown>): Promise<number> {
    const res = await create(body);
    expect(res.statusCode).toBe(201);
    return (res.json() as { id: number }).id;
  }

  it('creates, lists newest first, reads with its size, and deletes a segment', async () => {
    const first = await create({ name: 'Gate 40', conditions: [GATE_40] });
    expect(first.statusCode).toBe(201);
    const a = first.json() as { id: number };
    expect(first.json()).toEqual({
      id: a.id,
      name: 'Gate 40',
      conditions: [GATE_40],
      match: 'all',
      event_type: null,
      created_at: '2026-11-20T12:00:00.000Z',
    });
    clock.advance(1000);
    const second = await create({
      name: 'Winners',
      conditions: [{ field: 'payload.result', op: 'in', value: ['win', 'complete'] }],
      match: 'any',
      event_type: 'level',
    });
    const b = second.json() as { id: number };
    const winners = {
      id: b.id,
      name: 'Winners',
      conditions: [{ field: 'payload.result', op: 'in', value: ['win', 'complete'] }],
      match: 'any',
      event_type: 'level',
      created_at: '2026-11-20T12:00:01.000Z',
    };
    expect([second.statusCode, second.json()]).toEqual([201, winners]);

    const list = await t.app.inject({ url: '/api/sdk/segments', headers: team.headers });
    expect(list.json()).toEqual({ segments: [winners, { ...first.json(), id: a.id }] });

    // Window 2026-10-22..2026-11-20: p1 and p3 (g1), p5 and p8 (g2); p6 is a second too early and
    // p4's version is the number 40, not the string.
    const detail = await t.app.inject({ url: `/api/sdk/segments/${a.id}`, headers: team.headers });
    expect(detail.json()).toEqual({
      ...first.json(),
      size: 4,
      size_window: { from: '2026-10-22', to: '2026-11-20' },
    });

    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/sdk/segments/${b.id}`,
      headers: team.headers,
    });
    expect([del.statusCode, del.body]).toEqual([204, '']);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/sdk/segments/${b.id}`,
      headers: team.headers,
    });
    expect([again.statusCode, again.json().code]).toEqual([404, 'not_found']);
    const gone = await getView(t, team.headers, 'g1', 'overview', { ...range, segment: String(b.id) });
    expect([gone.statusCode, gone.json()]).toEqual([404, { detail: 'No such segment.', code: 'not_found' }]);
  });

  it('keeps numbers, booleans and one-value lists as sent', async () => {
    const conditions = [
      { field: 'payload.version', op: 'eq', value: 40 },
      { field: 'payload.vip', op: 'neq', value: false },
      { field: 'country', op: 'in', value: ['BR'] },
      { field: 'payload.level', op: 'in', value: [3] },
    ];
    const res = await create({ name: 'Types', conditions, match: 'any' });
    expect([res.statusCode, res.json().conditions]).toEqual([201, conditions]);
    // Matched as sent: p4 by the number 40 (not the string "40"), p3 by BR and level 3.
    const id = (res.json() as { id: number }).id;
    const view = await getView(t, team.headers, 'g1', 'overview', { ...range, segment: String(id) });
    expect(view.json()).toMatchObject({ players: 2, dau: [{ date: '2026-11-19', players: 2 }] });
  });

  it('refuses bad conditions with 422 naming the condition', async () => {
    const level = { field: 'payload.level', op: 'gte', value: 1 };
    const cases: [Record<string, unknown>[], string, string][] = [
      [
        [level, { field: 'level', op: 'eq', value: 1 }],
        'body.conditions[1].field',
        'body.conditions[1].field must be platform, country, game_id or payload.<key> (letters, digits, _ and -, up to 5 levels)',
      ],
      [
        [level, { field: 'payload.level', op: 'like', value: 1 }],
        'body.conditions.1.op',
        'body.conditions.1.op must be one of: eq, neq, in, gt, gte, lt, lte, exists, contains',
      ],
      [
        [{ field: 'payload.level', op: 'gt', value: '3' }],
        'body.conditions[0].value',
        'body.conditions[0].value must be a number with gt',
      ],
      [
        [level, { field: 'payload.vip', op: 'exists', value: true }],
        'body.conditions[1].value',
        'body.conditions[1].value must be left out with exists',
      ],
      [
        [{ field: 'country', op: 'in', value: 'DE' }],
        'body.conditions[0].value',
        'body.conditions[0].value must be a list with in',
      ],
      [
        Array.from({ length: 21 }, () => level),
        'body.conditions',
        'body.conditions must NOT have more than 20 items',
      ],
    ];
    for (const [conditions, field, detail] of cases) {
      const res = await create({ name: 'bad', conditions });
      expect([res.statusCode, res.json()]).toEqual([422, { detail, code: 'validation_failed', field }]);
    }
    const list = await t.app.inject({ url: '/api/sdk/segments', headers: team.headers });
    expect((list.json() as { segments: { name: string }[] }).segments.map((s) => s.name)).not.toContain(
      'bad',
    );
  });

  it("answers 404 for another team's segment, and keeps segments to signed-in users", async () => {
    const id = await createId({ name: 'Gate 40 again', conditions: [GATE_40] });
    const stranger = await analyticsTeam(t);
    const read = await t.app.inject({ url: `/api/sdk/segments/${id}`, headers: stranger.headers });
    expect([read.statusCode, read.json()]).toEqual([404, { detail: 'No such segment.', code: 'not_found' }]);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/sdk/segments/${id}`,
      headers: stranger.headers,
    });
    expect(del.statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/sdk/segments', headers: stranger.headers })).json()).toEqual({
      segments: [],
    });
    // The stranger's own game with the same id, and our segment id on it: still 404.
    await sendEvents(t, stranger.key, [
      ev('q1', 'x1', '2026-11-19T10:00:00Z', 'session_start', { version: 'gate_40' }),
    ]);
    const view = await getView(t, stranger.headers, 'g1', 'overview', { ...range, segment: String(id) });
    expect([view.statusCode, view.json().code]).toEqual([404, 'not_found']);
    // The stranger's gate_40 player does not count in our segment's size.
    const ours = await t.app.inject({ url: `/api/sdk/segments/${id}`, headers: team.headers });
    expect(ours.json().size).toBe(4);
    expect((await t.app.inject({ url: '/api/sdk/segments' })).statusCode).toBe(401);
  });

  it('filters the overview to the players of a segment on an extra payload field', async () => {
    const id = await createId({ name: 'Gate 40 players', conditions: [GATE_40] });
    const res = await getView(t, team.headers, 'g1', 'overview', { ...range, segment: String(id) });
    expect(res.statusCode).toBe(200);
    // p1 (gate_40 on the 18th; still in on the 20th with gate_41) and p3.
    expect(res.json()).toEqual({
      game_id: 'g1',
      platform: null,
      from: '2026-11-18',
      to: '2026-11-20',
      granularity: 'day',
      segment: id,
      history_limited_from: null,
      dau: [
        { date: '2026-11-18', players: 1 },
        { date: '2026-11-19', players: 1 },
        { date: '2026-11-20', players: 1 },
      ],
      wau: 2,
      mau: 2,
      players: 2,
      new_players: 2,
      sessions: 3,
      // Per player-day: 900, 1200, 1800; p90 = 1200 + 0.8 × 600.
      playtime_s: { avg: 1300, p50: 1200, p90: 1680 },
      percentile_method: 'whole seconds, ±0.5 s',
      revenue_usd: 4.99,
      // 4.99 over 3 player-days.
      arpdau_usd: 1.6633,
      paying_players: 1,
      top_countries: [
        { country: 'BR', players: 1 },
        { country: 'DE', players: 1 },
      ],
    });
    // Only events in the range count: from the 20th, p1's event says gate_41 and p3 is absent.
    const later = await getView(t, team.headers, 'g1', 'overview', {
      from: '2026-11-20',
      to: '2026-11-20',
      segment: String(id),
    });
    expect(later.json()).toMatchObject({ players: 0, dau: [], sessions: 0, revenue_usd: 0 });
  });

  it('matches any condition with match any, and only the chosen event type with event_type', async () => {
    const any = await createId({
      name: 'VIP or version 40',
      conditions: [
        { field: 'payload.membership', op: 'eq', value: 'vip' },
        { field: 'payload.version', op: 'eq', value: 40 },
      ],
      match: 'any',
    });
    // p1 and p3 (vip), p4 (the number 40).
    const anyView = await getView(t, team.headers, 'g1', 'overview', { ...range, segment: String(any) });
    expect(anyView.json()).toMatchObject({
      players: 3,
      dau: [
        { date: '2026-11-18', players: 1 },
        { date: '2026-11-19', players: 2 },
        { date: '2026-11-20', players: 1 },
      ],
      sessions: 4,
    });
    const all = await createId({
      name: 'VIP and version 40',
      conditions: [
        { field: 'payload.membership', op: 'eq', value: 'vip' },
        { field: 'payload.version', op: 'eq', value: 40 },
      ],
    });
    const allView = await getView(t, team.headers, 'g1', 'overview', { ...range, segment: String(all) });
    expect(allView.json()).toMatchObject({ players: 0, dau: [] });

    // Every g1 event has game_id g1, but only p3 sent a level event.
    const levels = await createId({
      name: 'Level players',
      conditions: [{ field: 'game_id', op: 'eq', value: 'g1' }],
      event_type: 'level',
    });
    const levelView = await getView(t, team.headers, 'g1', 'overview', { ...range, segment: String(levels) });
    expect(levelView.json()).toMatchObject({
      players: 1,
      dau: [{ date: '2026-11-19', players: 1 }],
      top_countries: [{ country: 'BR', players: 1 }],
    });
    const detail = await t.app.inject({ url: `/api/sdk/segments/${levels}`, headers: team.headers });
    expect(detail.json()).toMatchObject({ event_type: 'level', size: 1 });
  });

  it('keeps at most 100 segments per team (409 limit_reached)', async () => {
    const full = await analyticsTeam(t);
    for (let i = 0; i < 100; i += 1) {
      const res = await create({ name: `s${i}`, conditions: [GATE_40] }, full.headers);
      expect(res.statusCode).toBe(201);
    }
    const over = await create({ name: 's100', conditions: [GATE_40] }, full.headers);
    expect([over.statusCode, over.json()]).toEqual([
      409,
      {
        detail: 'A team can keep at most 100 segments; delete one to add another.',
        code: 'limit_reached',
      },
    ]);
  });
});
