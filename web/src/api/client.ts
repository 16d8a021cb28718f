/**
 * The typed API client: openapi-fetch over the paths generated from the server's /openapi.json
 * (schema.d.ts), sending through the session fetch (cookies, CSRF, refresh single flight).
 * `unwrap` turns an error reply into an ApiError carrying the API's {detail, code}. Every request
 * carries the team switcher's choice as X-Team-Id (team.ts), added here and nowhere else.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './schema';
import { CSRF_COOKIE, createSessionFetch, REFRESH_PATH, readCookie } from './session';
import { createTeamSelection } from './team';

export type { components, paths };
export type Schemas = components['schemas'];

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly code: string,
    readonly requiredPlan?: string,
  ) {
    super(detail);
  }
}

type Listener = () => void;
const sessionLostListeners = new Set<Listener>();
export function onSessionLost(listener: Listener): () => void {
  sessionLostListeners.add(listener);
  return () => sessionLostListeners.delete(listener);
}

const origin = typeof window === 'undefined' ? 'http://localhost' : window.location.origin;

function browserStorage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined; // storage disabled: the choice lasts until the page is reloaded
  }
}

/** The team the app acts in; lib/team.tsx keeps it in step with the signed-in user. */
export const teamSelection = createTeamSelection(browserStorage());

export const sessionFetch = createSessionFetch({
  fetch: async (request) => {
    const sent = teamSelection.withHeader(request);
    const response = await fetch(sent);
    await teamSelection.observe(sent, response);
    return response;
  },
  csrfToken: () => (typeof document === 'undefined' ? undefined : readCookie(document.cookie, CSRF_COOKIE)),
  refreshUrl: `${origin}${REFRESH_PATH}`,
  onSessionLost: () => {
    for (const listener of sessionLostListeners) listener();
  },
});

export const api = createClient<paths>({ baseUrl: origin, fetch: sessionFetch, credentials: 'same-origin' });

interface ErrorLike {
  detail?: unknown;
  code?: unknown;
  required_plan?: unknown;
}

export function toApiError(status: number, body: unknown): ApiError {
  const e = (body ?? {}) as ErrorLike;
  return new ApiError(
    status,
    typeof e.detail === 'string' ? e.detail : `The server answered ${status}.`,
    typeof e.code === 'string' ? e.code : 'http_error',
    typeof e.required_plan === 'string' ? e.required_plan : undefined,
  );
}

/** The data of a successful reply, or throws ApiError with the API's detail. */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<NonNullable<T>> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch {
    throw new ApiError(0, 'The server could not be reached. Check your connection and try again.', 'network');
  }
  if (!result.response.ok) throw toApiError(result.response.status, result.error);
  return result.data as NonNullable<T>;
}
