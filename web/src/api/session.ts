/**
 * The browser session as spec/interface.md §5 has it: the app never holds a token. Cookies carry
 * svc_access and svc_refresh (httpOnly); every state change echoes the readable svc_csrf cookie in
 * X-CSRF-Token. On a 401 the access token is refreshed once for every request in the air (one
 * POST /api/auth/refresh however many requests failed together), then each request is retried
 * once. A request that started before a refresh finished is retried without refreshing again:
 * refresh tokens are single use, and a second exchange of a consumed one ends the session.
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
}

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
        if (res.ok) generation += 1;
        else options.onSessionLost?.();
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
    const startedAt = generation;
    const retry = NO_RETRY.test(new URL(request.url).pathname) ? null : request.clone();
    const response = await options.fetch(withCsrf(request));
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
