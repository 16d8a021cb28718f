/**
 * The ads view against a small hand-computed fixture, on both engines: eCPM from the sent values
 * only when every impression sent one, placements without a name as null, the platform filter, and
 * a segment (read from the per-player ad rollup) agreeing with the unsegmented figures.
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

const make = eventFactory('ad');
const ev = (
  player: string,
  ts: string,
  type: string,
  payload: Record<string, unknown> = {},
  platform = 'platform_2',
) => make(player, ts, type, payload, { platform });
const ad = (player: string, ts: string, payload: Record<string, unknown>, platform?: string) =>
  ev(player, ts, 'ad_impression', payload, platform);

/**
 * The clock reads 2026-11-20 12:00 UTC; the range is 2026-11-18..20. On platform_2:
 *   18th  a1: banner/admob/menu 0.002 USD (ecpm 2.5), banner/admob/menu 0.004 (ecpm 4.5)
 *   19th  a1: rewarded/unity/revive 0.02 (ecpm 18), rewarded/unity/no placement 0.01 (no ecpm)
 *         a2: interstitial/admob/level_end 0.015 (no ecpm)
 *   20th  a2: rewarded/unity/revive 0.03 (ecpm 30); a3 plays, sees no ad
 * Player-days: a1 18th 19th, a2 19th 20th, a3 20th = 5. On platform_3, 20th: a4 native/meta/shop
 * 0.5 (ecpm 500).
 */
function fixture() {
  return [
    ev('a1', '2026-11-18T10:00:00Z', 'session_start', { country: 'US' }),
    ad('a1', '2026-11-18T10:01:00Z', {
      format: 'banner',
      network: 'admob',
      placement: 'menu',
      revenue_usd: 0.002,
      ecpm: 2.5,
    }),
    ad('a1', '2026-11-18T10:02:00Z', {
      format: 'banner',
      network: 'admob',
      placement: 'menu',
      revenue_usd: 0.004,
      ecpm: 4.5,
    }),
    ad('a1', '2026-11-19T10:01:00Z', {
      format: 'rewarded',
      network: 'unity',
      placement: 'revive',
      revenue_usd: 0.02,
      ecpm: 18,
    }),
    ad('a1', '2026-11-19T10:02:00Z', { format: 'rewarded', network: 'unity', revenue_usd: 0.01 }),
    ad('a2', '2026-11-19T11:00:00Z', {
      format: 'interstitial',
      network: 'admob',
      placement: 'level_end',
      revenue_usd: 0.015,
    }),
    ad('a2', '2026-11-20T08:00:00Z', {
      format: 'rewarded',
      network: 'unity',
      placement: 'revive',
      revenue_usd: 0.03,
      ecpm: 30,
    }),
    ev('a3', '2026-11-20T09:00:00Z', 'session_start'),
    ad(
      'a4',
      '2026-11-20T09:30:00Z',
      { format: 'native', network: 'meta', placement: 'shop', revenue_usd: 0.5, ecpm: 500 },
      'platform_3',
    ),
  ];
}

/** The figures of one group: ARPDAU over the 5 player-days of platform_2. */
const mean = (revenue: number, arpdau: number, impressions: number, ecpm: number) => ({
  ad_revenue_usd: revenue,
  ad_arpdau_usd: arpdau,
  impressions,
  ecpm_usd: ecpm,
  ecpm_method: 'mean_of_sent',
});
const perMille = (revenue: number, arpdau: number, impressions: number, ecpm: number) => ({
  ...mean(revenue, arpdau, impressions, ecpm),
  ecpm_method: 'revenue_per_mille',
});

const platform2 = {
  revenue: [
    { date: '2026-11-18', revenue_usd: 0.006 },
    { date: '2026-11-19', revenue_usd: 0.045 },
    { date: '2026-11-20', revenue_usd: 0.03 },
  ],
  // 0.081 over 6 impressions, 4 with an ecpm: 0.081 / 6 × 1000; ARPDAU 0.081 / 5.
  ...perMille(0.081, 0.0162, 6, 13.5),
  by_format: [
    { format: 'rewarded', ...perMille(0.06, 0.012, 3, 20) },
    { format: 'interstitial', ...perMille(0.015, 0.003, 1, 15) },
    // Both sent one: (2.5 + 4.5) / 2, where revenue per mille would say 3.
    { format: 'banner', ...mean(0.006, 0.0012, 2, 3.5) },
  ],
  by_network: [
    { network: 'unity', ...perMille(0.06, 0.012, 3, 20) },
    { network: 'admob', ...perMille(0.021, 0.0042, 3, 7) },
  ],
  top_placements: [
    { placement: 'revive', ...mean(0.05, 0.01, 2, 24) },
    { placement: 'level_end', ...perMille(0.015, 0.003, 1, 15) },
    { placement: null, ...perMille(0.01, 0.002, 1, 10) },
    { placement: 'menu', ...mean(0.006, 0.0012, 2, 3.5) },
  ],
};

