/**
 * The success-patterns page end to end: the real server with its embedded defaults (simulated
 * market backfilled 35 days on start, demo accounts), the built app, headless Chromium. 35 days of
 * history are too few for the 30-day comparison (it needs two windows of 24+ days with readings), so
 * the default view explains why and the 7-day one shows the comparison.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2e, seriousViolations, settle, startE2e } from '../helpers/web.js';

let e: E2e;

beforeAll(async () => {
  e = await startE2e();
}, 300_000);

afterAll(async () => {
  await e?.close();
});

describe('success patterns page', () => {
  it('shows Studio the comparison with its forest plot and table, and Explorer the Builder upsell', async () => {
    const { page } = await e.newPage();
    // Uncaught errors of the page's code. The helpers' string predicates (settle's waitForFunction)
    // are refused by the page's CSP (no unsafe-eval) and surface here too: they are not the page's.
    const errors: string[] = [];
    page.on('pageerror', (err) => {
      if (!err.message.includes("'unsafe-eval'")) errors.push(err.message);
    });
    await e.signIn(page, 'studio@demo.test');
    await page.goto('/intelligence/patterns');
    await page.getByRole('heading', { level: 1, name: 'Success patterns' }).waitFor();
    await settle(page);
    // 30 days (the default) over a 35-day history: nobody qualifies, and the page says why.
    await page.getByText('Not enough games to compare.').waitFor({ timeout: 20_000 });
    expect(await page.getByText(/patterns need at least 20\./).count()).toBe(1);

    await page.getByLabel('Period').selectOption('7d');
    await page.getByTestId('patterns-table').locator('tbody tr').first().waitFor({ timeout: 30_000 });
    await settle(page);
    expect(await page.getByTestId('patterns-summary').innerText()).toMatch(
      /^[\d,]+ of [\d,]+ games with readings qualify; the top quartile \([\d,]+ games, growth ≥ [+−-]?[\d.]+%\)/,
    );
    await page
      .locator('[data-testid="patterns-forest"][data-drawn="true"]')
      .waitFor({ timeout: 20_000 })
      .catch(() => {
        throw new Error(`the forest plot was not drawn; page errors: ${errors.join(' | ') || 'none'}`);
      });
    // Ten numeric features at least (title keywords come on top of them).
    expect(await page.getByTestId('patterns-table').locator('tbody tr').count()).toBeGreaterThanOrEqual(10);
    // Either patterns in words, or the statement that none separates the groups.
    const found = await page.getByTestId('patterns-list').locator('li').count();
    const none = await page.getByTestId('no-patterns').count();
    expect(found > 0 || none === 1).toBe(true);
    if (found > 0) {
      expect(await page.getByTestId('patterns-list').locator('li').first().innerText()).toMatch(
        /^(The fastest-growing games |“)/,
      );
    }
    await page.getByLabel('Genre').selectOption({ index: 1 });
    await settle(page);
    expect(await page.getByText('How this is computed').count()).toBe(1);
    expect(errors).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);

    const explorer = await e.newPage();
    await e.signIn(explorer.page, 'explorer@demo.test');
    await explorer.page.goto('/intelligence/patterns');
    await explorer.page.getByTestId('patterns-upgrade').waitFor({ timeout: 20_000 });
    expect(await explorer.page.getByTestId('patterns-upgrade').innerText()).toContain(
      'Success patterns is part of the Builder plan',
    );
  }, 120_000);
});
