/**
 * The monetization view against a small hand-computed fixture, on both engines: USD and Robux
 * (any spelling, at the DevEx rate) summed, another currency reported apart, first purchases
 * before the range, the platform and segment filters, and an empty range.
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

const make = eventFactory('mo');
const ev = (
  player: string,
  ts: string,
  type: string,
  payload: Record<string, unknown> = {},
  platform = 'platform_2',
) => make(player, ts, type, payload, { platform, session_id: `${player}-${ts.slice(0, 10)}` });

/**
 * Five players; the clock reads 2026-11-20 12:00 UTC, the range is 2026-11-17..20 (nobody on the 17th).
 *   10th  p1 DE buys gems 1.00 USD (before the range: p1 is not a first-time payer in it)
 *   18th  p1 DE buys gems 4.99 USD (iap); p2 US buys vip 2 × 4.50 EUR (gamepass: never in USD)
 *   19th  p1 DE buys coins 2 × 100 R$ = 0.76 USD (devproduct); p3 BR plays;
 *         p5 CA on platform_3 buys gems 3.11 USD
 *   20th  p2 US buys vip 500 "robux" = 1.90 USD (gamepass); p3 plays (BR, cached);
 *         p4 (no country ever) buys gems 2 × 1.30 = 2.60 USD
 * Player-days: 18th p1 p2, 19th p1 p3 p5, 20th p2 p3 p4 = 8; players 5; payers p1 p2 p4 p5 = 4.
 * Revenue 4.99 + 0.76 + 3.11 + 1.90 + 2.60 = 13.36 USD.
 */
function fixture() {
  return [
    ev('p1', '2026-11-10T10:00:00Z', 'session_start', { country: 'DE' }),
    ev('p1', '2026-11-10T10:05:00Z', 'purchase', { sku: 'gems', price: 1 }),
    ev('p1', '2026-11-18T10:00:00Z', 'session_start', { country: 'DE' }),
    ev('p1', '2026-11-18T10:05:00Z', 'purchase', { sku: 'gems', price: 4.99 }),
    ev('p2', '2026-11-18T11:00:00Z', 'session_start', { country: 'US' }),
    ev('p2', '2026-11-18T11:05:00Z', 'purchase', {
      sku: 'vip',
      price: 4.5,
      quantity: 2,
      currency: 'eur',
      source: 'gamepass',
    }),
    ev('p1', '2026-11-19T09:00:00Z', 'session_start', { country: 'DE' }),
    ev('p1', '2026-11-19T09:10:00Z', 'purchase', {
      sku: 'coins',
      price: 100,
      quantity: 2,
      currency: 'R$',
      source: 'devproduct',
    }),
    ev('p3', '2026-11-19T15:00:00Z', 'session_start', { country: 'BR' }),
    ev('p5', '2026-11-19T16:00:00Z', 'session_start', { country: 'CA' }, 'platform_3'),
    ev('p5', '2026-11-19T16:01:00Z', 'purchase', { sku: 'gems', price: 3.11 }, 'platform_3'),
    ev('p2', '2026-11-20T08:00:00Z', 'session_start', { country: 'US' }),
    ev('p2', '2026-11-20T08:05:00Z', 'purchase', {
      sku: 'vip',
      price: 500,
      currency: 'robux',
      source: 'gamepass',
    }),
    ev('p3', '2026-11-20T09:00:00Z', 'session_start'),
    ev('p4', '2026-11-20T10:00:00Z', 'session_start'),
    ev('p4', '2026-11-20T10:01:00Z', 'purchase', { sku: 'gems', price: 1.3, quantity: 2 }),
  ];
}

const header = {
  game_id: 'g1',
  platform: null,
  from: '2026-11-17',
  to: '2026-11-20',
  granularity: 'day',
  segment: null,
  history_limited_from: null,
};
const rates = { usd_per_robux: 0.0038, source: 'DevEx rate (DECISIONS)' };

