import { describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { bearer, createUser, login, signedIn } from '../../test/helpers/auth.js';
import { testEngines } from '../../test/helpers/db.js';
import { fixedClock } from '../clock.js';
import type { Engine } from '../db/index.js';
import { memoryKv } from '../kv/index.js';
import type { SubscriptionStatus } from '../plans.js';

const DAY_MS = 86_400_000;
const STUDIO_ONLY = {
  detail: 'Dev Lens needs the Studio plan or higher.',
  code: 'plan_upgrade_required',
  required_plan: 'Studio',
};

async function appAt(start: string, engine: Engine = 'pglite') {
  const clock = fixedClock(start);
  const kv = memoryKv(() => clock.now().getTime());
  const t = await buildTestApp({ clock, kv, engine });
  return { t, clock, kv };
}

/** A Studio user whose status an administrator then sets to `status` (at the app's current time). */
async function studioUser(t: TestApp, status: SubscriptionStatus) {
  const admin = await signedIn(t, { isAdmin: true });
  const u = await createUser(t, { plan: 'Studio' });
  const patched = await t.app.inject({
    method: 'PATCH',
    url: `/api/admin/users/${u.id}`,
    headers: bearer(admin),
    payload: { subscription_status: status },
  });
  expect(patched.statusCode).toBe(200);
  expect(patched.json()).toMatchObject({ plan: 'Studio', subscription_status: status });
  return u;
}

/** A Studio-only endpoint, with a fresh sign-in (access tokens live 15 minutes). */
async function devLensReports(t: TestApp, u: { email: string; password: string }) {
  const s = await login(t.app, u.email, u.password);
  const res = await t.app.inject({ url: '/api/dev-lens/reports', headers: bearer(s) });
  return { status: res.statusCode, body: res.json() as unknown };
}

describe('entitlements follow the subscription status', () => {
  it('gives a canceled Studio account the Explorer entitlements, while /me keeps its plan', async () => {
    const { t, kv } = await appAt('2026-06-01T10:00:00Z');
    try {
      const u = await studioUser(t, 'canceled');
      expect(await devLensReports(t, u)).toEqual({ status: 403, body: STUDIO_ONLY });
      const s = await login(t.app, u.email, u.password);
      const me = await t.app.inject({ url: '/api/auth/me', headers: bearer(s) });
      expect(me.json()).toMatchObject({ plan: 'Studio', subscription_status: 'canceled' });
      // Its API keys get the Explorer shape too (forecasts need Builder).
      const key = await t.app.inject({
        method: 'POST',
        url: '/api/keys',
        headers: bearer(s),
        payload: { name: 'k', scopes: ['read'] },
      });
      const forecast = await t.app.inject({
        url: '/api/forecast/1',
        headers: { 'x-api-key': (key.json() as { key: string }).key },
      });
      expect(forecast.statusCode).toBe(403);
      expect(forecast.json()).toMatchObject({ code: 'plan_upgrade_required', required_plan: 'Builder' });
    } finally {
      await t.close();
      await kv.close();
    }
  });

  it('keeps a trialing or active account on its plan', async () => {
    const { t, kv } = await appAt('2026-06-01T10:00:00Z');
    try {
      for (const status of ['trialing', 'active'] as const) {
        const u = await studioUser(t, status);
        expect(await devLensReports(t, u)).toEqual({ status: 200, body: { reports: [] } });
      }
    } finally {
      await t.close();
      await kv.close();
    }
  });

  it.each(testEngines())(
    'keeps a past_due account on its plan for 7 days after the status changed, then Explorer (%s)',
    async (engine) => {
      const { t, clock, kv } = await appAt('2026-06-01T10:00:00Z', engine);
      try {
        const u = await studioUser(t, 'past_due');
        clock.advance(6 * DAY_MS);
        expect(await devLensReports(t, u)).toEqual({ status: 200, body: { reports: [] } });
        clock.advance(2 * DAY_MS);
        expect(await devLensReports(t, u)).toEqual({ status: 403, body: STUDIO_ONLY });
        // Setting past_due again does not restart the grace period; paying (active) restores the plan.
        const admin = await signedIn(t, { isAdmin: true });
        const patch = (subscription_status: SubscriptionStatus) =>
          t.app.inject({
            method: 'PATCH',
            url: `/api/admin/users/${u.id}`,
            headers: bearer(admin),
            payload: { subscription_status },
          });
        expect((await patch('past_due')).statusCode).toBe(200);
        expect((await devLensReports(t, u)).status).toBe(403);
        expect((await patch('active')).statusCode).toBe(200);
        expect((await devLensReports(t, u)).status).toBe(200);
      } finally {
        await t.close();
        await kv.close();
      }
    },
  );
});
