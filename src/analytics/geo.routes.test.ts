/**
 * The geo view against a small hand-computed fixture, on both engines: a player who moves counts in
 * both countries, new players under their first day's country, revenue where it was spent (Robux
 * converted, other currencies counted apart), unknown country last, platform and segment filters.
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

const make = eventFactory('geo');
const ev = (
  player: string,
  ts: string,
  type: string,
  payload: Record<string, unknown> = {},
  platform = 'platform_2',
) => make(player, ts, type, payload, { platform });

/**
 * The clock reads 2026-11-20 12:00 UTC; the range is 2026-11-18..20.
 *   10th  q0 FR first seen (platform_2)
 *   18th  q1 DE buys 5 USD; q2 US buys 1000 R$ (3.80 USD) and 7 GBP (not converted)
 *   19th  q0 FR plays on platform_2 and, for the first time, on platform_3; q1 buys 1 USD in CH at
 *         08:00, then plays in AT (the day's country: AT); q4 US on platform_3
 *   20th  q3 (no country) buys 2 USD; q5 DE
 */
function fixture() {
  return [
    ev('q0', '2026-11-10T10:00:00Z', 'session_start', { country: 'FR' }),
    ev('q1', '2026-11-18T10:00:00Z', 'session_start', { country: 'DE' }),
    ev('q1', '2026-11-18T10:01:00Z', 'purchase', { sku: 'gems', price: 5 }),
    ev('q2', '2026-11-18T11:00:00Z', 'session_start', { country: 'US' }),
    ev('q2', '2026-11-18T11:01:00Z', 'purchase', { sku: 'gems', price: 1000, currency: 'R$' }),
    ev('q2', '2026-11-18T11:02:00Z', 'purchase', { sku: 'gems', price: 7, currency: 'GBP' }),
    ev('q0', '2026-11-19T07:00:00Z', 'session_start', { country: 'FR' }),
    ev('q0', '2026-11-19T07:30:00Z', 'session_start', { country: 'FR' }, 'platform_3'),
    ev('q1', '2026-11-19T08:00:00Z', 'purchase', { sku: 'gems', price: 1, country: 'CH' }),
    ev('q1', '2026-11-19T09:00:00Z', 'session_start', { country: 'AT' }),
    ev('q4', '2026-11-19T10:00:00Z', 'session_start', { country: 'US' }, 'platform_3'),
    ev('q3', '2026-11-20T08:00:00Z', 'session_start'),
    ev('q3', '2026-11-20T08:01:00Z', 'purchase', { sku: 'gems', price: 2 }),
    ev('q5', '2026-11-20T09:00:00Z', 'session_start', { country: 'DE' }),
  ];
}

const rates = { usd_per_robux: 0.0038, source: 'DevEx rate (DECISIONS)' };

describe.each(testEngines())('SDK analytics: geo (%s)', (engine) => {
  let t: TestApp;
  let team: AnalyticsTeam;
  const range = { from: '2026-11-18', to: '2026-11-20' };

  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock('2026-11-20T12:00:00Z') });
    team = await analyticsTeam(t);
    await sendEvents(t, team.key, fixture());
  });
  afterAll(() => t.close());

  it('answers players, new players and revenue per country, computed by hand', async () => {
    const res = await getView(t, team.headers, 'g1', 'geo', range);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      game_id: 'g1',
      platform: null,
      from: '2026-11-18',
      to: '2026-11-20',
      granularity: 'day',
      segment: null,
      history_limited_from: null,
      countries: [
        { country: 'DE', players: 2, new_players: 2, revenue_usd: 5 },
        { country: 'US', players: 2, new_players: 2, revenue_usd: 3.8 },
        // q1 moved: counted here too, but new under DE, their first day's country.
        { country: 'AT', players: 1, new_players: 0, revenue_usd: 0 },
        // q0 was first seen on the 10th.
        { country: 'FR', players: 1, new_players: 0, revenue_usd: 0 },
        // q1 bought here before the day's last country became AT.
        { country: 'CH', players: 0, new_players: 0, revenue_usd: 1 },
        { country: null, players: 1, new_players: 1, revenue_usd: 2 },
      ],
      rates,
      unconverted_purchases: 1,
    });
  });

  it('keeps one platform: a player first seen there is new there', async () => {
    const res = await getView(t, team.headers, 'g1', 'geo', { ...range, platform: 'platform_3' });
    expect(res.json()).toMatchObject({
      countries: [
        { country: 'FR', players: 1, new_players: 1, revenue_usd: 0 },
        { country: 'US', players: 1, new_players: 1, revenue_usd: 0 },
      ],
      unconverted_purchases: 0,
    });
  });

  it("keeps a segment's players", async () => {
    const service = t.services.analytics.service;
    const before = service.segments;
    service.segments = { players: async () => ['q1', 'q2'] };
    try {
      const res = await getView(t, team.headers, 'g1', 'geo', { ...range, segment: '5' });
      expect(res.json()).toMatchObject({
        segment: 5,
        countries: [
          { country: 'AT', players: 1, new_players: 0, revenue_usd: 0 },
          { country: 'DE', players: 1, new_players: 1, revenue_usd: 5 },
          { country: 'US', players: 1, new_players: 1, revenue_usd: 3.8 },
          { country: 'CH', players: 0, new_players: 0, revenue_usd: 1 },
        ],
        unconverted_purchases: 1,
      });
    } finally {
      service.segments = before;
    }
  });

  it('answers from the per-player rollups (a segment of every player) what the activity rows answer', async () => {
    const service = t.services.analytics.service;
    const before = service.segments;
    service.segments = { players: async () => ['q0', 'q1', 'q2', 'q3', 'q4', 'q5'] };
    try {
      for (const from of ['2026-11-10', '2026-11-18', '2026-11-19']) {
        const extras: Record<string, string>[] = [{}, { platform: 'platform_2' }, { platform: 'platform_3' }];
        for (const extra of extras) {
          const query = { from, to: '2026-11-20', ...extra };
          const plain = await getView(t, team.headers, 'g1', 'geo', query);
          const segmented = await getView(t, team.headers, 'g1', 'geo', { ...query, segment: '7' });
          expect(plain.statusCode).toBe(200);
          expect({ ...segmented.json(), segment: null }).toEqual(plain.json());
        }
      }
    } finally {
      service.segments = before;
    }
  });

  it('answers an empty list for a range without players', async () => {
    const res = await getView(t, team.headers, 'g1', 'geo', { from: '2026-11-11', to: '2026-11-12' });
    expect(res.json()).toMatchObject({ countries: [], unconverted_purchases: 0 });
  });
});
