import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { PlanName } from '../../src/plans.js';
import type { TestApp } from './app.js';

export interface ParsedCookie {
  name: string;
  value: string;
  attributes: Record<string, string | true>;
}

/** Parses Set-Cookie headers into name, value and attributes (lower-cased names). */
export function setCookies(res: LightMyRequestResponse): ParsedCookie[] {
  const raw = res.headers['set-cookie'];
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return list.map((line) => {
    const [pair, ...attrs] = line.split(';').map((p) => p.trim());
    const eq = pair!.indexOf('=');
    const attributes: Record<string, string | true> = {};
    for (const a of attrs) {
      const i = a.indexOf('=');
      if (i === -1) attributes[a.toLowerCase()] = true;
      else attributes[a.slice(0, i).toLowerCase()] = a.slice(i + 1);
    }
    return { name: pair!.slice(0, eq), value: decodeURIComponent(pair!.slice(eq + 1)), attributes };
  });
}

export interface LoggedIn {
  userId: number;
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
  /** Cookie values as the browser would hold them. */
  cookies: { svc_access: string; svc_refresh: string; svc_csrf: string };
}

let counter = 0;

export async function createUser(
  t: TestApp,
  options: { plan?: PlanName; isAdmin?: boolean; email?: string; password?: string } = {},
) {
  counter += 1;
  const email = options.email ?? `user${counter}-${Date.now()}@example.com`;
  const password = options.password ?? `correct horse battery ${counter}`;
  const user = await t.accounts.accounts.createUser({
    email,
    password,
    ...(options.plan ? { plan: options.plan } : {}),
    isAdmin: options.isAdmin ?? false,
  });
  return { ...user, password };
}

export async function login(app: FastifyInstance, email: string, password: string): Promise<LoggedIn> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const jar = Object.fromEntries(setCookies(res).map((c) => [c.name, c.value])) as LoggedIn['cookies'];
  const body = res.json() as { access_token: string; refresh_token: string };
  const me = await app.inject({
    url: '/api/auth/me',
    headers: { authorization: `Bearer ${body.access_token}` },
  });
  return {
    userId: (me.json() as { id: number }).id,
    email,
    password,
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    cookies: jar,
  };
}

/** A user with a plan, signed in. */
export async function signedIn(
  t: TestApp,
  options: { plan?: PlanName; isAdmin?: boolean } = {},
): Promise<LoggedIn> {
  const u = await createUser(t, options);
  return login(t.app, u.email, u.password);
}

export function cookieHeader(cookies: Partial<LoggedIn['cookies']>): string {
  return Object.entries(cookies)
    .map(([k, v]) => `${k}=${encodeURIComponent(v ?? '')}`)
    .join('; ');
}

export function bearer(s: LoggedIn): Record<string, string> {
  return { authorization: `Bearer ${s.accessToken}` };
}
