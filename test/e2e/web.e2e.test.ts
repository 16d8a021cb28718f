/**
 * The web app end to end: the real server with its embedded defaults (fresh data dir, simulated
 * market, demo accounts) and the built app, driven in headless Chromium.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2e, startE2e } from '../helpers/web.js';

let e: E2e;

beforeAll(async () => {
  e = await startE2e();
}, 180_000);

afterAll(async () => {
  await e?.close();
});

const visible = (page: Page, selector: string, timeout = 15_000) =>
  page.locator(selector).first().waitFor({ timeout });

async function signInThroughForm(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('web app', () => {
  it('serves the app at / and on its pages, while the API keeps its JSON 404', async () => {
    const root = await fetch(`${e.url}/`);
    expect(root.status).toBe(200);
    expect(root.headers.get('content-type')).toContain('text/html');
    expect(root.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await root.text();
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    expect((await fetch(`${e.url}/games/123`)).status).toBe(200);
    const api = await fetch(`${e.url}/api/nope`);
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ detail: 'No route matches GET /api/nope.', code: 'not_found' });
    expect((await fetch(`${e.url}/assets/missing.js`)).status).toBe(404);
  });

  it('registers, signs in, reads trending, opens a game, sees the forecast once upgraded, tracks it', async () => {
    const { page } = await e.newPage();
    const email = `creator-${Date.now()}@example.com`;
    const password = 'correct horse battery';
    await page.goto('/register');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/market');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/signin');
    await signInThroughForm(page, email, password);
    await page.waitForURL('**/market');

    // Trending: 20 rows for an Explorer, with the cap stated.
    await visible(page, '[data-testid="trending-table"] tbody tr');
    expect(await page.locator('[data-testid="trending-table"] tbody tr').count()).toBe(20);
    expect(await page.getByTestId('plan-cap').innerText()).toMatch(
      /^Explorer sees the top 20 of [\d,]+ games — upgrade for more\./,
    );
    expect(await page.locator('[data-testid="trending-table"] svg.sparkline').count()).toBe(20);

    // Open the first game: an Explorer gets the upgrade card where the forecast would be.
    const first = page.locator('[data-testid="trending-table"] tbody tr a').first();
    const name = await first.innerText();
    await first.click();
    await page.waitForURL(/\/games\/\d+$/);
    await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
    await visible(page, '[data-testid="forecast-upgrade"]');
    expect(await page.getByTestId('forecast-upgrade').innerText()).toContain(
      'The CCU forecast is part of the Builder plan',
    );
    await visible(page, '[data-testid="ccu-chart"][data-drawn="true"]');

    // An admin upgrades the account to Studio; the same page now draws the 30-day forecast and its band.
    const me = await (await page.request.get('/api/auth/me')).json();
    const { page: admin } = await e.newPage();
    await e.signIn(admin, 'enterprise@demo.test');
    const csrf = (await admin.context().cookies()).find((c) => c.name === 'svc_csrf')!.value;
    const patched = await admin.request.patch(`/api/admin/users/${me.id}`, {
      data: { plan: 'Studio', subscription_status: 'active' },
      headers: { 'x-csrf-token': csrf, origin: e.url },
    });
    expect(patched.status()).toBe(200);
    await page.reload();
    await visible(page, '[data-testid="forecast-note"]');
    expect(await page.getByTestId('forecast-note').innerText()).toMatch(
      /^Forecast: 30 days ahead, with the 80% prediction interval\./,
    );
    expect(await page.getByTestId('forecast-upgrade').count()).toBe(0);
    await visible(page, '[data-testid="ccu-chart"][data-drawn="true"]');

    // Track it: the cap is stated.
    await page.getByTestId('track-button').click();
    await page.getByText('1 of 100 tracked').waitFor();
    expect(await page.getByTestId('track-button').innerText()).toBe('Untrack');

    // Sign out: a page that needs an account sends the visitor to sign in, and back after.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/signin');
    await page.goto('/tracking');
    await page.waitForURL('**/signin?next=%2Ftracking');
    await signInThroughForm(page, email, password);
    await page.waitForURL('**/tracking');
  }, 120_000);

  it('refreshes an expired access cookie silently, once for every request in the air', async () => {
    const { context, page } = await e.newPage();
    await page.goto('/signin');
    await signInThroughForm(page, 'studio@demo.test', e.demoPassword);
    await page.waitForURL('**/market');
    const before = await context.cookies();
    expect(before.map((c) => c.name).sort()).toEqual(['svc_access', 'svc_csrf', 'svc_refresh']);
    // The browser drops svc_access when its max-age runs out: do the same.
    await context.clearCookies({ name: 'svc_access' });
    const refreshes: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/auth/refresh')) refreshes.push(r.method());
    });
    await page.goto('/market');
    await visible(page, '[data-testid="trending-table"] tbody tr');
    // Signed in still (the account link, no sign-in redirect), Studio's uncapped table, one refresh.
    await page.getByRole('link', { name: /Account/ }).waitFor();
    expect(page.url()).toBe(`${e.url}/market`);
    expect(await page.getByTestId('plan-cap').count()).toBe(0);
    expect(refreshes).toEqual(['POST']);
    const after = await context.cookies();
    expect(after.find((c) => c.name === 'svc_access')?.value).toBeTruthy();
    expect(after.find((c) => c.name === 'svc_refresh')?.value).not.toBe(
      before.find((c) => c.name === 'svc_refresh')?.value,
    );
  });

  it('refuses a state change without the CSRF header, and accepts it with the header', async () => {
    const { page } = await e.newPage();
    await e.signIn(page, 'builder@demo.test');
    await page.goto('/market');
    await visible(page, '[data-testid="trending-table"] tbody tr');
    const universe = await (await page.request.get('/api/trending?limit=1'))
      .json()
      .then((t) => t.games[0].universe_id);
    const results = (await page.evaluate(`(async () => {
      const bare = await fetch('/api/track/${universe}', { method: 'POST' });
      const token = document.cookie.split('; ').find((c) => c.startsWith('svc_csrf=')).slice(9);
      const echoed = await fetch('/api/track/${universe}', { method: 'POST', headers: { 'X-CSRF-Token': decodeURIComponent(token) } });
      return [bare.status, await bare.json(), echoed.status];
    })()`)) as [number, { code: string }, number];
    expect(results[0]).toBe(403);
    expect(results[1].code).toBe('csrf_invalid');
    expect(results[2]).toBe(200);
  });
});
