/**
 * The team switcher's state in React: the chosen team (api/team.ts keeps it and sends it as
 * X-Team-Id), the user's memberships, and the chosen team's detail. Choosing another team resets
 * every query but the session's, so each page reloads its data in the new team.
 */
import { type QueryClient, type QueryKey, useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { api, type Schemas, teamSelection, unwrap } from '../api/client';
import { TEAM_STORAGE_KEY } from '../api/team';
import { ME_KEY, type Me, PLANS_KEY, useMe } from './session';

export type Membership = Schemas['TeamMembership'];
export type Team = Schemas['Team'];
export type Permission = Team['your_permissions'][number];

export const MEMBERSHIPS_KEY = ['team', 'memberships'] as const;
/** GET /api/team of one team: [...TEAM_KEY, team id or 'personal']. */
export const TEAM_KEY = ['team', 'detail'] as const;

const sameKey = (a: QueryKey, b: readonly unknown[]) =>
  a.length === b.length && a.every((part, i) => part === b[i]);

/** Queries that do not depend on the team: the session, the plan table, the memberships. */
function teamIndependent(key: QueryKey): boolean {
  return key[0] === 'auth' || sameKey(key, PLANS_KEY) || sameKey(key, MEMBERSHIPS_KEY);
}

/**
 * Keeps the selection in step with who is signed in (a choice belongs to its user) and resets the
 * team's data when the choice changes. Called once, where the QueryClient is made.
 */
export function bindTeamSelection(client: QueryClient): () => void {
  let user: number | null = null;
  const follow = (me: Me | null | undefined) => {
    const next = me?.id ?? null;
    if (next === user) return;
    user = next;
    teamSelection.setUser(next);
  };
  follow(client.getQueryData<Me | null>(ME_KEY));
  const offCache = client.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' || event.type === 'removed' || event.type === 'added') {
      if (sameKey(event.query.queryKey, ME_KEY)) {
        follow(event.type === 'removed' ? null : (event.query.state.data as Me | null | undefined));
      }
    }
  });
  const offSelection = teamSelection.subscribe(() => {
    void client.resetQueries({ predicate: (q) => !teamIndependent(q.queryKey) });
    void client.invalidateQueries({ queryKey: MEMBERSHIPS_KEY });
  });
  // Another tab chose a team: follow it.
  const onStorage = (e: StorageEvent) => {
    if (e.key === TEAM_STORAGE_KEY || e.key === null) teamSelection.setUser(user);
  };
  window.addEventListener('storage', onStorage);
  return () => {
    offCache();
    offSelection();
    window.removeEventListener('storage', onStorage);
  };
}

/** The chosen shared team's id, or null for the personal team. */
export function useTeamId(): number | null {
  return useSyncExternalStore(teamSelection.subscribe, teamSelection.teamId, () => null);
}

let selectedAt = 0;

export function selectTeam(team: number | null): void {
  selectedAt = Date.now();
  teamSelection.select(team);
}

/**
 * Whether the memberships show that the chosen team is no longer the user's (removed, deleted):
 * judged only on a list fetched after the choice, so a team just created or joined is not dropped
 * by the list from before it.
 */
export function choiceGone(
  teamId: number | null,
  memberships: { data?: { teams: Membership[] }; dataUpdatedAt: number; isFetching: boolean },
): boolean {
  if (teamId === null || !memberships.data || memberships.isFetching) return false;
  if (memberships.dataUpdatedAt < selectedAt) return false;
  return !memberships.data.teams.some((t) => t.id === teamId && !t.personal);
}

/** GET /api/team/memberships: every team the user is in, personal first (signed in only). */
export function useMemberships() {
  const me = useMe();
  return useQuery({
    queryKey: MEMBERSHIPS_KEY,
    queryFn: () => unwrap(api.GET('/api/team/memberships')),
    enabled: Boolean(me.data),
  });
}

/** The chosen team's membership row (undefined for the personal team or while loading). */
export function useCurrentMembership(): Membership | undefined {
  const teamId = useTeamId();
  const memberships = useMemberships();
  return teamId === null ? undefined : memberships.data?.teams.find((t) => t.id === teamId);
}

export function teamKey(teamId: number | null): QueryKey {
  return [...TEAM_KEY, teamId ?? 'personal'];
}

/** GET /api/team in the chosen team (the client sends X-Team-Id). */
export function useTeam(enabled = true) {
  const teamId = useTeamId();
  return useQuery({
    queryKey: teamKey(teamId),
    queryFn: () => unwrap(api.GET('/api/team')),
    enabled,
  });
}

export function can(team: Pick<Team, 'your_permissions'> | undefined, permission: Permission): boolean {
  return team?.your_permissions.includes(permission) ?? false;
}
