/**
 * The team the app acts in (the team switcher's choice): kept in localStorage per user, and sent
 * as X-Team-Id on every API request by the client (client.ts), so pages never pass it themselves.
 * No choice, or a choice made by another user of this browser, means the personal team (no
 * header). A 404 team_not_found (removed from the team, team deleted) drops the choice.
 */

export const TEAM_HEADER = 'X-Team-Id';
export const TEAM_STORAGE_KEY = 'svc.team';

/** What is stored: whose choice it is, and the team. */
export interface StoredTeam {
  user: number;
  team: number;
}

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function parseStoredTeam(raw: string | null): StoredTeam | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<StoredTeam> | null;
    if (Number.isSafeInteger(v?.user) && Number.isSafeInteger(v?.team) && (v?.team ?? 0) > 0) {
      return { user: v!.user!, team: v!.team! };
    }
  } catch {
    // Not ours, or damaged: no choice.
  }
  return null;
}

/** Routes that never act in a team (and accept, which names its team by the token). */
const NO_TEAM = /^\/api\/(auth\/|team\/(memberships|accept)$|plans$)/;

export interface TeamSelection {
  /** The chosen shared team of the signed-in user, or null for their personal team. */
  teamId(): number | null;
  /** Who is signed in (from GET /api/auth/me); null signed out. */
  setUser(user: number | null): void;
  /** Chooses a team (null: personal) for the signed-in user. */
  select(team: number | null): void;
  /** Called whenever teamId() may have changed. */
  subscribe(listener: () => void): () => void;
  /** The request with X-Team-Id set when a shared team is chosen. */
  withHeader(request: Request): Request;
  /** Drops the choice when the server says the team is not (or no longer) the user's. */
  observe(request: Request, response: Response): Promise<void>;
}

export function createTeamSelection(store: Store | undefined): TeamSelection {
  let user: number | null = null;
  const listeners = new Set<() => void>();
  const read = (): StoredTeam | null => {
    try {
      return parseStoredTeam(store?.getItem(TEAM_STORAGE_KEY) ?? null);
    } catch {
      return null; // storage refused (privacy mode): personal
    }
  };
  let current: number | null = null;
  const recompute = () => {
    const stored = read();
    const next = stored && user !== null && stored.user === user ? stored.team : null;
    if (next === current) return;
    current = next;
    for (const l of listeners) l();
  };
  const select = (team: number | null) => {
    if (user === null) return;
    try {
      if (team === null) store?.removeItem(TEAM_STORAGE_KEY);
      else store?.setItem(TEAM_STORAGE_KEY, JSON.stringify({ user, team } satisfies StoredTeam));
    } catch {
      // Not kept across reloads, still used now.
    }
    if (team === current) return;
    current = team;
    for (const l of listeners) l();
  };
  return {
    teamId: () => current,
    setUser(next) {
      user = next;
      recompute();
    },
    select,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    withHeader(request) {
      if (current === null || request.headers.has(TEAM_HEADER)) return request;
      if (NO_TEAM.test(new URL(request.url).pathname)) return request;
      const headers = new Headers(request.headers);
      headers.set(TEAM_HEADER, String(current));
      return new Request(request, { headers });
    },
    async observe(request, response) {
      if (response.status !== 404 || current === null) return;
      if (request.headers.get(TEAM_HEADER) !== String(current)) return;
      try {
        const body = (await response.clone().json()) as { code?: unknown };
        if (body.code === 'team_not_found') select(null);
      } catch {
        // Not an API error body.
      }
    },
  };
}
