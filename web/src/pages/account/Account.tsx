/**
 * Account: who you are, your plan and what every plan unlocks (upgrades are made by an
 * administrator: there is no checkout), and your API keys (create with scopes, the secret shown
 * once with a copy button, revoke), linked sign-ins and a password change.
 */
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { PageHeader } from '../../components/Layout';
import { RequireAuth, useMe, usePlans } from '../../lib/session';
import { ApiKeys } from './ApiKeys';
import { ChangePassword } from './ChangePassword';
import { LinkedSignIns } from './LinkedSignIns';
import { PlansTable } from './PlansTable';
import { statusNote } from './plan-rows';

const STATUS_LABEL = {
  active: 'Active',
  trialing: 'Trialing',
  past_due: 'Past due',
  canceled: 'Canceled',
  none: 'None',
} as const;

function Profile() {
  const me = useMe().data;
  const plans = usePlans();
  if (!me) return null;
  const summary = plans.data?.plans.find((p) => p.name === me.plan)?.summary;
  return (
    <section className="card stack" aria-labelledby="profile-heading">
      <h2 id="profile-heading">Your account</h2>
      <div className="stats">
        <div className="stat stat-email">
          <div className="label">E-mail</div>
          <div className="value account-email">{me.email}</div>
          {me.is_admin ? <div className="note">Administrator</div> : null}
        </div>
        <div className="stat">
          <div className="label">Plan</div>
          <div className="value" data-testid="account-plan">
            {me.plan}
          </div>
          {summary ? <div className="note">{summary}</div> : null}
        </div>
        <div className="stat">
          <div className="label">Subscription</div>
          <div className="value" data-testid="account-status">
            {STATUS_LABEL[me.subscription_status]}
          </div>
          <div className="note">{statusNote(me.plan, me.subscription_status)}</div>
        </div>
      </div>
    </section>
  );
}

function Plans() {
  const me = useMe().data;
  const location = useLocation();
  const plans = usePlans();
  // The market page and upgrade cards link to /account#plans: the section only exists once the
  // page has loaded, after the browser looked for it.
  useEffect(() => {
    if (location.hash === '#plans' && plans.isSuccess) {
      document.getElementById('plans')?.scrollIntoView({ block: 'start' });
    }
  }, [location.hash, plans.isSuccess]);
  return (
    <section id="plans" className="card stack" aria-labelledby="plans-heading">
      <h2 id="plans-heading">Plans</h2>
      <p className="notice">
        Plans are changed by an administrator of this service: there is no online checkout. To upgrade, ask
        your administrator to move your account to the plan you need; it applies at once.
      </p>
      <PlansTable current={me?.plan} caption="What each plan unlocks; your plan is marked" />
    </section>
  );
}

function AccountPage() {
  return (
    <div className="page account-page">
      <PageHeader title="Account" />
      <Profile />
      <LinkedSignIns />
      <ChangePassword />
      <Plans />
      <ApiKeys />
    </div>
  );
}

export function Component() {
  return (
    <RequireAuth>
      <AccountPage />
    </RequireAuth>
  );
}
