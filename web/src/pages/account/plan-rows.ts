/**
 * What each plan unlocks, as rows of a comparison table (GET /api/plans → one row per feature, one
 * cell per plan), and what a subscription status means for the account. Pure: no DOM, no fetching.
 */
import type { Schemas } from '../../api/client';
import { formatCompact, formatInteger } from '../../lib/format';

export type PlanInfo = Schemas['PlanInfo'];
export type PlanName = PlanInfo['name'];
export type SubscriptionStatus = Schemas['User']['subscription_status'];

export interface Cell {
  text: string;
  /** The plan lacks the feature entirely (drawn muted). */
  none?: boolean;
}

export interface FeatureRow {
  key: string;
  feature: string;
  /** A sentence on what the row means (shown on hover and to screen readers). */
  help: string;
  cells: Cell[];
}

const DELIVERY: Record<PlanInfo['alert_delivery'][number], string> = {
  in_app: 'in-app',
  email: 'e-mail',
  webhook: 'webhook',
};

function row(key: string, feature: string, help: string, plans: PlanInfo[], cell: (p: PlanInfo) => Cell) {
  return { key, feature, help, cells: plans.map(cell) };
}

export function featureRows(plans: PlanInfo[]): FeatureRow[] {
  return [
    row('trending', 'Trending games', 'How many of the top games the trending table shows', plans, (p) => ({
      text: p.trending_max === null ? 'All' : `Top ${formatInteger(p.trending_max)}`,
    })),
    row('genres', 'Genre opportunities', 'Scores and recommendations per genre', plans, (p) =>
      p.genre_opportunities === 'full' ? { text: 'Full scores' } : { text: 'Names and totals only' },
    ),
    row('ml', 'Growth prediction', 'The ML prediction on a game page', plans, (p) =>
      p.ml_prediction === 'detailed' ? { text: 'Trend + growth probability' } : { text: 'Trend score only' },
    ),
    row('forecast', 'CCU forecast', 'Daily forecast of a game’s players', plans, (p) =>
      p.forecast === null
        ? { text: 'Not included', none: true }
        : { text: `${p.forecast.points} days${p.forecast.bounds ? ' with 80% band' : ''}` },
    ),
    row('tracked', 'Tracked games', 'Games you can track at once', plans, (p) => ({
      text: formatInteger(p.tracked_games),
    })),
    row('alerts', 'Alert rules', 'Alert rules you can keep', plans, (p) => ({
      text: formatInteger(p.alerts),
    })),
    row('delivery', 'Alert delivery', 'Where alerts reach you', plans, (p) => ({
      text: p.alert_delivery.map((d) => DELIVERY[d]).join(', ') || 'none',
    })),
    row('devlens', 'Dev Lens', 'Reports from your Creator Hub CSV exports', plans, (p) =>
      p.dev_lens ? { text: 'Included' } : { text: 'Not included', none: true },
    ),
    row('sdk', 'SDK events a month', 'Analytics events your games can send per month', plans, (p) => ({
      text: formatCompact(p.monthly_sdk_events),
    })),
    row('history', 'SDK history', 'How far back SDK dashboards can read', plans, (p) => ({
      text: p.sdk_history_days === null ? 'Unlimited' : `${formatInteger(p.sdk_history_days)} days`,
    })),
    row('rate', 'API requests', 'Read API requests per minute, per user or API key', plans, (p) => ({
      text: `${formatInteger(p.read_rate_per_min)} / min`,
    })),
  ];
}

/** What the stored plan and subscription status mean for the features the account gets. */
export function statusNote(plan: PlanName, status: SubscriptionStatus): string {
  switch (status) {
    case 'active':
      return plan === 'Explorer' ? 'The free plan.' : `Every ${plan} feature is on.`;
    case 'trialing':
      return `On trial: every ${plan} feature is on.`;
    case 'past_due':
      return `Payment is overdue: ${plan} features stay on for 7 days after the status changed, then Explorer’s apply.`;
    case 'canceled':
      return plan === 'Explorer'
        ? 'The free plan.'
        : `Canceled: you get Explorer features until an administrator reactivates ${plan}.`;
    case 'none':
      return plan === 'Explorer'
        ? 'The free plan: no subscription needed.'
        : `No subscription: you get Explorer features until an administrator activates ${plan}.`;
  }
}
