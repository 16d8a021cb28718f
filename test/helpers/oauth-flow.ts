/**
 * Drives a third-party sign-in the way a browser does, by hand: GET /start on the app (inject),
 * then the provider's authorize URL and every redirect it answers over real HTTP with a cookie jar
 * for the provider (its login interaction included), until the provider redirects to the app's
 * callback; then GET the callback on the app with the flow cookie.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { setCookies } from './auth.js';

export interface ProviderHop {
  /** The callback URL the provider sent the browser to (code, state, iss …). */
  callback: URL;
  /** The svc_oauth cookie /start (or /link) set. */
  flowCookie: string;
}

/** Follows the provider's redirects (max 10) until one points under `publicUrl`. */
export async function throughProvider(authorizeUrl: URL, publicUrl: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = authorizeUrl;
  for (let hop = 0; hop < 10; hop += 1) {
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
    await res.arrayBuffer();
    const location = res.headers.get('location');
    if (!location) throw new Error(`the provider answered ${res.status} without a redirect at ${url.href}`);
    const next = new URL(location, url);
    if (next.href.startsWith(publicUrl)) return next;
    url = next;
  }
  throw new Error('too many redirects at the provider');
}

export function flowCookieOf(res: LightMyRequestResponse): string {
  const cookie = setCookies(res).find((c) => c.name === 'svc_oauth');
  if (!cookie) throw new Error(`no svc_oauth cookie (status ${res.statusCode}: ${res.body})`);
  return cookie.value;
}

/**
 * /start, then the provider; `tamper` may change the authorize URL first (a wrong nonce).
 * Returns the callback URL and the flow cookie, without calling the callback.
 */
export async function startAndAuthorize(
  app: FastifyInstance,
  provider: string,
  publicUrl: string,
  options: { returnTo?: string; tamper?: (authorize: URL) => void } = {},
): Promise<ProviderHop> {
  const start = await app.inject({
    url: `/api/auth/oauth/${provider}/start`,
    query: options.returnTo ? { return_to: options.returnTo } : {},
  });
  if (start.statusCode !== 302) throw new Error(`start answered ${start.statusCode}: ${start.body}`);
  const authorize = new URL(String(start.headers.location));
  options.tamper?.(authorize);
  return { callback: await throughProvider(authorize, publicUrl), flowCookie: flowCookieOf(start) };
}

/** GET the callback on the app as the browser would (or as a JSON client with `json`). */
export function callback(
  app: FastifyInstance,
  hop: ProviderHop,
  options: { json?: boolean; cookies?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  const cookies = { svc_oauth: hop.flowCookie, ...options.cookies };
  return app.inject({
    url: `${hop.callback.pathname}${hop.callback.search}`,
    headers: {
      cookie: Object.entries(cookies)
        .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
        .join('; '),
      ...(options.json ? { accept: 'application/json' } : { accept: 'text/html' }),
    },
  });
}
