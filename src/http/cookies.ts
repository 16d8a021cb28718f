/** The three session cookies of spec/interface.md §5 with the attributes of DECISIONS §3. */
import type {} from '@fastify/cookie';
import type { FastifyReply } from 'fastify';

export const ACCESS_COOKIE = 'svc_access';
export const REFRESH_COOKIE = 'svc_refresh';
export const CSRF_COOKIE = 'svc_csrf';
export const REFRESH_COOKIE_PATH = '/api/auth/refresh';

export interface SessionCookies {
  accessToken: string;
  accessTtlSec: number;
  refreshToken: string;
  refreshTtlSec: number;
  csrfToken: string;
}

export function setSessionCookies(reply: FastifyReply, c: SessionCookies, secure: boolean): void {
  const base = { sameSite: 'lax' as const, secure };
  reply.setCookie(ACCESS_COOKIE, c.accessToken, {
    ...base,
    httpOnly: true,
    path: '/',
    maxAge: c.accessTtlSec,
  });
  reply.setCookie(REFRESH_COOKIE, c.refreshToken, {
    ...base,
    httpOnly: true,
    path: REFRESH_COOKIE_PATH,
    maxAge: c.refreshTtlSec,
  });
  // Readable by the web app's scripts (it echoes it in X-CSRF-Token); a session cookie.
  reply.setCookie(CSRF_COOKIE, c.csrfToken, { ...base, httpOnly: false, path: '/' });
}

export function clearSessionCookies(reply: FastifyReply, secure: boolean): void {
  const base = { sameSite: 'lax' as const, secure };
  reply.clearCookie(ACCESS_COOKIE, { ...base, httpOnly: true, path: '/' });
  reply.clearCookie(REFRESH_COOKIE, { ...base, httpOnly: true, path: REFRESH_COOKIE_PATH });
  reply.clearCookie(CSRF_COOKIE, { ...base, path: '/' });
}
