/**
 * Who is signed in: GET /api/auth/me through TanStack Query (null when anonymous), plus the plan
 * table of GET /api/plans. `RequireAuth` sends an anonymous visitor to sign in, with `next` set so
 * they come back where they were.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { ApiError, api, onSessionLost, type Schemas, unwrap } from '../api/client';
import { Loading } from '../components/states';

export type Me = Schemas['User'];

export const PLANS_KEY = ['plans'] as const;

/** GET /api/plans: every plan and what it unlocks (changes only with the configuration). */
export function usePlans() {
  return useQuery({
    queryKey: PLANS_KEY,
    queryFn: () => unwrap(api.GET('/api/plans')),
    staleTime: 10 * 60_000,
  });
}

export const ME_KEY = ['auth', 'me'] as const;
export const TRACKED_KEY = ['tracked'] as const;

/**
 * GET /api/track: the games tracked in the team the app acts in (the switcher's X-Team-Id, or the
 * personal team) and the caps of the plan that applies there (inside a shared team, the team's).
 * Only for a signed-in user (`enabled`); a team switch resets it with the other team queries.
 */
export function useTracked(enabled: boolean) {
  return useQuery({ queryKey: TRACKED_KEY, queryFn: () => unwrap(api.GET('/api/track')), enabled });
}

export function useMe() {
  return useQuery({
    queryKey: ME_KEY,
    queryFn: async (): Promise<Me | null> => {
      try {
        return (await unwrap(api.GET('/api/auth/me'))) as Me;
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) return null;
        throw err;
      }
    },
    staleTime: 60_000,
  });
}

export function signInPath(location: { pathname: string; search: string }): string {
  const next = `${location.pathname}${location.search}`;
  return next === '/' || next.startsWith('/signin') ? '/signin' : `/signin?next=${encodeURIComponent(next)}`;
}

/** After a failed refresh, forget the user and go to sign in (then back here). */
export function SessionLostRedirect() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  useEffect(
    () =>
      onSessionLost(() => {
        // Only a session that was there is lost; an anonymous visitor just stays anonymous.
        if (!client.getQueryData(ME_KEY)) return;
        client.setQueryData(ME_KEY, null);
        navigate(signInPath(location), { replace: true });
      }),
    [client, navigate, location],
  );
  return null;
}

export function RequireAuth({ children }: { children: ReactNode }) {
  const me = useMe();
  const location = useLocation();
  if (me.isPending) return <Loading label="Checking your session" />;
  if (!me.data) return <Navigate to={signInPath(location)} replace />;
  return <>{children}</>;
}
