import { describe, expect, it } from 'vitest';
import { createSessionFetch, readCookie } from './session';

const ORIGIN = 'http://app.test';

/**
 * A fake server: the access token is valid while `valid` is true; /api/auth/refresh makes it valid
 * again (unless `refreshWorks` is false), answering expires_in like the real one. Records requests.
 */
function fakeServer(opts: { refreshWorks?: boolean; csrf?: string | undefined; delayMs?: number } = {}) {
  const state = { valid: false, calls: [] as string[], csrfSeen: [] as (string | null)[] };
  const fetch = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    state.calls.push(`${request.method} ${path}`);
    state.csrfSeen.push(request.headers.get('x-csrf-token'));
    await new Promise((r) => setTimeout(r, opts.delayMs ?? 1));
    if (path === '/api/auth/refresh') {
      if (opts.refreshWorks === false)
        return Response.json({ detail: 'no', code: 'refresh_invalid' }, { status: 401 });
      state.valid = true;
      return Response.json({ access_token: 'x', token_type: 'bearer', expires_in: 900 });
    }
    if (path === '/api/auth/login') {
      state.valid = true;
      return Response.json({ access_token: 'x', token_type: 'bearer', expires_in: 900 });
    }
    if (!state.valid) return Response.json({ detail: 'expired', code: 'not_authenticated' }, { status: 401 });
    const body = request.method === 'GET' ? null : await request.text();
    return Response.json({ ok: true, path, body });
  };
  return { state, fetch };
}

function client(
  server: ReturnType<typeof fakeServer>,
  extra: { csrf?: string | null; now?: () => number } = {},
) {
  let lost = 0;
  const f = createSessionFetch({
    fetch: server.fetch,
    csrfToken: () => (extra.csrf === null ? undefined : (extra.csrf ?? 'csrf-1')),
    refreshUrl: `${ORIGIN}/api/auth/refresh`,
    onSessionLost: () => {
      lost += 1;
    },
    ...(extra.now ? { now: extra.now } : {}),
  });
  return { f, lost: () => lost };
}

describe('session fetch', () => {
  it('refreshes once for every request in the air, then retries each once with its body', async () => {
    const server = fakeServer({ delayMs: 5 });
    const { f } = client(server);
    const replies = await Promise.all([
      f(new Request(`${ORIGIN}/api/a`)),
      f(new Request(`${ORIGIN}/api/b`)),
      f(
        new Request(`${ORIGIN}/api/c`, {
          method: 'POST',
          body: '{"x":1}',
          headers: { 'content-type': 'application/json' },
        }),
      ),
    ]);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await replies[2]!.json()).toEqual({ ok: true, path: '/api/c', body: '{"x":1}' });
    expect(server.state.calls.filter((c) => c === 'POST /api/auth/refresh')).toHaveLength(1);
    expect(f.refreshes).toBe(1);
    expect(server.state.calls).toHaveLength(3 + 1 + 3);
  });

  it('echoes the CSRF cookie on state changes only, the refresh included', async () => {
    const server = fakeServer();
    server.state.valid = true;
    const { f } = client(server);
    await f(new Request(`${ORIGIN}/api/a`));
    await f(new Request(`${ORIGIN}/api/b`, { method: 'DELETE' }));
    expect(server.state.csrfSeen).toEqual([null, 'csrf-1']);
    server.state.valid = false;
    await f(new Request(`${ORIGIN}/api/c`));
    expect(server.state.calls.slice(2)).toEqual(['GET /api/c', 'POST /api/auth/refresh', 'GET /api/c']);
    expect(server.state.csrfSeen.slice(2)).toEqual([null, 'csrf-1', null]);
  });

  it('a failed refresh answers the 401, tells the app once, and does not loop', async () => {
    const server = fakeServer({ refreshWorks: false });
    const { f, lost } = client(server);
    const [a, b] = await Promise.all([f(new Request(`${ORIGIN}/api/a`)), f(new Request(`${ORIGIN}/api/b`))]);
    expect([a.status, b.status]).toEqual([401, 401]);
    expect(lost()).toBe(1);
    expect(server.state.calls.filter((c) => c.endsWith('/refresh'))).toHaveLength(1);
  });

  it('never refreshes without a CSRF cookie (no session) nor for the auth endpoints themselves', async () => {
    const server = fakeServer();
    const anonymous = client(server, { csrf: null });
    expect((await anonymous.f(new Request(`${ORIGIN}/api/a`))).status).toBe(401);
    const { f } = client(server);
    const login = await f(new Request(`${ORIGIN}/api/auth/refresh`, { method: 'POST', body: '{}' }));
    expect(login.status).toBe(200);
    expect(server.state.calls).toEqual(['GET /api/a', 'POST /api/auth/refresh']);
  });

  it('refreshes before a request once the access lifetime of the last sign-in ran out', async () => {
    const server = fakeServer();
    let clock = 1_000_000;
    const { f } = client(server, { now: () => clock });
    await f(new Request(`${ORIGIN}/api/auth/login`, { method: 'POST', body: '{}' }));
    await f(new Request(`${ORIGIN}/api/a`));
    expect(f.refreshes).toBe(0);
    // 900 s later the cookie is gone; a public endpoint would answer the anonymous shape, not 401.
    clock += 900_000 - 10_000;
    server.state.valid = false;
    const res = await f(new Request(`${ORIGIN}/api/public`));
    expect(res.status).toBe(200);
    expect(server.state.calls.slice(-2)).toEqual(['POST /api/auth/refresh', 'GET /api/public']);
    expect(f.refreshes).toBe(1);
    // Signed out: no more early refreshes.
    await f(new Request(`${ORIGIN}/api/auth/logout`, { method: 'POST' }));
    clock += 2_000_000;
    await f(new Request(`${ORIGIN}/api/b`));
    expect(f.refreshes).toBe(1 + 0);
  });

  it('reads a cookie by name', () => {
    expect(readCookie('a=1; svc_csrf=abc%3D; b=2', 'svc_csrf')).toBe('abc=');
    expect(readCookie('a=1', 'svc_csrf')).toBeUndefined();
  });
});
