/**
 * Admin (administrators only): every user, searchable by e-mail and paged, with their plan and
 * subscription status changed in place (PATCH /api/admin/users/{id}); and the plan table.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { api, type Schemas, unwrap } from '../../api/client';
import { PageHeader } from '../../components/Layout';
import { Empty, ErrorState, Loading } from '../../components/states';
import { Time } from '../../components/Time';
import { formatInteger } from '../../lib/format';
import { useDebounced } from '../../lib/hooks';
import { ME_KEY, RequireAuth, useMe } from '../../lib/session';
import { PlansTable } from '../account/PlansTable';
import type { PlanName, SubscriptionStatus } from '../account/plan-rows';
import { pageRange } from './paging';

type AdminUser = Schemas['AdminUser'];

const PAGE_SIZE = 25;
const USERS_KEY = ['admin', 'users'] as const;
const PLANS: PlanName[] = ['Explorer', 'Builder', 'Studio', 'Enterprise'];
const STATUSES: { value: SubscriptionStatus; label: string }[] = [
  { value: 'active', label: 'Active' },
  { value: 'trialing', label: 'Trialing' },
  { value: 'past_due', label: 'Past due' },
  { value: 'canceled', label: 'Canceled' },
  { value: 'none', label: 'None' },
];

function Users() {
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), 300);
  // The page belongs to the search it was chosen in: a new search starts at its first page.
  const [paged, setPaged] = useState({ q, offset: 0 });
  const offset = paged.q === q ? paged.offset : 0;
  const setOffset = (next: number) => setPaged({ q, offset: next });
  const users = useQuery({
    queryKey: [...USERS_KEY, q, offset],
    queryFn: () =>
      unwrap(
        api.GET('/api/admin/users', { params: { query: { limit: PAGE_SIZE, offset, ...(q ? { q } : {}) } } }),
      ),
    placeholderData: keepPreviousData,
  });
  const range = users.data ? pageRange(offset, users.data.users.length, users.data.total) : null;
  return (
    <section className="card stack" aria-labelledby="users-heading">
      <div className="admin-users-head">
        <h2 id="users-heading">Users</h2>
        <label className="admin-search">
          Search by e-mail
          <input
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="part of an e-mail"
            data-testid="admin-search"
            autoComplete="off"
          />
        </label>
      </div>
      <p className="muted small">
        A plan changed without a status becomes active (none for Explorer). Canceled accounts, and past-due
        ones after 7 days, get Explorer features while keeping their plan.
      </p>
      {users.isPending ? (
        <Loading label="Loading users" />
      ) : users.error ? (
        <ErrorState error={users.error} retry={() => void users.refetch()} />
      ) : users.data.users.length === 0 && offset > 0 ? (
        <Empty title="This page is past the last user.">
          <button type="button" className="button" onClick={() => setOffset(0)}>
            Back to the first page
          </button>
        </Empty>
      ) : users.data.users.length === 0 ? (
        <Empty title={q ? `No user’s e-mail contains “${q}”.` : 'No users yet.'}>
          {q ? 'Try a shorter part of the address.' : null}
        </Empty>
      ) : (
        <>
          <UsersTable users={users.data.users} busy={users.isFetching} />
          <nav className="pager" aria-label="User pages">
            <span className="muted" aria-live="polite">
              {range
                ? `${formatInteger(range.first)}–${formatInteger(range.last)} of ${formatInteger(users.data.total)}`
                : null}
            </span>
            <button
              type="button"
              className="button"
              disabled={offset === 0 || users.isFetching}
              onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
            >
              Previous
            </button>
            <button
              type="button"
              className="button"
              disabled={!range?.hasNext || users.isFetching}
              onClick={() => setOffset(offset + PAGE_SIZE)}
            >
              Next
            </button>
          </nav>
        </>
      )}
    </section>
  );
}

function UsersTable({ users, busy }: { users: AdminUser[]; busy: boolean }) {
  return (
    <div className="table-scroll">
      <table className="data-table admin-users" data-testid="admin-users-table" aria-busy={busy}>
        <caption className="sr-only">Users, newest first</caption>
        <thead>
          <tr>
            <th scope="col">E-mail</th>
            <th scope="col">Joined</th>
            <th scope="col">Plan</th>
            <th scope="col">Subscription</th>
            <th scope="col">
              <span className="sr-only">Save</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <UserRow key={u.id} user={u} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function UserRow({ user }: { user: AdminUser }) {
  const client = useQueryClient();
  const me = useMe().data;
  const id = useId();
  // What the server holds, and what the selects show.
  const [base, setBase] = useState({ plan: user.plan, status: user.subscription_status });
  const [plan, setPlan] = useState<PlanName>(user.plan);
  const [status, setStatus] = useState<SubscriptionStatus>(user.subscription_status);
  const [saved, setSaved] = useState(false);
  // The list was refetched (another page, another admin's change): show what the server has.
  useEffect(() => {
    setBase({ plan: user.plan, status: user.subscription_status });
    setPlan(user.plan);
    setStatus(user.subscription_status);
  }, [user.plan, user.subscription_status]);
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH('/api/admin/users/{id}', {
          params: { path: { id: user.id } },
          body: {
            ...(plan !== base.plan ? { plan } : {}),
            ...(status !== base.status ? { subscription_status: status } : {}),
          },
        }),
      ),
    onSuccess: (updated) => {
      // A plan changed alone also sets the status (active, or none for Explorer): show the result.
      setBase({ plan: updated.plan, status: updated.subscription_status });
      setPlan(updated.plan);
      setStatus(updated.subscription_status);
      setSaved(true);
      void client.invalidateQueries({ queryKey: USERS_KEY });
      if (updated.id === me?.id) void client.invalidateQueries({ queryKey: ME_KEY });
    },
  });
  const dirty = plan !== base.plan || status !== base.status;
  const edit = () => {
    setSaved(false);
    save.reset();
  };
  return (
    <tr data-user-id={user.id}>
      <td>
        {user.email}
        {user.is_admin ? <span className="badge admin-badge">admin</span> : null}
      </td>
      <td>
        <Time at={user.created_at} />
      </td>
      <td>
        <select
          aria-label={`Plan of ${user.email}`}
          value={plan}
          onChange={(e) => {
            setPlan(e.target.value as PlanName);
            edit();
          }}
        >
          {PLANS.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </td>
      <td>
        <select
          aria-label={`Subscription status of ${user.email}`}
          value={status}
          onChange={(e) => {
            setStatus(e.target.value as SubscriptionStatus);
            edit();
          }}
        >
          {STATUSES.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </td>
      <td>
        <div className="admin-save">
          <button
            type="button"
            className="button primary"
            disabled={!dirty || save.isPending}
            onClick={() => save.mutate()}
            aria-describedby={`${id}-result`}
            aria-label={`Save changes for ${user.email}`}
          >
            {save.isPending ? 'Saving…' : 'Save'}
          </button>
          <span id={`${id}-result`} className="small save-result" role="status">
            {save.error ? (
              <span className="bad">Not saved: {save.error.message}</span>
            ) : saved ? (
              <span className="good">Saved</span>
            ) : null}
          </span>
        </div>
      </td>
    </tr>
  );
}

function AdminPage() {
  const me = useMe().data;
  if (!me?.is_admin) {
    return (
      <div className="page">
        <PageHeader title="Admin" />
        <div className="state state-empty" data-testid="admin-only">
          <p className="state-title">Admins only</p>
          <p className="state-body">
            This page is for administrators of this service. To change your plan, ask one of them; see what
            each plan unlocks on your <Link to="/account#plans">account page</Link>.
          </p>
        </div>
      </div>
    );
  }
  return (
    <div className="page admin-page">
      <PageHeader title="Admin" />
      <Users />
      <PlansSection />
    </div>
  );
}

function PlansSection() {
  const headingId = useId();
  return (
    <section className="card stack" aria-labelledby={headingId}>
      <h2 id={headingId}>Plans</h2>
      <p className="muted">
        What each plan unlocks on this server, configuration overrides (ENTITLEMENTS) included. Move a user to
        a plan in the table above.
      </p>
      <PlansTable caption="What each plan unlocks" />
    </section>
  );
}

export function Component() {
  return (
    <RequireAuth>
      <AdminPage />
    </RequireAuth>
  );
}
