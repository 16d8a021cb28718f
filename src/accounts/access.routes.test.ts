import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { bearer, createUser, login, signedIn } from '../../test/helpers/auth.js';
import { testEngines } from '../../test/helpers/db.js';
import { fixedClock } from '../clock.js';
import { redisKv } from '../kv/index.js';

/** Stand-in routes with the access rules the market and tracking features declare. */
function standIns(app: TestApp['app']) {
  app.get('/api/test/read', { config: { access: { auth: 'optional' } } }, async (request) => ({
    principal: request.principal.kind,
  }));
  app.post('/api/test/write', { config: { access: { auth: 'user' } } }, async () => ({ ok: true }));
  app.get(
    '/api/test/studio',
    { config: { access: { auth: 'read', plan: 'Studio', feature: 'Dev Lens' } } },
    async () => ({
      ok: true,
    }),
  );
}

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ configure: standIns });
});
afterAll(async () => {
  await t.close();
});

async function createKey(s: Awaited<ReturnType<typeof signedIn>>, scopes: string[]) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/keys',
    headers: bearer(s),
    payload: { name: 'test key', scopes },
  });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    id: number;
    key: string;
    prefix: string;
    scopes: string[];
    name: string;
    created_at: string;
  };
}

describe('API keys', () => {
  it('shows the secret once, lists keys without it, and records last use', async () => {
    const s = await signedIn(t);
    const created = await createKey(s, ['read']);
    expect(created).toEqual({
      id: expect.any(Number),
      name: 'test key',
      scopes: ['read'],
      prefix: created.key.slice(0, 15),
      key: expect.stringMatching(/^svc_live_[A-Za-z0-9_-]{43}$/),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const before = (await t.app.inject({ url: '/api/keys', headers: bearer(s) })).json();
    expect(before).toEqual([
      {
        id: created.id,
        name: 'test key',
        prefix: created.prefix,
        scopes: ['read'],
        created_at: created.created_at,
        last_used_at: null,
      },
    ]);
    expect(JSON.stringify(before)).not.toContain(created.key);
    expect(
      (await t.app.inject({ url: '/api/test/read', headers: { 'x-api-key': created.key } })).json(),
    ).toEqual({
      principal: 'api_key',
    });
    const after = (await t.app.inject({ url: '/api/keys', headers: bearer(s) })).json();
    expect(after[0].last_used_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const stored = await t.testDb.db.query<{ key_hash: string }>(
      'SELECT key_hash FROM api_keys WHERE id = $1',
      [created.id],
    );
    expect(stored.rows[0]!.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.rows[0]!.key_hash).not.toContain(created.key);
  });

  it('refuses a revoked key with 401 and another user’s key id with 404', async () => {
    const s = await signedIn(t);
    const other = await signedIn(t);
    const created = await createKey(s, ['read']);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/keys/${created.id}`, headers: bearer(other) }))
        .statusCode,
    ).toBe(404);
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/api/keys/${created.id}`,
      headers: bearer(s),
    });
    expect(revoked.json()).toEqual({ status: 'revoked' });
    const use = await t.app.inject({ url: '/api/test/read', headers: { 'x-api-key': created.key } });
    expect(use.statusCode).toBe(401);
    expect(use.json()).toEqual({ detail: 'The API key is unknown or revoked.', code: 'api_key_invalid' });
    expect((await t.app.inject({ url: '/api/keys', headers: bearer(s) })).json()).toEqual([]);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/keys/${created.id}`, headers: bearer(s) }))
        .statusCode,
    ).toBe(404);
  });

  it('refuses an ingest-scope key on the read API and a read key on write features', async () => {
    const s = await signedIn(t);
    const ingest = await createKey(s, ['sdk:ingest']);
    const read = await createKey(s, ['read']);
    const onRead = await t.app.inject({ url: '/api/test/read', headers: { 'x-api-key': ingest.key } });
    expect(onRead.statusCode).toBe(403);
    expect(onRead.json().code).toBe('insufficient_scope');
    const telemetry = await createKey(s, ['ingest:telemetry']);
    expect(
      (await t.app.inject({ url: '/api/test/read', headers: { 'x-api-key': telemetry.key } })).json().code,
    ).toBe('insufficient_scope');
    for (const [method, url] of [
      ['POST', '/api/test/write'],
      ['POST', '/api/keys'],
      ['GET', '/api/auth/me'],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: { 'x-api-key': read.key },
        payload: method === 'POST' ? {} : undefined,
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        detail: 'API keys are read-only: sign in to use this endpoint.',
        code: 'api_key_read_only',
      });
    }
    const unknown = await t.app.inject({
      url: '/api/test/read',
      headers: { 'x-api-key': 'svc_live_not-a-real-key' },
    });
    expect(unknown.json().code).toBe('api_key_invalid');
  });

  it('validates the scopes', async () => {
    const s = await signedIn(t);
    for (const scopes of [[], ['admin'], ['read', 'read'], [42]]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/keys',
        headers: bearer(s),
        payload: { name: 'k', scopes },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().field).toMatch(/^body\.scopes/);
    }
  });
});

describe('plan gate and admin', () => {
  it('refuses a lower plan with plan_upgrade_required until an admin upgrades the account', async () => {
    const s = await signedIn(t);
    const admin = await signedIn(t, { isAdmin: true });
    const refused = await t.app.inject({ url: '/api/test/studio', headers: bearer(s) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      detail: 'Dev Lens needs the Studio plan or higher.',
      code: 'plan_upgrade_required',
      required_plan: 'Studio',
    });
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${s.userId}`,
      headers: bearer(admin),
      payload: { plan: 'studio' },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ id: s.userId, plan: 'Studio', subscription_status: 'active' });
    expect((await t.app.inject({ url: '/api/test/studio', headers: bearer(s) })).statusCode).toBe(200);
    const status = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${s.userId}`,
      headers: bearer(admin),
      payload: { subscription_status: 'past_due' },
    });
    expect(status.json()).toMatchObject({ plan: 'Studio', subscription_status: 'past_due' });
  });

  it('lets only administrators change plans, and validates the change', async () => {
    const s = await signedIn(t);
    const admin = await signedIn(t, { isAdmin: true });
    const notAdmin = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${s.userId}`,
      headers: bearer(s),
      payload: { plan: 'Enterprise' },
    });
    expect(notAdmin.statusCode).toBe(403);
    expect(notAdmin.json()).toEqual({
      detail: 'This endpoint is for administrators.',
      code: 'admin_required',
    });
    const bad = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${s.userId}`,
      headers: bearer(admin),
      payload: { plan: 'Gold' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({
      detail: 'body.plan must be one of: Explorer, Builder, Studio, Enterprise',
      code: 'validation_failed',
      field: 'body.plan',
    });
    const empty = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${s.userId}`,
      headers: bearer(admin),
      payload: {},
    });
    expect(empty.statusCode).toBe(422);
    const missing = await t.app.inject({
      method: 'PATCH',
      url: '/api/admin/users/999999',
      headers: bearer(admin),
      payload: { plan: 'Builder' },
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe('login slow-down', () => {
  it('answers 429 with Retry-After after repeated failures, even for the right password, then lets the user in', async () => {
    const clock = fixedClock('2026-06-01T10:00:00Z');
    const app = await buildTestApp({ clock });
    try {
      const u = await createUser(app);
      const attempt = (password: string) =>
        app.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: u.email, password } });
      for (let i = 0; i < 6; i++) expect((await attempt('wrong password!')).statusCode).toBe(401);
      const slowed = await attempt(u.password);
      expect(slowed.statusCode).toBe(429);
      expect(slowed.headers['retry-after']).toBe('1');
      expect(slowed.json()).toEqual({
        detail: 'Too many failed sign-in attempts; wait before trying again.',
        code: 'rate_limited',
      });
      clock.advance(1000);
      expect((await attempt('wrong password!')).statusCode).toBe(401); // 7th failure: 2 s now
      clock.advance(1000);
      expect((await attempt(u.password)).headers['retry-after']).toBe('1');
      clock.advance(1000);
      expect((await attempt(u.password)).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('login slow-down per IP', () => {
  it('slows an address that fails on many accounts, but not other addresses', async () => {
    const clock = fixedClock('2026-06-01T11:00:00Z');
    const app = await buildTestApp({ clock });
    try {
      const victim = await createUser(app);
      const fromIp = (email: string, password: string, remoteAddress: string) =>
        app.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress,
          payload: { email, password },
        });
      for (let i = 0; i < 21; i++) {
        expect((await fromIp(`guess${i}@example.com`, 'wrong password!', '203.0.113.7')).statusCode).toBe(
          401,
        );
      }
      const slowed = await fromIp(victim.email, victim.password, '203.0.113.7');
      expect(slowed.statusCode).toBe(429);
      expect(slowed.headers['retry-after']).toBe('1');
      expect((await fromIp(victim.email, victim.password, '198.51.100.4')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('rate limits', () => {
  const env = {
    ENTITLEMENTS: JSON.stringify({ anonymousRatePerMin: 3, plans: { Explorer: { readRatePerMin: 4 } } }),
  };

  it('limits anonymous callers per IP and users per account, with the rate-limit headers', async () => {
    const clock = fixedClock('2026-06-01T12:00:00Z');
    const app = await buildTestApp({ env, clock, configure: standIns });
    try {
      const first = await app.app.inject({ url: '/api/test/read' });
      expect(first.headers['ratelimit-policy']).toBe('"anonymous";q=3;w=60');
      expect(first.headers.ratelimit).toBe('"anonymous";r=2;t=20');
      await app.app.inject({ url: '/api/test/read' });
      await app.app.inject({ url: '/api/test/read' });
      const over = await app.app.inject({ url: '/api/test/read' });
      expect(over.statusCode).toBe(429);
      expect(over.headers['retry-after']).toBe('20');
      expect(over.headers.ratelimit).toBe('"anonymous";r=0;t=60');
      expect(over.json()).toEqual({ detail: 'Too many requests; slow down.', code: 'rate_limited' });
      expect((await app.app.inject({ url: '/api/test/read', remoteAddress: '10.0.0.9' })).statusCode).toBe(
        200,
      );

      clock.advance(60_000); // the IP bucket refills, so this address can sign in
      const s = await signedIn(app);
      const statuses: number[] = [];
      // signedIn() already spent one of the user's 4 on GET /api/auth/me.
      for (let i = 0; i < 4; i++)
        statuses.push((await app.app.inject({ url: '/api/test/read', headers: bearer(s) })).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
      clock.advance(15_000); // one request back
      expect((await app.app.inject({ url: '/api/test/read', headers: bearer(s) })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it.runIf(process.env.REDIS_URL)('shares one limit across two app instances on Redis', async () => {
    const prefix = `svc-test:${randomUUID()}:`;
    const kvA = await redisKv(process.env.REDIS_URL!, prefix);
    const kvB = await redisKv(process.env.REDIS_URL!, prefix);
    const clock = fixedClock('2026-06-01T12:00:00Z');
    const a = await buildTestApp({ env, clock, kv: kvA, configure: standIns });
    const b = await buildTestApp({ env, clock, kv: kvB, configure: standIns });
    try {
      const statuses = [];
      for (const app of [a, b, a, b])
        statuses.push((await app.app.inject({ url: '/api/test/read' })).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await a.close();
      await b.close();
      await kvA.close();
      await kvB.close();
    }
  });
});

describe.each(testEngines())('concurrent refreshes on %s', (engine) => {
  it('exactly one of two refreshes with the same token succeeds', async () => {
    const app = await buildTestApp({ engine });
    try {
      const u = await createUser(app);
      const s = await login(app.app, u.email, u.password);
      const results = await Promise.all(
        [1, 2].map(() =>
          app.app.inject({
            method: 'POST',
            url: '/api/auth/refresh',
            payload: { refresh_token: s.refreshToken },
          }),
        ),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401]);
      expect(results.find((r) => r.statusCode === 401)!.json().code).toBe('refresh_reused');
    } finally {
      await app.close();
    }
  });
});

describe('logs', () => {
  it('never contain passwords, tokens, CSRF tokens or key secrets', async () => {
    const app = await buildTestApp({ env: { LOG_LEVEL: 'trace' }, configure: standIns });
    try {
      const u = await createUser(app, { password: 'p4ssw0rd-that-must-not-leak' });
      await app.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: u.email, password: 'wrong-but-secret-pw' },
      });
      const s = await login(app.app, u.email, u.password);
      const key = (
        await app.app.inject({
          method: 'POST',
          url: '/api/keys',
          headers: bearer(s),
          payload: { name: 'k', scopes: ['read'] },
        })
      ).json().key as string;
      await app.app.inject({ url: '/api/test/read', headers: { 'x-api-key': key } });
      const refreshed = await app.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refresh_token: s.refreshToken },
      });
      await app.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refresh_token: s.refreshToken },
      });
      const text = app.logs.text;
      expect(app.logs.lines.length).toBeGreaterThan(10);
      for (const secret of [
        u.password,
        'wrong-but-secret-pw',
        s.accessToken,
        s.refreshToken,
        s.cookies.svc_csrf,
        key,
        refreshed.json().access_token,
        refreshed.json().refresh_token,
      ]) {
        expect(text).not.toContain(secret);
      }
      expect(text).not.toContain(u.email);
    } finally {
      await app.close();
    }
  });
});

describe.runIf(process.env.REDIS_URL && process.env.DATABASE_URL)(
  'two processes on PostgreSQL and Redis',
  () => {
    it('agree at once that a logged-out token is dead (token version cache invalidated in Redis)', async () => {
      const { migratedDb } = await import('../../test/helpers/db.js');
      const { openPostgres } = await import('../db/index.js');
      const { buildApp } = await import('../app.js');
      const { loadConfig } = await import('../config.js');
      const { LogCapture, TEST_JWT_SECRET } = await import('../../test/helpers/app.js');
      const { createLogger } = await import('../main.js');
      const { createServices } = await import('../services.js');
      const fresh = await migratedDb('postgres');
      const prefix = `svc-test:${randomUUID()}:`;
      // Each "process" has a pool of its own on the one database.
      const dbA = await openPostgres(fresh.url!, { max: 3 });
      const dbB = await openPostgres(fresh.url!, { max: 3 });
      const kvA = await redisKv(process.env.REDIS_URL!, prefix);
      const kvB = await redisKv(process.env.REDIS_URL!, prefix);
      const clock = fixedClock('2026-06-01T12:00:00Z');
      const config = loadConfig({ LOG_LEVEL: 'silent' });
      const logStream = new LogCapture();
      const deps = { config, clock, jwtSecret: TEST_JWT_SECRET, log: createLogger(config, logStream) };
      const servicesA = createServices({ ...deps, db: dbA, kv: kvA });
      const servicesB = createServices({ ...deps, db: dbB, kv: kvB });
      const a = await buildApp(servicesA, { logStream });
      const b = await buildApp(servicesB, { logStream });
      try {
        const accounts = servicesA.accounts.accounts;
        await accounts.createUser({ email: 'shared@example.com', password: 'shared password 1' });
        const s = await login(a, 'shared@example.com', 'shared password 1');
        expect((await b.inject({ url: '/api/auth/me', headers: bearer(s) })).statusCode).toBe(200); // cached by B now
        expect(
          (await a.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(s) })).statusCode,
        ).toBe(200);
        expect((await b.inject({ url: '/api/auth/me', headers: bearer(s) })).statusCode).toBe(401);
      } finally {
        await a.close();
        await b.close();
        await servicesA.close();
        await servicesB.close();
        await kvA.close();
        await kvB.close();
        await dbA.close();
        await dbB.close();
        await fresh.dispose();
      }
    });
  },
);

describe('the daily refresh-token purge job', () => {
  it('deletes refresh tokens past their expiry and keeps live ones', async () => {
    const { purgeRefreshTokensJob } = await import('../jobs/index.js');
    const s = await signedIn(t);
    const count = async () =>
      (
        await t.testDb.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM refresh_tokens WHERE user_id = $1',
          [s.userId],
        )
      ).rows[0]!.n;
    expect(await count()).toBe(1);
    const job = purgeRefreshTokensJob(t.accounts.accounts);
    expect(job.intervalMs).toBe(86_400_000);
    await job.run(new Date(Date.now() + 29 * 86_400_000), new AbortController().signal);
    expect(await count()).toBe(1);
    await job.run(new Date(Date.now() + 31 * 86_400_000), new AbortController().signal);
    expect(await count()).toBe(0);
  });
});
