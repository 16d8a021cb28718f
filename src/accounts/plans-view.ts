/**
 * The plan table as GET /api/plans shows it: each plan's entitlements (the configured ones, so an
 * ENTITLEMENTS override shows) in API spelling, with a line a person can read. Pure: no I/O.
 */
import { type Entitlements, PLANS, type PlanEntitlements, type PlanName } from '../plans.js';
import type { PlanInfoT } from './accounts.schemas.js';

/** 10000 → "10K", 1000000 → "1M", 1500 → "1.5K": whole thousands, millions, billions. */
export function compactCount(n: number): string {
  for (const [size, suffix] of [
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'K'],
  ] as const) {
    if (Math.abs(n) >= size) return `${Number((n / size).toFixed(1))}${suffix}`;
  }
  return String(n);
}

const DELIVERY_NAMES = { in_app: 'in-app', email: 'e-mail', webhook: 'webhook' } as const;

/** "Top 20 trending games, genre overview, 5 tracked games, 5 alerts (in-app), 10K SDK events a month". */
export function planSummary(e: PlanEntitlements): string {
  const parts = [
    e.trendingMax === null ? 'every trending game' : `top ${compactCount(e.trendingMax)} trending games`,
    e.genreOpportunities === 'full' ? 'full genre scores' : 'genre overview',
  ];
  if (e.forecast) {
    parts.push(`${e.forecast.points}-day forecasts${e.forecast.bounds ? ' with 80% bands' : ''}`);
  }
  if (e.devLens) parts.push('Dev Lens');
  const delivery = e.alertDelivery.map((d) => DELIVERY_NAMES[d]).join(', ');
  parts.push(
    `${compactCount(e.trackedGames)} tracked games`,
    `${compactCount(e.alerts)} alerts${delivery ? ` (${delivery})` : ''}`,
    `${compactCount(e.monthlySdkEvents)} SDK events a month`,
  );
  if (e.teamSeats > 0) parts.push(`teams of ${compactCount(e.teamSeats)} with roles and an audit log`);
  const line = parts.join(', ');
  return line.charAt(0).toUpperCase() + line.slice(1);
}

export function planInfo(name: PlanName, e: PlanEntitlements): PlanInfoT {
  return {
    name,
    summary: planSummary(e),
    trending_max: e.trendingMax,
    genre_opportunities: e.genreOpportunities,
    ml_prediction: e.mlPrediction,
    forecast: e.forecast ? { points: e.forecast.points, bounds: e.forecast.bounds } : null,
    tracked_games: e.trackedGames,
    alerts: e.alerts,
    alert_delivery: [...e.alertDelivery],
    dev_lens: e.devLens,
    monthly_sdk_events: e.monthlySdkEvents,
    sdk_history_days: e.sdkHistoryDays,
    read_rate_per_min: e.readRatePerMin,
    team_seats: e.teamSeats,
  };
}

/** Every plan, cheapest first. */
export function planTable(entitlements: Entitlements): PlanInfoT[] {
  return PLANS.map((name) => planInfo(name, entitlements.plans[name]));
}
