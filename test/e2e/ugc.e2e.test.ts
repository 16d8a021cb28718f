/**
 * The UGC catalog pages end to end, without signing in: the real server with its embedded
 * defaults (the simulated catalog backfilled on start), the built app, headless Chromium.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2e, settle, startE2e } from '../helpers/web.js';

let e: E2e;

/** Polls until the catalog's first collection (its backfill) has stored the trends. */
async function catalogCollected(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${url}/api/ugc/trends`).catch(() => undefined);
    if (res?.status === 200 && ((await res.json()) as { computed_at: string | null }).computed_at) return;
    if (Date.now() > until) throw new Error(`the UGC catalog was not collected within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

beforeAll(async () => {
  e = await startE2e();
  await catalogCollected(e.url, 120_000);
}, 300_000);

afterAll(async () => {
  await e?.close();
});

const rows = (page: Page) => page.locator('[data-testid="ugc-items-table"] tbody tr');

describe('UGC catalog pages', () => {
  it('lists, filters, sorts and pages the catalog, shows what is rising, and opens an item with its chart', async () => {
    const { page } = await e.newPage();
    await page.goto('/ugc');
    await rows(page).first().waitFor({ timeout: 20_000 });
    await settle(page);
    expect(await rows(page).count()).toBe(25);
    expect(await page.getByTestId('ugc-category-chart').getAttribute('data-drawn')).toBe('true');
    expect(await page.getByTestId('ugc-creators').locator('li').count()).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'More items' }).click();
    await rows(page).nth(25).waitFor();
    expect(await rows(page).count()).toBe(50);

    await page.getByLabel('Category').selectOption('hat');
    await page.getByLabel('Sort by').selectOption('price');
    await settle(page);
    const categories = await rows(page).locator('td:nth-child(2)').allInnerTexts();
    expect(categories.length).toBeGreaterThan(0);
    expect(new Set(categories)).toEqual(new Set(['Hats']));
    const prices = (await rows(page).locator('td:nth-child(4)').allInnerTexts()).map((p) =>
      Number(p.replace(/[^\d]/g, '')),
    );
    expect(prices).toEqual([...prices].sort((a, b) => a - b));

    const first = rows(page).first().locator('a');
    const name = await first.innerText();
    await first.click();
    await page.getByRole('heading', { name }).waitFor();
    await settle(page);
    expect(await page.getByTestId('ugc-item-chart').getAttribute('data-drawn')).toBe('true');
    expect(await page.getByTestId('ugc-item-figures').innerText()).toMatch(/Favourites\s+[\d,]+/);
  });
});
