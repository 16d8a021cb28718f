import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { bearer, signedIn } from '../../test/helpers/auth.js';
import { testEngines } from '../../test/helpers/db.js';

const DEFAULT_PLANS = [
  {
    name: 'Explorer',
    summary:
      'Top 20 trending games, genre overview, 5 tracked games, 5 alerts (in-app), 10K SDK events a month',
    trending_max: 20,
    genre_opportunities: 'free',
    ml_prediction: 'score',
    forecast: null,
    tracked_games: 5,
    alerts: 5,
    alert_delivery: ['in_app'],
    dev_lens: false,
    monthly_sdk_events: 10_000,
    sdk_history_days: 30,
    read_rate_per_min: 60,
    team_seats: 0,
  },
  {
    name: 'Builder',
    summary:
      'Top 100 trending games, full genre scores, 7-day forecasts, 25 tracked games, 25 alerts (in-app, e-mail), ' +
      '1M SDK events a month',
    trending_max: 100,
    genre_opportunities: 'full',
    ml_prediction: 'detailed',
    forecast: { points: 7, bounds: false },
    tracked_games: 25,
    alerts: 25,
    alert_delivery: ['in_app', 'email'],
    dev_lens: false,
    monthly_sdk_events: 1_000_000,
    sdk_history_days: 90,
    read_rate_per_min: 300,
    team_seats: 0,
  },
  {
    name: 'Studio',
    summary:
      'Every trending game, full genre scores, 30-day forecasts with 80% bands, Dev Lens, 100 tracked games, ' +
      '100 alerts (in-app, e-mail, webhook), 10M SDK events a month',
    trending_max: null,
    genre_opportunities: 'full',
    ml_prediction: 'detailed',
    forecast: { points: 30, bounds: true },
    tracked_games: 100,
    alerts: 100,
    alert_delivery: ['in_app', 'email', 'webhook'],
    dev_lens: true,
    monthly_sdk_events: 10_000_000,
    sdk_history_days: 365,
    read_rate_per_min: 1_200,
    team_seats: 0,
  },
  {
    name: 'Enterprise',
    summary:
      'Every trending game, full genre scores, 30-day forecasts with 80% bands, Dev Lens, 500 tracked games, ' +
      '500 alerts (in-app, e-mail, webhook), 100M SDK events a month, teams of 25 with roles and an audit log',
    trending_max: null,
    genre_opportunities: 'full',
    ml_prediction: 'detailed',
    forecast: { points: 30, bounds: true },
    tracked_games: 500,
    alerts: 500,
    alert_delivery: ['in_app', 'email', 'webhook'],
    dev_lens: true,
    monthly_sdk_events: 100_000_000,
    sdk_history_days: null,
    read_rate_per_min: 6_000,
    team_seats: 25,
  },
];

describe.each(testEngines())('GET /api/plans (%s)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ engine });
  });
  afterAll(() => t.close());

  it('lists every plan in order with the default entitlements, to anyone', async () => {
    const anonymous = await t.app.inject({ url: '/api/plans' });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json()).toEqual({ plans: DEFAULT_PLANS });
    const s = await signedIn(t, { plan: 'Builder' });
    const signed = await t.app.inject({ url: '/api/plans', headers: bearer(s) });
    expect(signed.json()).toEqual({ plans: DEFAULT_PLANS });
  });

  it('shows an ENTITLEMENTS override', async () => {
    const custom = await buildTestApp({
      engine,
      env: {
        ENTITLEMENTS: JSON.stringify({
          anonymousRatePerMin: 100_000,
          plans: {
            Explorer: { trendingMax: 10, forecast: { points: 3, bounds: false }, monthlySdkEvents: 2_500 },
            Enterprise: { trackedGames: 2_000, sdkHistoryDays: 730 },
          },
        }),
      },
    });
    try {
      const { plans } = (await custom.app.inject({ url: '/api/plans' })).json() as {
        plans: typeof DEFAULT_PLANS;
      };
      expect(plans.map((p) => p.name)).toEqual(['Explorer', 'Builder', 'Studio', 'Enterprise']);
      expect(plans[0]).toEqual({
        ...DEFAULT_PLANS[0],
        summary:
          'Top 10 trending games, genre overview, 3-day forecasts, 5 tracked games, 5 alerts (in-app), ' +
          '2.5K SDK events a month',
        trending_max: 10,
        forecast: { points: 3, bounds: false },
        monthly_sdk_events: 2_500,
      });
      expect(plans[1]).toEqual(DEFAULT_PLANS[1]);
      expect(plans[2]).toEqual(DEFAULT_PLANS[2]);
      expect(plans[3]).toEqual({
        ...DEFAULT_PLANS[3],
        summary:
          'Every trending game, full genre scores, 30-day forecasts with 80% bands, Dev Lens, 2K tracked games, ' +
          '500 alerts (in-app, e-mail, webhook), 100M SDK events a month, teams of 25 with roles and an audit log',
        tracked_games: 2_000,
        sdk_history_days: 730,
      });
    } finally {
      await custom.close();
    }
  });
});
