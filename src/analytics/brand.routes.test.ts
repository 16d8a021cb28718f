/**
 * The brand view against a small hand-computed fixture, on both engines: reach, entries and the
 * median dwell per zone (an exit without an enter counts its dwell, an enter without an exit only
 * its reach), players equipping and repeat-equip per item (two platforms on one UTC day are one
 * day), the share funnel with its conversions, the platform filter and a segment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AnalyticsTeam,
  analyticsTeam,
  eventFactory,
  getView,
  sendEvents,
  withSegment,
} from '../../test/helpers/analytics.js';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngines } from '../../test/helpers/db.js';
import { fixedClock } from '../clock.js';
import { PROXY_METHOD } from './views/brand.view.js';

const make = eventFactory('brand');
const ev = (
  player: string,
  ts: string,
  type: string,
  payload: Record<string, unknown>,
  platform = 'platform_2',
) => make(player, ts, type, payload, { platform });
const enter = (p: string, ts: string, zone: string, platform?: string) =>
  ev(p, ts, 'brand_zone_enter', { zone_id: zone }, platform);
const exit = (p: string, ts: string, zone: string, dwell: number, platform?: string) =>
  ev(p, ts, 'brand_zone_exit', { zone_id: zone, dwell_seconds: dwell }, platform);
const equip = (p: string, ts: string, item: string, platform?: string) =>
  ev(p, ts, 'equip', { item_id: item }, platform);
const share = (p: string, ts: string, to: string, item?: string) =>
  ev(p, ts, 'share', item === undefined ? { share_platform: to } : { share_platform: to, item_id: item });

/**
 * The clock reads 2026-11-20 12:00 UTC; the range is 2026-11-18..20. On platform_2 unless said:
 *   lobby  p1 enters 18th (exit, 30 s) and 19th (exit, 12.5 s); p2 enters 18th (no exit) and 20th
 *          (exit, 7.25 s → 7.3); p3 exits on the 20th without an enter (100 s)
 *   stage  p3 enters twice on the 19th, exits once (60 s); p4 enters and exits (40 s) on platform_3
 *   cap    p1 equips twice on the 18th and once on the 19th; p2 on the 20th, and on the 18th on
 *          platform_3; p3 on the 19th on platform_2 and on platform_3
 *   shirt  p5 (never in a zone) equips on the 18th and the 20th
 *   shares p1 tiktok 19th, discord twice 20th; p2 tiktok 20th; p5 tiktok 20th (outside the funnel)
 */
function fixture() {
  return [
    enter('p1', '2026-11-18T10:00:00Z', 'lobby'),
    exit('p1', '2026-11-18T10:00:30Z', 'lobby', 30),
    enter('p1', '2026-11-19T10:00:00Z', 'lobby'),
    exit('p1', '2026-11-19T10:00:12Z', 'lobby', 12.5),
    enter('p2', '2026-11-18T11:00:00Z', 'lobby'),
    enter('p2', '2026-11-20T09:00:00Z', 'lobby'),
    exit('p2', '2026-11-20T09:00:07Z', 'lobby', 7.25),
    exit('p3', '2026-11-20T08:00:00Z', 'lobby', 100),
    enter('p3', '2026-11-19T08:00:00Z', 'stage'),
    enter('p3', '2026-11-19T08:10:00Z', 'stage'),
    exit('p3', '2026-11-19T08:11:00Z', 'stage', 60),
    enter('p4', '2026-11-20T07:00:00Z', 'stage', 'platform_3'),
    exit('p4', '2026-11-20T07:00:40Z', 'stage', 40, 'platform_3'),
    equip('p1', '2026-11-18T10:01:00Z', 'cap'),
    equip('p1', '2026-11-18T10:02:00Z', 'cap'),
    equip('p1', '2026-11-19T10:01:00Z', 'cap'),
    equip('p2', '2026-11-20T09:01:00Z', 'cap'),
    equip('p2', '2026-11-18T09:00:00Z', 'cap', 'platform_3'),
    equip('p3', '2026-11-19T08:12:00Z', 'cap'),
    equip('p3', '2026-11-19T20:00:00Z', 'cap', 'platform_3'),
    equip('p5', '2026-11-18T12:00:00Z', 'shirt'),
    equip('p5', '2026-11-20T10:00:00Z', 'shirt'),
    share('p1', '2026-11-19T10:02:00Z', 'tiktok', 'cap'),
    share('p1', '2026-11-20T10:02:00Z', 'discord'),
    share('p1', '2026-11-20T10:03:00Z', 'discord', 'cap'),
    share('p2', '2026-11-20T09:02:00Z', 'tiktok', 'cap'),
    share('p5', '2026-11-20T10:01:00Z', 'tiktok', 'shirt'),
  ];
}

