/**
 * The clones page end to end: the real server with its embedded defaults (the simulated market
 * backfilled on start, its clone pairs detected after that collection), the built app, headless
 * Chromium, signed in as the Studio demo account.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2e, seriousViolations, settle, startE2e } from '../helpers/web.js';

let e: E2e;

beforeAll(async () => {
  e = await startE2e();
}, 180_000);

afterAll(async () => {
  await e?.close();
});

interface Pair {
  original: { place_id: number; name: string; genre: string };
  clone: { place_id: number; name: string; genre: string };
}

/** Polls (as the signed-in page) until the detection after the first collection has stored pairs. */
async function pairsDetected(page: Page, timeoutMs: number): Promise<Pair[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await page.request.get(`${e.url}/api/intelligence/clones/recent?limit=200`);
    if (res.status() === 200) {
      const pairs = ((await res.json()) as { pairs: Pair[] }).pairs;
      if (pairs.length > 0) return pairs;
    }
    if (Date.now() > until) throw new Error(`no clone pair was detected within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

const rows = (page: Page, table = 'clones-table') => page.locator(`[data-testid="${table}"] tbody tr`);

describe('clones page', () => {
  it("lists the detected clone pairs with their evidence, filters by genre, shows more, and opens a game's pairs", async () => {
    const { page } = await e.newPage();
    await e.signIn(page, 'studio@demo.test');
    const pairs = await pairsDetected(page, 240_000);

    await page.goto('/intelligence/clones');
    await rows(page).first().waitFor({ timeout: 20_000 });
    await settle(page);
    expect(await rows(page).count()).toBe(Math.min(50, pairs.length));
    expect(await page.getByTestId('clones-plan-cap').textContent()).toBe('Up to 200 per page on your plan.');
    // Every row shows a similarity of at least 80%.
    const similarities = (await rows(page).locator('td:nth-child(3)').allInnerTexts()).map((t) =>
      Number(t.replace('%', '')),
    );
    expect(similarities.every((s) => s >= 80 && s <= 100)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    if (pairs.length > 50) {
      await page.getByRole('button', { name: 'Show more' }).click();
      await rows(page).nth(50).waitFor();
      expect(await rows(page).count()).toBe(Math.min(100, pairs.length));
    }

    const genre = pairs[0]!.clone.genre;
    const byGenre = await page.request.get(
      `${e.url}/api/intelligence/clones/recent?limit=200&genre=${genre}`,
    );
    const inGenre = ((await byGenre.json()) as { pairs: Pair[] }).pairs.length;
    await page.getByLabel('Genre').selectOption(genre);
    await settle(page);
    expect(await rows(page).count()).toBe(Math.min(50, inGenre));

    const clone = rows(page).first().locator('td:nth-child(2) a');
    const name = await clone.textContent();
    await clone.click();
    await page.waitForURL(/\/intelligence\/clones\?place_id=\d+$/);
    await page.getByRole('heading', { level: 1, name: `${name}: clones` }).waitFor();
    await rows(page, 'game-clones-table').first().waitFor();
    expect(await page.getByTestId('game-clones-total').textContent()).toMatch(/^[\d,]+ clone pairs?$/);
    expect(await rows(page, 'game-clones-table').count()).toBeGreaterThan(0);
  }, 360_000);
});