describe.each(testEngines())('SDK analytics: monetization (%s)', (engine) => {
  let t: TestApp;
  let team: AnalyticsTeam;
  const range = { from: '2026-11-17', to: '2026-11-20' };

  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock('2026-11-20T12:00:00Z') });
    team = await analyticsTeam(t);
    await sendEvents(t, team.key, fixture());
  });
  afterAll(() => t.close());

  it('answers revenue and its breakdowns with numbers computed by hand', async () => {
    const res = await getView(t, team.headers, 'g1', 'monetization', range);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      ...header,
      revenue: [
        { date: '2026-11-17', revenue_usd: 0 },
        { date: '2026-11-18', revenue_usd: 4.99 },
        { date: '2026-11-19', revenue_usd: 3.87 },
        { date: '2026-11-20', revenue_usd: 4.5 },
      ],
      revenue_usd: 13.36,
      // 13.36 / 8 player-days, / 4 payers, / 5 players.
      arpdau_usd: 1.67,
      arppu_usd: 3.34,
      arpu_usd: 2.672,
      paying_players: 4,
      conversion: 0.8,
      // p2, p4 and p5 bought for the first time in the range; p1 first bought on the 10th.
      first_purchase_share: 0.75,
      by_source: [
        { source: 'iap', revenue_usd: 10.7, purchases: 3 },
        { source: 'gamepass', revenue_usd: 1.9, purchases: 2 },
        { source: 'devproduct', revenue_usd: 0.76, purchases: 1 },
      ],
      top_skus: [
        { sku: 'gems', revenue_usd: 10.7, units: 4, buyers: 3 },
        { sku: 'vip', revenue_usd: 1.9, units: 3, buyers: 1 },
        { sku: 'coins', revenue_usd: 0.76, units: 2, buyers: 1 },
      ],
      by_country: [
        { country: 'DE', revenue_usd: 5.75, units: 3, buyers: 1 },
        { country: 'CA', revenue_usd: 3.11, units: 1, buyers: 1 },
        { country: 'US', revenue_usd: 1.9, units: 3, buyers: 1 },
        { country: null, revenue_usd: 2.6, units: 2, buyers: 1 },
      ],
      rates,
      unconverted: [{ currency: 'EUR', amount: 9, units: 2, purchases: 1 }],
    });
  });

  it('groups the revenue series by ISO week', async () => {
    const res = await getView(t, team.headers, 'g1', 'monetization', { ...range, granularity: 'week' });
    // 2026-11-16 is the Monday of the week of the 17th–20th.
    expect(res.json().revenue).toEqual([{ date: '2026-11-16', revenue_usd: 13.36 }]);
  });

  it('keeps one platform', async () => {
    const res = await getView(t, team.headers, 'g1', 'monetization', { ...range, platform: 'platform_3' });
    expect(res.json()).toMatchObject({
      platform: 'platform_3',
      revenue_usd: 3.11,
      arpdau_usd: 3.11,
      paying_players: 1,
      conversion: 1,
      first_purchase_share: 1,
      by_source: [{ source: 'iap', revenue_usd: 3.11, purchases: 1 }],
      by_country: [{ country: 'CA', revenue_usd: 3.11, units: 1, buyers: 1 }],
      unconverted: [],
    });
  });

  it("keeps a segment's players", async () => {
    const service = t.services.analytics.service;
    const before = service.segments;
    service.segments = { players: async () => ['p1', 'p2'] };
    try {
      const res = await getView(t, team.headers, 'g1', 'monetization', { ...range, segment: '7' });
      expect(res.statusCode).toBe(200);
      // p1: 4.99 + 0.76, p2: 1.90 over 4 player-days (p1 18th 19th, p2 18th 20th); p2 alone is new.
      expect(res.json()).toMatchObject({
        segment: 7,
        revenue_usd: 7.65,
        arpdau_usd: 1.9125,
        arppu_usd: 3.825,
        arpu_usd: 3.825,
        paying_players: 2,
        conversion: 1,
        first_purchase_share: 0.5,
        top_skus: [
          { sku: 'gems', revenue_usd: 4.99, units: 1, buyers: 1 },
          { sku: 'vip', revenue_usd: 1.9, units: 3, buyers: 1 },
          { sku: 'coins', revenue_usd: 0.76, units: 2, buyers: 1 },
        ],
        unconverted: [{ currency: 'EUR', amount: 9, units: 2, purchases: 1 }],
      });
    } finally {
      service.segments = before;
    }
  });

  /**
   * Game g2, range 2026-11-17..20: r1 buys 1 USD on platform_2 on the 12th; on the 18th r1 plays in
   * the US on platform_3 (buys gems 2 USD) and on platform_2 (gems 3 USD); on the 19th r2 (BR) plays on
   * platform_3. Combined: player-days 18th r1 (once, two platforms), 19th r2 = 2; r1 paid before the
   * range. On platform_3 alone r1's first purchase is the 18th.
   */
  it('counts a player on two platforms once a day, and first purchases per platform', async () => {
    const g2 = (
      player: string,
      ts: string,
      type: string,
      payload: Record<string, unknown>,
      platform: string,
    ) => ({
      ...ev(player, ts, type, payload, platform),
      game_id: 'g2',
    });
    await sendEvents(t, team.key, [
      g2('r1', '2026-11-12T10:00:00Z', 'purchase', { sku: 'gems', price: 1 }, 'platform_2'),
      g2('r1', '2026-11-18T09:00:00Z', 'session_start', { country: 'US' }, 'platform_3'),
      g2('r1', '2026-11-18T09:01:00Z', 'purchase', { sku: 'gems', price: 2 }, 'platform_3'),
      g2('r1', '2026-11-18T10:00:00Z', 'session_start', { country: 'US' }, 'platform_2'),
      g2('r1', '2026-11-18T10:01:00Z', 'purchase', { sku: 'gems', price: 3 }, 'platform_2'),
      g2('r2', '2026-11-19T09:00:00Z', 'session_start', { country: 'BR' }, 'platform_3'),
    ]);
    const all = await getView(t, team.headers, 'g2', 'monetization', range);
    expect(all.json()).toMatchObject({
      revenue_usd: 5,
      arpdau_usd: 2.5,
      arppu_usd: 5,
      arpu_usd: 2.5,
      paying_players: 1,
      conversion: 0.5,
      first_purchase_share: 0,
      top_skus: [{ sku: 'gems', revenue_usd: 5, units: 2, buyers: 1 }],
      by_country: [{ country: 'US', revenue_usd: 5, units: 2, buyers: 1 }],
    });
    const p3 = await getView(t, team.headers, 'g2', 'monetization', { ...range, platform: 'platform_3' });
    expect(p3.json()).toMatchObject({
      revenue_usd: 2,
      arpdau_usd: 1,
      arppu_usd: 2,
      arpu_usd: 1,
      paying_players: 1,
      conversion: 0.5,
      first_purchase_share: 1,
    });
  });

  it('answers from the per-player rollups (a segment of every player) what the day rollups answer', async () => {
    const service = t.services.analytics.service;
    const before = service.segments;
    service.segments = { players: async () => ['p1', 'p2', 'p3', 'p4', 'p5', 'r1', 'r2'] };
    try {
      for (const game of ['g1', 'g2']) {
        const extras: Record<string, string>[] = [
          {},
          { platform: 'platform_2' },
          { platform: 'platform_3' },
          { granularity: 'week' },
        ];
        for (const extra of extras) {
          const query = { from: '2026-11-01', to: '2026-11-20', ...extra };
          const plain = await getView(t, team.headers, game, 'monetization', query);
          const segmented = await getView(t, team.headers, game, 'monetization', { ...query, segment: '7' });
          expect(plain.statusCode).toBe(200);
          expect({ ...segmented.json(), segment: null }).toEqual(plain.json());
        }
      }
    } finally {
      service.segments = before;
    }
  });

  it('answers zeros and nulls for a range without players', async () => {
    const res = await getView(t, team.headers, 'g1', 'monetization', {
      from: '2026-11-11',
      to: '2026-11-12',
    });
    expect(res.json()).toEqual({
      ...header,
      from: '2026-11-11',
      to: '2026-11-12',
      revenue: [
        { date: '2026-11-11', revenue_usd: 0 },
        { date: '2026-11-12', revenue_usd: 0 },
      ],
      revenue_usd: 0,
      arpdau_usd: null,
      arppu_usd: null,
      arpu_usd: null,
      paying_players: 0,
      conversion: null,
      first_purchase_share: null,
      by_source: [],
      top_skus: [],
      by_country: [],
      rates,
      unconverted: [],
    });
  });
});
