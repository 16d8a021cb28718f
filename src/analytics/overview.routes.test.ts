/**
 * GET /api/sdk/games and the overview view against a small hand-computed fixture; access rules
 * (another team's game is 404, API keys are refused), plan clamping and bad ranges.
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
import { ingestKey } from '../../test/helpers/ingest.js';
import { fixedClock } from '../clock.js';

const make = eventFactory('ov');
const ev = (
  player: string,
  session: string,
  ts: string,
  type: string,
  payload: Record<string, unknown> = {},
) => make(player, ts, type, payload, { session_id: session });

/**
 * Three players over 2026-11-18..20 (the clock reads 2026-11-20 12:00 UTC):
 *   18th  p1 s1 DE, buys 4.99 USD, 1800 s; p2 s2 US, level 1 loss then win, 600 s
 *   19th  p1 s3, buys 2 × 100 R$ (0.76 USD at 0.0038), 1200 s; p3 s4 BR starts 23:50, ends 00:10
 *         on the 20th with duration_s 1200 (a custom event at 00:05 on the 20th)
 *   20th  p2 s5, 300 s
 */
function fixture() {
  return [
    ev('p1', 's1', '2026-11-18T10:00:00Z', 'session_start', { country: 'DE' }),
    ev('p1', 's1', '2026-11-18T10:05:00Z', 'purchase', { sku: 'gems', price: 4.99 }),
    ev('p1', 's1', '2026-11-18T10:30:00Z', 'session_end', { duration_s: 1800 }),
    ev('p2', 's2', '2026-11-18T11:00:00Z', 'session_start', { country: 'US' }),
    ev('p2', 's2', '2026-11-18T11:01:00Z', 'level', { level: 1, result: 'loss' }),
    ev('p2', 's2', '2026-11-18T11:02:00Z', 'level', { level: 1, result: 'win' }),
    ev('p2', 's2', '2026-11-18T11:10:00Z', 'session_end', { duration_s: 600 }),
    ev('p1', 's3', '2026-11-19T09:00:00Z', 'session_start', { country: 'DE' }),
    ev('p1', 's3', '2026-11-19T09:10:00Z', 'purchase', {
      sku: 'coins',
      price: 100,
      quantity: 2,
      currency: 'R$',
    }),
    ev('p1', 's3', '2026-11-19T09:20:00Z', 'session_end', { duration_s: 1200 }),
    ev('p3', 's4', '2026-11-19T23:50:00Z', 'session_start', { country: 'BR' }),
    ev('p3', 's4', '2026-11-20T00:05:00Z', 'custom', { name: 'quest_started' }),
    ev('p3', 's4', '2026-11-20T00:10:00Z', 'session_end', { duration_s: 1200 }),
    ev('p2', 's5', '2026-11-20T08:00:00Z', 'session_start', { country: 'US' }),
    ev('p2', 's5', '2026-11-20T08:05:00Z', 'session_end', { duration_s: 300 }),
  ];
}

