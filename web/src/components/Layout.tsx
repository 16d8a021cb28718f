/** The frame of every page: a skip link, the navigation (a menu button on a phone), the page. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { api, unwrap } from '../api/client';
import { ME_KEY, SessionLostRedirect, useMe } from '../lib/session';
import { UnreadBadge } from '../pages/tracking/UnreadBadge';
import { ErrorState, Loading } from './states';
import { CancelledTeamNotice, TeamSwitcher } from './TeamSwitcher';

const NAV = [
  { to: '/market', label: 'Market' },
  { to: '/genres', label: 'Genres' },
  { to: '/breakout', label: 'Breakout' },
  { to: '/ugc', label: 'UGC' },
  { to: '/updates', label: 'Updates', auth: true },
  { to: '/keywords', label: 'Keywords', auth: true },
  { to: '/intelligence', label: 'Intelligence', auth: true },
  { to: '/tracking', label: 'Tracking', auth: true },
  { to: '/dev-lens', label: 'Dev Lens', auth: true },
  { to: '/sdk', label: 'SDK', auth: true },
  { to: '/team', label: 'Team', auth: true },
] as const;

export function Layout() {
  const me = useMe();
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const signOut = useMutation({
    mutationFn: () => unwrap(api.POST('/api/auth/logout')),
    onSettled: () => {
      client.clear();
      client.setQueryData(ME_KEY, null);
      navigate('/signin', { replace: true });
    },
  });
  const user = me.data;
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <SessionLostRedirect />
      <header className="topbar">
        <Link to="/" className="brand" aria-label="svc home">
          <img src="/favicon.svg" alt="" width="24" height="24" /> svc
        </Link>
        <button
          type="button"
          className="menu-button"
          aria-expanded={open}
          aria-controls="main-nav"
          onClick={() => setOpen((o) => !o)}
        >
          Menu
        </button>
        <nav id="main-nav" className={open ? 'nav open' : 'nav'} aria-label="Main">
          <ul>
            {NAV.filter((n) => !('auth' in n) || user).map((n) => (
              <li key={n.to}>
                <NavLink to={n.to} onClick={() => setOpen(false)}>
                  {n.label}
                  {n.to === '/tracking' ? <UnreadBadge testId="unread-badge-nav" /> : null}
                </NavLink>
              </li>
            ))}
            {user?.is_admin ? (
              <li>
                <NavLink to="/admin" onClick={() => setOpen(false)}>
                  Admin
                </NavLink>
              </li>
            ) : null}
          </ul>
          <div className="nav-user">
            {user ? (
              <>
                <TeamSwitcher onSwitch={() => setOpen(false)} />
                <NavLink to="/account" onClick={() => setOpen(false)} title={user.email}>
                  Account <span className="plan-badge">{user.plan}</span>
                </NavLink>
                <button
                  type="button"
                  className="button ghost"
                  onClick={() => signOut.mutate()}
                  disabled={signOut.isPending}
                >
                  Sign out
                </button>
              </>
            ) : me.isPending ? null : (
              <>
                <NavLink
                  to={`/signin${location.pathname === '/' ? '' : `?next=${encodeURIComponent(location.pathname)}`}`}
                >
                  Sign in
                </NavLink>
                <Link className="button primary" to="/register">
                  Create account
                </Link>
              </>
            )}
          </div>
        </nav>
      </header>
      {user && !user.email_verified ? <VerifyBanner /> : null}
      {user ? <CancelledTeamNotice /> : null}
      <main id="main" tabIndex={-1}>
        {/* Pages wait for the session: a reload after svc_access expired refreshes it first (the
            me request), so public data is never fetched in the anonymous shape by mistake. */}
        {me.isPending ? (
          <Loading label="Loading" />
        ) : (
          <Suspense fallback={<Loading />}>
            <Outlet />
          </Suspense>
        )}
      </main>
      <footer className="footer muted small">
        svc · <a href="/docs">API reference</a> · <a href="/openapi.json">OpenAPI</a>
      </footer>
    </div>
  );
}

/** Shown while the signed-in user's address is unconfirmed: alert e-mails wait for it. */
function VerifyBanner() {
  const resend = useMutation({ mutationFn: () => unwrap(api.POST('/api/auth/verify/resend')) });
  return (
    <div className="notice verify-banner" role="status">
      Confirm your e-mail address with the link we mailed you: until then, alert e-mails are not sent.{' '}
      {resend.isSuccess ? (
        'A new link is on its way.'
      ) : (
        <button
          type="button"
          className="button ghost"
          onClick={() => resend.mutate()}
          disabled={resend.isPending}
        >
          Send the link again
        </button>
      )}
      {resend.error ? <ErrorState error={resend.error} /> : null}
    </div>
  );
}

export function PageHeader({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <div className="page-header">
      <h1>{title}</h1>
      {children ? <div className="page-actions">{children}</div> : null}
    </div>
  );
}