const METHOD = 'tenths of a second, ±0.05 s';
const item = (
  item_id: string,
  players: number,
  equips: number,
  repeat_players: number,
  repeat_rate: number,
) => ({
  item_id,
  players,
  equips,
  repeat_players,
  repeat_rate,
});

const platform2 = {
  // lobby dwell: 7.3, 12.5, 30, 100 → (12.5 + 30) / 2.
  zones: [
    { zone_id: 'lobby', reach: 2, entries: 4, exits: 4, median_dwell_s: 21.25 },
    { zone_id: 'stage', reach: 1, entries: 2, exits: 1, median_dwell_s: 60 },
  ],
  percentile_method: METHOD,
  // cap: p1 on 2 days of 3 players; shirt: p5 on 2 days.
  items: [item('cap', 3, 5, 1, 0.3333), item('shirt', 1, 2, 1, 1)],
  share_funnel: {
    zone_reach: { players: 3 },
    equipped: { players: 3, conversion: 1 },
    shared: { players: 2, conversion: 0.6667 },
    overall_conversion: 0.6667,
    by_share_platform: [
      { share_platform: 'tiktok', players: 2, shares: 2, conversion: 0.6667 },
      { share_platform: 'discord', players: 1, shares: 2, conversion: 0.3333 },
    ],
  },
  proxies: null,
};

