/**
 * Tracking and alerts: tracked games (with the plan cap), alert rules (create, edit the threshold,
 * delete), the alert feed (unread badge, mark read, each rule's firings) and webhooks (Studio and
 * up: register, test, delivery log). One section at a time, chosen by `?tab=` so each deep-links.
 */
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/Layout';
import { ErrorState, Loading } from '../../components/states';
import { RequireAuth, useMe, usePlans, useTracked } from '../../lib/session';
import { AlertFeed } from './AlertFeed';
import { AlertRules } from './AlertRules';
import { useAlerts, useGames } from './queries';
import { TrackedGames } from './TrackedGames';
import { planOf, type Section, sectionOf, universeIds, webhookPlan } from './tracking-data';
import { UnreadBadge } from './UnreadBadge';
import { Webhooks } from './Webhooks';

const LABELS: Record<Section, string> = {
  games: 'Tracked games',
  rules: 'Alert rules',
  feed: 'Alert feed',
  webhooks: 'Webhooks',
};

function TrackingPage() {
  const me = useMe();
  const [params, setParams] = useSearchParams();
  const section = sectionOf(params.get('tab'));
  const preselect = Number(params.get('game')) || null;
  const alerts = useAlerts();
  const plans = usePlans();
  const list = useTracked(Boolean(me.data));
  const tracked = list.data?.tracked_games ?? [];
  const { games } = useGames(universeIds(tracked, alerts.data ?? []));
  // Inside a shared team the team's plan sets the caps (GET /api/track says which).
  const plan = planOf(plans.data?.plans, list.data?.plan ?? me.data?.plan);
  const tabLink = (s: Section) => (s === 'games' ? '?' : `?tab=${s}`);
  const addAlert = (universeId: number) => setParams({ tab: 'rules', game: String(universeId) });

  let body: ReactNode;
  if (section === 'webhooks') {
    body = plans.isPending ? (
      <Loading label="Checking your plan" />
    ) : (
      <Webhooks
        allowed={plan ? plan.alert_delivery.includes('webhook') : true}
        upgradePlan={webhookPlan(plans.data?.plans)}
      />
    );
  } else if (alerts.isPending) {
    body = <Loading label="Loading your alerts" />;
  } else if (alerts.error) {
    body = <ErrorState error={alerts.error} retry={() => void alerts.refetch()} />;
  } else if (section === 'games') {
    body = (
      <TrackedGames
        tracked={tracked}
        alerts={alerts.data}
        games={games}
        limit={plan?.tracked_games}
        onAddAlert={addAlert}
      />
    );
  } else if (section === 'rules') {
    body = (
      <AlertRules
        key={preselect ?? 'none'}
        alerts={alerts.data}
        tracked={tracked}
        games={games}
        limit={plan?.alerts}
        preselect={preselect}
      />
    );
  } else {
    body = <AlertFeed alerts={alerts.data} games={games} />;
  }

  return (
    <div className="page tracking-page">
      <PageHeader title="Tracking and alerts">
        <Link to="/market" className="button ghost">
          Find games to track
        </Link>
      </PageHeader>
      <nav className="tabs" aria-label="Tracking sections">
        {(Object.keys(LABELS) as Section[]).map((s) => (
          <Link
            key={s}
            to={tabLink(s)}
            className={s === section ? 'active' : undefined}
            aria-current={s === section ? 'page' : undefined}
          >
            {LABELS[s]}
            {s === 'feed' ? (
              <>
                {' '}
                <UnreadBadge testId="unread-badge-tab" />
              </>
            ) : null}
          </Link>
        ))}
      </nav>
      {body}
    </div>
  );
}

export function Component() {
  return (
    <RequireAuth>
      <TrackingPage />
    </RequireAuth>
  );
}
