/**
 * The browser session as spec/interface.md §5 has it: the app never holds a token. Cookies carry
 * svc_access and svc_refresh (httpOnly); every state change echoes the readable svc_csrf cookie in
 * X-CSRF-Token. On a 401 the access token is refreshed once for every request in the air (one
 * POST /api/auth/refresh however many requests failed together), then each request is retried
 * once. A request that started before a refresh finished is retried without refreshing again:
 * refresh tokens are single use, and a second exchange of a consumed one ends the session.
 *
 * Public endpoints (trending, genres) answer a request without svc_access in the anonymous shape
 * rather than 401, so an expired access cookie would quietly downgrade them. The access token's
 * lifetime (`expires_in` of sign-in and refresh, never the token itself) is kept, and a request
 * sent after it ran out refreshes first.
 */

export const CSRF_HEADER = 'X-CSRF-Token';
export const CSRF_COOKIE = 'svc_csrf';
export const REFRESH_PATH = '/api/auth/refresh';
/** Auth endpoints answer 401 for their own reasons (wrong password, consumed refresh token). */
const NO_RETRY = /^\/api\/auth\/(login|register|refresh|logout)$/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function readCookie(cookieHeader: string, name: string): string | undefined {
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

export interface SessionFetchOptions {
  /** The network (window.fetch in the app, a fake in tests). */
  fetch: (request: Request) => Promise<Response>;
  /** The current svc_csrf value (document.cookie in the app). */
  csrfToken: () => string | undefined;
  /** Where refresh is posted: the app's origin + REFRESH_PATH. */
  refreshUrl: string;
  /** Called once per failed refresh (the app sends the user to sign in, back here after). */
  onSessionLost?: () => void;
  /** Milliseconds since the epoch (Date.now in the app; a fake clock in tests). */
  now?: () => number;
}

const SIGN_IN = /^\/api\/auth\/(login|refresh)$/;
/** Refresh this long before the access token runs out (clock skew, time in flight). */
const EARLY_MS = 15_000;

export interface SessionFetch {
  (request: Request): Promise<Response>;
  /** How many refreshes were sent (tests and diagnostics). */
  readonly refreshes: number;
}

export function createSessionFetch(options: SessionFetchOptions): SessionFetch {
  let inFlight: Promise<boolean> | null = null;
  /** Bumped when a refresh succeeds: a request begun under an older generation just retries. */
  let generation = 0;
  let refreshes = 0;
  /** When the access cookie runs out, from the last sign-in or refresh; null when unknown. */
  let expiresAt: number | null = null;
  const now = options.now ?? Date.now;

  /** Notes the access lifetime of a sign-in or refresh reply; forgets it on sign-out. */
  async function observe(path: string, response: Response): Promise<void> {
    if (path === '/api/auth/logout') {
      expiresAt = null;
      return;
    }
    if (!SIGN_IN.test(path) || !response.ok) return;
    try {
      const body = (await response.clone().json()) as { expires_in?: unknown };
      if (typeof body.expires_in === 'number') expiresAt = now() + body.expires_in * 1000;
    } catch {
      // Not JSON: leave the lifetime unknown (a 401 still refreshes).
    }
  }

  function withCsrf(request: Request): Request {
    if (SAFE_METHODS.has(request.method.toUpperCase())) return request;
    const token = options.csrfToken();
    if (!token) return request;
    const headers = new Headers(request.headers);
    headers.set(CSRF_HEADER, token);
    return new Request(request, { headers });
  }

  function refresh(): Promise<boolean> {
    inFlight ??= (async () => {
      refreshes += 1;
      try {
        const res = await options.fetch(
          withCsrf(
            new Request(options.refreshUrl, {
              method: 'POST',
              credentials: 'same-origin',
              headers: { 'content-type': 'application/json' },
              body: '{}',
            }),
          ),
        );
        await observe(new URL(options.refreshUrl).pathname, res);
        if (res.ok) generation += 1;
        else {
          expiresAt = null;
          options.onSessionLost?.();
        }
        return res.ok;
      } catch {
        return false;
      } finally {
        inFlight = null;
      }
    })();
    return inFlight;
  }

  const sessionFetch = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    const auth = NO_RETRY.test(path);
    if (!auth && expiresAt !== null && now() >= expiresAt - EARLY_MS && options.csrfToken()) await refresh();
    const startedAt = generation;
    const retry = auth ? null : request.clone();
    const response = await options.fetch(withCsrf(request));
    if (auth) await observe(path, response);
    if (response.status !== 401 || !retry) return response;
    // No svc_csrf cookie: never signed in here (or signed out), so there is nothing to refresh.
    if (!options.csrfToken()) return response;
    const fresh = generation !== startedAt || (await refresh());
    if (!fresh) return response;
    return options.fetch(withCsrf(retry));
  };
  Object.defineProperty(sessionFetch, 'refreshes', { get: () => refreshes });
  return sessionFetch as SessionFetch;
}