describe.each(testEngines())('SDK analytics: games and overview (%s)', (engine) => {
  let t: TestApp;
  let team: AnalyticsTeam;
  const range = { from: '2026-11-18', to: '2026-11-20' };

  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock('2026-11-20T12:00:00Z') });
    team = await analyticsTeam(t);
    // Out of order on purpose: the 20th first, then the 18th and 19th.
    const events = fixture();
    await sendEvents(t, team.key, [...events.slice(11), ...events.slice(0, 11)]);
  });
  afterAll(() => t.close());

  it("lists the team's games with their first and last days and the last 24 hours", async () => {
    const res = await t.app.inject({ url: '/api/sdk/games', headers: team.headers });
    expect(res.statusCode).toBe(200);
    // Since 2026-11-19T12:00Z: p3's 3 events and p2's 2 on the 20th, p3's start on the 19th at 23:50.
    expect(res.json()).toEqual({
      games: [
        {
          platform: 'platform_2',
          game_id: 'g1',
          first_seen: '2026-11-18',
          last_seen: '2026-11-20',
          events_24h: 5,
          players_24h: 2,
        },
      ],
    });
  });

  it('answers the overview with numbers computed by hand', async () => {
    const res = await getView(t, team.headers, 'g1', 'overview', range);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      game_id: 'g1',
      platform: null,
      from: '2026-11-18',
      to: '2026-11-20',
      granularity: 'day',
      segment: null,
      history_limited_from: null,
      dau: [
        { date: '2026-11-18', players: 2 },
        { date: '2026-11-19', players: 2 },
        { date: '2026-11-20', players: 2 },
      ],
      wau: 3,
      mau: 3,
      players: 3,
      new_players: 3,
      sessions: 5,
      // Per player-day: 300, 600, 1200, 1200, 1800 (p3's session counts on the 19th, where it started).
      playtime_s: { avg: 1020, p50: 1200, p90: 1560 },
      percentile_method: 'whole seconds, ±0.5 s',
      revenue_usd: 5.75,
      // 5.75 over 6 player-days.
      arpdau_usd: 0.9583,
      paying_players: 1,
      top_countries: [
        { country: 'BR', players: 1 },
        { country: 'DE', players: 1 },
        { country: 'US', players: 1 },
      ],
    });
  });

  it('groups the series by ISO week, and filters by platform', async () => {
    const weekly = await getView(t, team.headers, 'g1', 'overview', { ...range, granularity: 'week' });
    // 2026-11-16 is the Monday of the week of the 18th–20th.
    expect(weekly.json().dau).toEqual([{ date: '2026-11-16', players: 3 }]);
    const other = await getView(t, team.headers, 'g1', 'overview', { ...range, platform: 'platform_1' });
    expect([other.statusCode, other.json().code]).toEqual([404, 'not_found']);
  });

  it("answers 404 for another team's game and refuses API keys", async () => {
    const stranger = await analyticsTeam(t);
    const res = await getView(t, stranger.headers, 'g1', 'overview', range);
    expect([res.statusCode, res.json().code]).toEqual([404, 'not_found']);
    const games = await t.app.inject({ url: '/api/sdk/games', headers: stranger.headers });
    expect(games.json()).toEqual({ games: [] });
    const read = await ingestKey(t, { scopes: ['read'] });
    const byKey = await getView(t, { 'x-api-key': read.key }, 'g1', 'overview', range);
    expect([byKey.statusCode, byKey.json().code]).toEqual([403, 'api_key_read_only']);
    expect((await getView(t, {}, 'g1', 'overview', range)).statusCode).toBe(401);
  });

  it("clamps the range to the plan's history and refuses bad ranges", async () => {
    const explorer = await analyticsTeam(t, 'Explorer');
    await sendEvents(t, explorer.key, [
      { ...ev('p9', 's9', '2026-11-20T01:00:00Z', 'session_start'), game_id: 'g2' },
    ]);
    const clamped = await getView(t, explorer.headers, 'g2', 'overview', {
      from: '2026-09-01',
      to: '2026-11-20',
    });
    expect(clamped.statusCode).toBe(200);
    // Explorer reads 30 days: 2026-10-22 .. 2026-11-20.
    expect(clamped.json()).toMatchObject({
      from: '2026-10-22',
      history_limited_from: '2026-10-22',
      players: 1,
    });
    const backwards = await getView(t, team.headers, 'g1', 'overview', {
      from: '2026-11-20',
      to: '2026-11-18',
    });
    expect(backwards.json()).toEqual({
      detail: 'query.to must not be before query.from',
      code: 'validation_failed',
      field: 'query.to',
    });
    const long = await getView(t, team.headers, 'g1', 'overview', { from: '2025-01-01', to: '2026-11-20' });
    expect([long.statusCode, long.json().field]).toEqual([422, 'query.from']);
    const notADay = await getView(t, team.headers, 'g1', 'overview', { from: '2026-02-30' });
    expect([notADay.statusCode, notADay.json().field]).toEqual([422, 'query.from']);
  });
});