describe.each(testEngines())('SDK analytics: brand (%s)', (engine) => {
  let t: TestApp;
  let team: AnalyticsTeam;
  const range = { from: '2026-11-18', to: '2026-11-20' };
  const header = {
    game_id: 'g1',
    from: '2026-11-18',
    to: '2026-11-20',
    granularity: 'day',
    history_limited_from: null,
  };

  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock('2026-11-20T12:00:00Z') });
    team = await analyticsTeam(t);
    await sendEvents(t, team.key, fixture());
  });
  afterAll(() => t.close());

  it('answers zones, items and the share funnel with numbers computed by hand', async () => {
    const res = await getView(t, team.headers, 'g1', 'brand', { ...range, platform: 'platform_2' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ...header, platform: 'platform_2', segment: null, ...platform2 });
  });

  it('combines the platforms: a player counts once, two platforms on one day are one day', async () => {
    const all = (await getView(t, team.headers, 'g1', 'brand', range)).json();
    expect(all).toEqual({
      ...header,
      platform: null,
      segment: null,
      zones: [
        { zone_id: 'lobby', reach: 2, entries: 4, exits: 4, median_dwell_s: 21.25 },
        // p3 and p4; dwell 60 and 40.
        { zone_id: 'stage', reach: 2, entries: 3, exits: 2, median_dwell_s: 50 },
      ],
      percentile_method: METHOD,
      // p3's cap on two platforms on the 19th is one day; p2's on the 18th (platform_3) and the 20th
      // (platform_2) two: p1 and p2 repeat.
      items: [item('cap', 3, 7, 2, 0.6667), item('shirt', 1, 2, 1, 1)],
      share_funnel: {
        zone_reach: { players: 4 },
        equipped: { players: 3, conversion: 0.75 },
        shared: { players: 2, conversion: 0.6667 },
        overall_conversion: 0.5,
        by_share_platform: platform2.share_funnel.by_share_platform,
      },
      proxies: null,
    });
    const other = (
      await getView(t, team.headers, 'g1', 'brand', { ...range, platform: 'platform_3' })
    ).json();
    expect(other).toMatchObject({
      zones: [{ zone_id: 'stage', reach: 1, entries: 1, exits: 1, median_dwell_s: 40 }],
      items: [item('cap', 2, 2, 0, 0)],
      share_funnel: {
        zone_reach: { players: 1 },
        equipped: { players: 0, conversion: 0 },
        shared: { players: 0, conversion: null },
        overall_conversion: 0,
        by_share_platform: [],
      },
    });
    // From the 19th: p1's and p2's first days fall before it, so no one repeats.
    const later = (
      await getView(t, team.headers, 'g1', 'brand', { from: '2026-11-19', to: '2026-11-20' })
    ).json();
    expect(later.items).toEqual([item('cap', 3, 4, 0, 0), item('shirt', 1, 1, 0, 0)]);
  });

  it("keeps a segment's players, and the same figures as no segment when it holds them all", async () => {
    const q = { ...range, platform: 'platform_2', segment: '4' };
    const everyone = await withSegment(t, ['p1', 'p2', 'p3', 'p4', 'p5'], () =>
      getView(t, team.headers, 'g1', 'brand', q),
    );
    expect(everyone.json()).toEqual({ ...header, platform: 'platform_2', segment: 4, ...platform2 });
    const some = (
      await withSegment(t, ['p1', 'p3'], () => getView(t, team.headers, 'g1', 'brand', q))
    ).json();
    expect(some).toEqual({
      ...header,
      platform: 'platform_2',
      segment: 4,
      // lobby: p1's enters, and the exits of p1 (30, 12.5) and p3 (100, without an enter).
      zones: [
        { zone_id: 'lobby', reach: 1, entries: 2, exits: 3, median_dwell_s: 30 },
        { zone_id: 'stage', reach: 1, entries: 2, exits: 1, median_dwell_s: 60 },
      ],
      percentile_method: METHOD,
      items: [item('cap', 2, 4, 1, 0.5)],
      share_funnel: {
        zone_reach: { players: 2 },
        equipped: { players: 2, conversion: 1 },
        shared: { players: 1, conversion: 0.5 },
        overall_conversion: 0.5,
        by_share_platform: [
          { share_platform: 'discord', players: 1, shares: 2, conversion: 0.5 },
          { share_platform: 'tiktok', players: 1, shares: 1, conversion: 0.5 },
        ],
      },
      proxies: null,
    });
  });

  it('reads one day alone, and answers empty lists and nulls for a range without brand events', async () => {
    const day = (
      await getView(t, team.headers, 'g1', 'brand', { from: '2026-11-19', to: '2026-11-19' })
    ).json();
    expect(day).toMatchObject({
      // Equal reach and exits: by zone_id.
      zones: [
        { zone_id: 'lobby', reach: 1, entries: 1, exits: 1, median_dwell_s: 12.5 },
        { zone_id: 'stage', reach: 1, entries: 2, exits: 1, median_dwell_s: 60 },
      ],
      // p3 equips on both platforms that day: one day, no repeat.
      items: [item('cap', 2, 3, 0, 0)],
      share_funnel: {
        zone_reach: { players: 2 },
        equipped: { players: 2, conversion: 1 },
        shared: { players: 1, conversion: 0.5 },
        overall_conversion: 0.5,
        by_share_platform: [{ share_platform: 'tiktok', players: 1, shares: 1, conversion: 0.5 }],
      },
    });
    const empty = (
      await getView(t, team.headers, 'g1', 'brand', { from: '2026-11-10', to: '2026-11-12' })
    ).json();
    expect(empty).toMatchObject({
      zones: [],
      items: [],
      share_funnel: {
        zone_reach: { players: 0 },
        equipped: { players: 0, conversion: null },
        shared: { players: 0, conversion: null },
        overall_conversion: null,
        by_share_platform: [],
      },
      // No brand event and no player either: the proxies say so.
      proxies: { reach: 0, dwell_s: null, repeat_equip_rate: null, method: PROXY_METHOD },
    });
  });

  it('falls back to the proxies for a game without brand-activation events', async () => {
    // g2: three players, one session each (600, 300 and 120 s by session_end), p2 pays once.
    const g2 = (player: string, ts: string, type: string, payload: Record<string, unknown> = {}) =>
      make(player, ts, type, payload, { game_id: 'g2', session_id: `g2-${player}` });
    await sendEvents(t, team.key, [
      g2('p1', '2026-11-18T10:00:00Z', 'session_start'),
      g2('p1', '2026-11-18T10:10:00Z', 'session_end', { duration_s: 600 }),
      g2('p2', '2026-11-19T10:00:00Z', 'session_start'),
      g2('p2', '2026-11-19T10:01:00Z', 'purchase', { sku: 'vip', price: 4.99, currency: 'USD' }),
      g2('p2', '2026-11-19T10:05:00Z', 'session_end', { duration_s: 300 }),
      g2('p3', '2026-11-20T10:00:00Z', 'session_start'),
      g2('p3', '2026-11-20T10:02:00Z', 'session_end', { duration_s: 120 }),
    ]);
    const res = await getView(t, team.headers, 'g2', 'brand', range);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      zones: [],
      items: [],
      // reach: every active player; dwell: (600 + 300 + 120) / 3; repeat-equip: 1 payer of 3 players.
      proxies: { reach: 3, dwell_s: 340, repeat_equip_rate: 0.3333, method: PROXY_METHOD },
    });
    // g1 has brand events in the range: no proxies.
    expect((await getView(t, team.headers, 'g1', 'brand', range)).json().proxies).toBeNull();
  });

  it("answers 404 for another team's game", async () => {
    const other = await analyticsTeam(t);
    const res = await getView(t, other.headers, 'g1', 'brand', range);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
  });
});
