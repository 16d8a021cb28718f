import { describe, expect, it } from 'vitest';
import { featureRows, type PlanInfo, statusNote } from './plan-rows';

const explorer: PlanInfo = {
  name: 'Explorer',
  summary: '',
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
};
const studio: PlanInfo = {
  ...explorer,
  name: 'Studio',
  trending_max: null,
  genre_opportunities: 'full',
  ml_prediction: 'detailed',
  forecast: { points: 30, bounds: true },
  tracked_games: 1_000,
  alerts: 100,
  alert_delivery: ['in_app', 'email', 'webhook'],
  dev_lens: true,
  monthly_sdk_events: 10_000_000,
  sdk_history_days: null,
  read_rate_per_min: 1_200,
};

describe('featureRows', () => {
  it('puts one cell per plan in every feature row, in words a person reads', () => {
    const rows = featureRows([explorer, studio]);
    expect(Object.fromEntries(rows.map((r) => [r.key, r.cells]))).toEqual({
      trending: [{ text: 'Top 20' }, { text: 'All' }],
      genres: [{ text: 'Names and totals only' }, { text: 'Full scores' }],
      ml: [{ text: 'Trend score only' }, { text: 'Trend + growth probability' }],
      forecast: [{ text: 'Not included', none: true }, { text: '30 days with 80% band' }],
      tracked: [{ text: '5' }, { text: '1,000' }],
      alerts: [{ text: '5' }, { text: '100' }],
      delivery: [{ text: 'in-app' }, { text: 'in-app, e-mail, webhook' }],
      devlens: [{ text: 'Not included', none: true }, { text: 'Included' }],
      sdk: [{ text: '10K' }, { text: '10M' }],
      history: [{ text: '30 days' }, { text: 'Unlimited' }],
      rate: [{ text: '60 / min' }, { text: '1,200 / min' }],
    });
  });

  it('shows a forecast without bounds as its days only', () => {
    const builder = { ...explorer, forecast: { points: 7, bounds: false } };
    expect(featureRows([builder]).find((r) => r.key === 'forecast')!.cells).toEqual([{ text: '7 days' }]);
  });
});

describe('statusNote', () => {
  it('says when a paid plan’s features are off', () => {
    expect(statusNote('Studio', 'active')).toBe('Every Studio feature is on.');
    expect(statusNote('Studio', 'trialing')).toBe('On trial: every Studio feature is on.');
    expect(statusNote('Builder', 'past_due')).toBe(
      'Payment is overdue: Builder features stay on for 7 days after the status changed, then Explorer’s apply.',
    );
    expect(statusNote('Studio', 'canceled')).toBe(
      'Canceled: you get Explorer features until an administrator reactivates Studio.',
    );
    expect(statusNote('Enterprise', 'none')).toBe(
      'No subscription: you get Explorer features until an administrator activates Enterprise.',
    );
    expect(statusNote('Explorer', 'none')).toBe('The free plan: no subscription needed.');
  });
});
