/**
 * The engagement view against two small hand-computed games: e1 on platform_1 (whose SDK sends no
 * session_end: lengths are event spans) and e2 on platform_2 (session_end) with one player also on
 * platform_3 without session_end (mixed; the platform filter changes who is new).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalyticsTeam, analyticsTeam, getView, sendEvents } from '../../test/helpers/analytics.js';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngines } from '../../test/helpers/db.js';
import { fixedClock } from '../clock.js';

let n = 0;
function ev(
  platform: string,
  game: string,
  player: string,
  session: string,
  ts: string,
  type: string,
  payload: Record<string, unknown> = {},
) {
  n += 1;
  return {
    event_id: `en-${String(n).padStart(6, '0')}`,
    ts,
    platform,
    game_id: game,
    player_id: player,
    session_id: session,
    type,
    payload,
  };
}

function sessionless(e: ReturnType<typeof ev>): Omit<ReturnType<typeof ev>, 'session_id'> {
  const { session_id: _, ...rest } = e;
  return rest;
}

/** A platform_1 session of e1: a start and one custom event later (no session_end). */
function p1Session(player: string, session: string, start: string, last: string) {
  return [
    ev('platform_1', 'e1', player, session, start, 'session_start'),
    ev('platform_1', 'e1', player, session, last, 'custom', { name: 'tick' }),
  ];
}

/**
 * e1 (platform_1), the clock at 2026-11-25 12:00 UTC, range 11-19 (Thu) .. 11-24 (Tue):
 *   a  10-25; 11-19 10:00–10:20 (1200 s) and 15:00–15:05 (300 s); 11-20 09:00–09:10 (600 s)
 *   b  11-13; 11-22 14:00–14:30 (1800 s)
 *   c  11-20 23:50 – 11-21 00:20 (1800 s, one session over midnight: active on both days)
 *   d  10-01; 11-24 08:00–08:05 (300 s)
 *   e  11-19 12:00–12:40 (2400 s); 11-23 07:00–07:15 (900 s)
 *   f  10-20, 10-21, 10-22 (counts in MAU of 11-19 and 11-20 only)
 */
function e1Events() {
  return [
    ...p1Session('a', 'a0', '2026-10-25T10:00:00Z', '2026-10-25T10:10:00Z'),
    ...p1Session('a', 'a1', '2026-11-19T10:00:00Z', '2026-11-19T10:20:00Z'),
    ...p1Session('a', 'a2', '2026-11-19T15:00:00Z', '2026-11-19T15:05:00Z'),
    ...p1Session('a', 'a3', '2026-11-20T09:00:00Z', '2026-11-20T09:10:00Z'),
    ...p1Session('b', 'b0', '2026-11-13T10:00:00Z', '2026-11-13T10:10:00Z'),
    ...p1Session('b', 'b1', '2026-11-22T14:00:00Z', '2026-11-22T14:30:00Z'),
    ...p1Session('c', 'c1', '2026-11-20T23:50:00Z', '2026-11-21T00:20:00Z'),
    ...p1Session('d', 'd0', '2026-10-01T10:00:00Z', '2026-10-01T10:10:00Z'),
    ...p1Session('d', 'd1', '2026-11-24T08:00:00Z', '2026-11-24T08:05:00Z'),
    ...p1Session('e', 'e1', '2026-11-19T12:00:00Z', '2026-11-19T12:40:00Z'),
    ...p1Session('e', 'e2', '2026-11-23T07:00:00Z', '2026-11-23T07:15:00Z'),
    ...p1Session('f', 'f0', '2026-10-20T10:00:00Z', '2026-10-20T10:10:00Z'),
    ...p1Session('f', 'f1', '2026-10-21T10:00:00Z', '2026-10-21T10:10:00Z'),
    ...p1Session('f', 'f2', '2026-10-22T10:00:00Z', '2026-10-22T10:10:00Z'),
  ];
}

/**
 * e2, range 11-17 .. 11-21:
 *   x  platform_3 11-17 09:00–09:10, no session_end (600 s); platform_2 11-19 10:00, session_end 1800 s
 *   y  platform_2 11-20 23:40, session_end 11-21 00:20 with duration_s 2400 (active on both days);
 *      platform_3 11-21 a custom event without a session (a second row for y on 11-21: still one active)
 */
function e2Events() {
  return [
    ev('platform_3', 'e2', 'x', 'x1', '2026-11-17T09:00:00Z', 'session_start'),
    ev('platform_3', 'e2', 'x', 'x1', '2026-11-17T09:10:00Z', 'custom', { name: 'tick' }),
    ev('platform_2', 'e2', 'x', 'x2', '2026-11-19T10:00:00Z', 'session_start'),
    ev('platform_2', 'e2', 'x', 'x2', '2026-11-19T10:30:00Z', 'session_end', { duration_s: 1800 }),
    ev('platform_2', 'e2', 'y', 'y1', '2026-11-20T23:40:00Z', 'session_start'),
    ev('platform_2', 'e2', 'y', 'y1', '2026-11-21T00:20:00Z', 'session_end', { duration_s: 2400 }),
    sessionless(ev('platform_3', 'e2', 'y', '', '2026-11-21T15:00:00Z', 'custom', { name: 'tick' })),
  ];
}