describe.each(testEngines())('SDK analytics: ads (%s)', (engine) => {
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

  it('answers ad revenue, eCPM and the splits with numbers computed by hand', async () => {
    const res = await getView(t, team.headers, 'g1', 'ads', { ...range, platform: 'platform_2' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...header, platform: 'platform_2', segment: null, ...platform2 });
  });

  it('combines the platforms without a filter, and keeps one with it', async () => {
    const all = (await getView(t, team.headers, 'g1', 'ads', range)).json();
    // Adds a4's 0.5: 0.581 over 7 impressions (5 with an ecpm) = 83 per mille; 6 player-days.
    expect(all).toMatchObject({ ...perMille(0.581, 0.0968, 7, 83) });
    expect(all.by_format[0]).toEqual({ format: 'native', ...mean(0.5, 0.0833, 1, 500) });
    const other = (await getView(t, team.headers, 'g1', 'ads', { ...range, platform: 'platform_3' })).json();
    expect(other).toMatchObject({
      revenue: [
        { date: '2026-11-18', revenue_usd: 0 },
        { date: '2026-11-19', revenue_usd: 0 },
        { date: '2026-11-20', revenue_usd: 0.5 },
      ],
      ...mean(0.5, 0.5, 1, 500),
      top_placements: [{ placement: 'shop', ...mean(0.5, 0.5, 1, 500) }],
    });
  });

  it("keeps a segment's players, with the same figures as no segment when it holds them all", async () => {
    const q = { ...range, platform: 'platform_2', segment: '3' };
    const everyone = await withSegment(t, ['a1', 'a2', 'a3'], () => getView(t, team.headers, 'g1', 'ads', q));
    expect(everyone.json()).toEqual({ ...header, platform: 'platform_2', segment: 3, ...platform2 });
    const a1 = (await withSegment(t, ['a1'], () => getView(t, team.headers, 'g1', 'ads', q))).json();
    // a1 alone: 4 impressions, 0.036 USD, 3 with an ecpm; 2 player-days.
    expect(a1).toEqual({
      ...header,
      platform: 'platform_2',
      segment: 3,
      revenue: [
        { date: '2026-11-18', revenue_usd: 0.006 },
        { date: '2026-11-19', revenue_usd: 0.03 },
        { date: '2026-11-20', revenue_usd: 0 },
      ],
      ...perMille(0.036, 0.018, 4, 9),
      by_format: [
        { format: 'rewarded', ...perMille(0.03, 0.015, 2, 15) },
        { format: 'banner', ...mean(0.006, 0.003, 2, 3.5) },
      ],
      by_network: [
        { network: 'unity', ...perMille(0.03, 0.015, 2, 15) },
        { network: 'admob', ...mean(0.006, 0.003, 2, 3.5) },
      ],
      top_placements: [
        { placement: 'revive', ...mean(0.02, 0.01, 1, 18) },
        { placement: null, ...perMille(0.01, 0.005, 1, 10) },
        { placement: 'menu', ...mean(0.006, 0.003, 2, 3.5) },
      ],
    });
  });

  it('groups by ISO week, and answers nulls for a range without ads or players', async () => {
    const weekly = (await getView(t, team.headers, 'g1', 'ads', { ...range, granularity: 'week' })).json();
    expect(weekly.revenue).toEqual([{ date: '2026-11-16', revenue_usd: 0.581 }]);
    const empty = (
      await getView(t, team.headers, 'g1', 'ads', { from: '2026-11-16', to: '2026-11-17' })
    ).json();
    expect(empty).toMatchObject({
      revenue: [
        { date: '2026-11-16', revenue_usd: 0 },
        { date: '2026-11-17', revenue_usd: 0 },
      ],
      ad_revenue_usd: 0,
      ad_arpdau_usd: null,
      impressions: 0,
      ecpm_usd: null,
      ecpm_method: null,
      by_format: [],
      by_network: [],
      top_placements: [],
    });
  });
});