const header = (game: string, from: string, to: string, extra: Record<string, unknown> = {}) => ({
  game_id: game,
  platform: null,
  from,
  to,
  granularity: 'day',
  segment: null,
  history_limited_from: null,
  ...extra,
});

describe.each(testEngines())('SDK analytics: engagement (%s)', (engine) => {
  let t: TestApp;
  let team: AnalyticsTeam;
  const e1Range = { from: '2026-11-19', to: '2026-11-24' };
  const e2Range = { from: '2026-11-17', to: '2026-11-21' };

  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock('2026-11-25T12:00:00Z') });
    team = await analyticsTeam(t);
    const events = [...e1Events(), ...e2Events()];
    // Late first: the newest half arrives before the oldest.
    await sendEvents(t, team.key, [...events.slice(14), ...events.slice(0, 14)]);
  });
  afterAll(() => t.close());

  it('answers a platform_1 game measured by event spans, with rolling WAU and MAU per day', async () => {
    const res = await getView(t, team.headers, 'e1', 'engagement', e1Range);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      ...header('e1', '2026-11-19', '2026-11-24'),
      series: [
        // WAU 11-13..19: a, b, e. MAU 10-21..11-19: a, b, e, f.
        { date: '2026-11-19', dau: 2, wau: 3, mau: 4, stickiness: 0.5, new_players: 1, returning_players: 1 },
        // WAU 11-14..20: a, c, e (b's 11-13 left). MAU 10-22..11-20: a, b, c, e, f.
        { date: '2026-11-20', dau: 2, wau: 3, mau: 5, stickiness: 0.4, new_players: 1, returning_players: 1 },
        // f's last day (10-22) has left MAU.
        {
          date: '2026-11-21',
          dau: 1,
          wau: 3,
          mau: 4,
          stickiness: 0.25,
          new_players: 0,
          returning_players: 1,
        },
        {
          date: '2026-11-22',
          dau: 1,
          wau: 4,
          mau: 4,
          stickiness: 0.25,
          new_players: 0,
          returning_players: 1,
        },
        // MAU 10-25..11-23 still holds a's 10-25 (and her 11-19).
        {
          date: '2026-11-23',
          dau: 1,
          wau: 4,
          mau: 4,
          stickiness: 0.25,
          new_players: 0,
          returning_players: 1,
        },
        // d returns (first seen 10-01): WAU and MAU a, b, c, d, e.
        { date: '2026-11-24', dau: 1, wau: 5, mau: 5, stickiness: 0.2, new_players: 0, returning_players: 1 },
      ],
      // 8 sessions over 5 players (a, b, c, d, e).
      sessions_per_player: 1.6,
      // 300, 300, 600, 900, 1200, 1800, 1800, 2400: avg 9300 / 8; p50 between 900 and 1200;
      // p90 at rank 6.3: 1800 + 0.3 × 600.
      session_length_s: { avg: 1162.5, p50: 1050, p90: 1980 },
      // Per player-day: a 11-19 1500, a 11-20 600, b 1800, c 1800 (on 11-20, where it started),
      // d 300, e 2400 and 900: avg 9300 / 7 = 1328.571…; p90 at rank 5.4: 1800 + 0.4 × 600.
      playtime_per_player_day_s: { avg: 1328.57, p50: 1500, p90: 2040 },
      percentile_method: 'whole seconds, ±0.5 s',
      session_length_source: 'event_span',
    });
  });

  it('groups by ISO week: average DAU, the last day’s WAU, MAU and stickiness, summed new and returning', async () => {
    const res = await getView(t, team.headers, 'e1', 'engagement', { ...e1Range, granularity: 'week' });
    expect(res.statusCode).toBe(200);
    expect(res.json().series).toEqual([
      // 11-19..22 (Thu–Sun) of the week of Monday 11-16: DAU 2, 2, 1, 1.
      {
        date: '2026-11-16',
        dau: 1.5,
        wau: 4,
        mau: 4,
        stickiness: 0.25,
        new_players: 2,
        returning_players: 4,
      },
      // 11-23..24.
      { date: '2026-11-23', dau: 1, wau: 5, mau: 5, stickiness: 0.2, new_players: 0, returning_players: 2 },
    ]);
    // A week whose average is not whole: 11-19..21 → (2 + 2 + 1) / 3.
    const short = await getView(t, team.headers, 'e1', 'engagement', {
      from: '2026-11-19',
      to: '2026-11-21',
      granularity: 'week',
    });
    expect(short.json().series).toEqual([
      {
        date: '2026-11-16',
        dau: 1.67,
        wau: 3,
        mau: 4,
        stickiness: 0.25,
        new_players: 2,
        returning_players: 3,
      },
    ]);
  });

  it('mixes session_end lengths with event spans across platforms, and null stickiness without MAU', async () => {
    const res = await getView(t, team.headers, 'e2', 'engagement', e2Range);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      ...header('e2', '2026-11-17', '2026-11-21'),
      series: [
        { date: '2026-11-17', dau: 1, wau: 1, mau: 1, stickiness: 1, new_players: 1, returning_players: 0 },
        { date: '2026-11-18', dau: 0, wau: 1, mau: 1, stickiness: 0, new_players: 0, returning_players: 0 },
        // x was first seen on platform_3 on 11-17: returning on 11-19.
        { date: '2026-11-19', dau: 1, wau: 1, mau: 1, stickiness: 1, new_players: 0, returning_players: 1 },
        { date: '2026-11-20', dau: 1, wau: 2, mau: 2, stickiness: 0.5, new_players: 1, returning_players: 0 },
        { date: '2026-11-21', dau: 1, wau: 2, mau: 2, stickiness: 0.5, new_players: 0, returning_players: 1 },
      ],
      sessions_per_player: 1.5,
      // 600 (span), 1800 and 2400 (session_end): p90 at rank 1.8: 1800 + 0.8 × 600.
      session_length_s: { avg: 1600, p50: 1800, p90: 2280 },
      playtime_per_player_day_s: { avg: 1600, p50: 1800, p90: 2280 },
      percentile_method: 'whole seconds, ±0.5 s',
      session_length_source: 'mixed',
    });
  });

  it('counts new players and sessions on the filtered platform only', async () => {
    const res = await getView(t, team.headers, 'e2', 'engagement', { ...e2Range, platform: 'platform_2' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      ...header('e2', '2026-11-17', '2026-11-21', { platform: 'platform_2' }),
      series: [
        {
          date: '2026-11-17',
          dau: 0,
          wau: 0,
          mau: 0,
          stickiness: null,
          new_players: 0,
          returning_players: 0,
        },
        {
          date: '2026-11-18',
          dau: 0,
          wau: 0,
          mau: 0,
          stickiness: null,
          new_players: 0,
          returning_players: 0,
        },
        // On platform_2, x is first seen on 11-19.
        { date: '2026-11-19', dau: 1, wau: 1, mau: 1, stickiness: 1, new_players: 1, returning_players: 0 },
        { date: '2026-11-20', dau: 1, wau: 2, mau: 2, stickiness: 0.5, new_players: 1, returning_players: 0 },
        { date: '2026-11-21', dau: 1, wau: 2, mau: 2, stickiness: 0.5, new_players: 0, returning_players: 1 },
      ],
      sessions_per_player: 1,
      // 1800 and 2400: p90 = 1800 + 0.9 × 600.
      session_length_s: { avg: 2100, p50: 2100, p90: 2340 },
      playtime_per_player_day_s: { avg: 2100, p50: 2100, p90: 2340 },
      percentile_method: 'whole seconds, ±0.5 s',
      session_length_source: 'session_end',
    });
  });

  it("never reads MAU before the plan's history", async () => {
    const explorer = await analyticsTeam(t, 'Explorer');
    // Explorer reads 30 days back from 11-25: from 10-27. q's 10-26 is before it, 10-28 inside.
    await sendEvents(t, explorer.key, [
      ev('platform_2', 'e3', 'q', 'q1', '2026-10-26T10:00:00Z', 'session_start'),
      ev('platform_2', 'e3', 'r', 'r1', '2026-10-28T10:00:00Z', 'session_start'),
    ]);
    const res = await getView(t, explorer.headers, 'e3', 'engagement', {
      from: '2026-10-01',
      to: '2026-10-28',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      from: '2026-10-27',
      history_limited_from: '2026-10-27',
      series: [
        {
          date: '2026-10-27',
          dau: 0,
          wau: 0,
          mau: 0,
          stickiness: null,
          new_players: 0,
          returning_players: 0,
        },
        { date: '2026-10-28', dau: 1, wau: 1, mau: 1, stickiness: 1, new_players: 1, returning_players: 0 },
      ],
      // r's session is a single event: one session of 0 s.
      sessions_per_player: 1,
      percentile_method: 'whole seconds, ±0.5 s',
      session_length_source: 'event_span',
    });
  });

  it('takes percentiles over whole seconds and says so, with exact averages', async () => {
    // Three session_end lengths with tenths: 10.4, 20.4 and 30.4 s, one player each on 11-19.
    await sendEvents(
      t,
      team.key,
      ['u', 'v', 'w'].flatMap((p, i) => [
        ev('platform_2', 'e4', p, `${p}1`, '2026-11-19T10:00:00Z', 'session_start'),
        ev('platform_2', 'e4', p, `${p}1`, '2026-11-19T10:01:00Z', 'session_end', {
          duration_s: 10.4 + 10 * i,
        }),
      ]),
    );
    const res = await getView(t, team.headers, 'e4', 'engagement', { from: '2026-11-19', to: '2026-11-19' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      // Avg 61.2 / 3 exactly; the percentiles of 10, 20 and 30: p90 = 20 + 0.8 × 10 (exact: 28.4).
      session_length_s: { avg: 20.4, p50: 20, p90: 28 },
      playtime_per_player_day_s: { avg: 20.4, p50: 20, p90: 28 },
      percentile_method: 'whole seconds, ±0.5 s',
    });
  });
});
