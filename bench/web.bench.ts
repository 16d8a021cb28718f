/**
 * The web app's speed: initial JavaScript (gzip) of a production build, and how soon the market
 * page is interactive in headless Chromium against the embedded server, measured with the page's
 * Performance API. The floor of the latter is the same page's /api/trending response end: the
 * ratio says how much the app adds on top of the data it waits for.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { startE2e } from '../test/helpers/web.js';
import type { Figure, Suite } from './lib.js';

/** The scripts index.html loads up front: the entry and its modulepreloads. */
export function initialScripts(indexHtml: string): string[] {
  const srcs = [...indexHtml.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]!);
  const preloads = [...indexHtml.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map(
    (m) => m[1]!,
  );
  return [...new Set([...srcs, ...preloads])];
}

function gzipKb(file: string): number {
  return gzipSync(readFileSync(file), { level: 9 }).length / 1024;
}

const LOADS = 7;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export const webSuite: Suite = {
  name: 'web',
  description: 'web app: initial JS gzip of the build; market page interactive in Chromium (Performance API)',
  async run() {
    const e = await startE2e();
    try {
      const dir = e.webDir;
      const index = readFileSync(join(dir, 'index.html'), 'utf8');
      const initial = initialScripts(index);
      const initialKb = initial.reduce((kb, src) => kb + gzipKb(join(dir, src)), 0);
      const assets = readdirSync(join(dir, 'assets')).filter((f) => f.endsWith('.js'));
      const allKb = assets.reduce((kb, f) => kb + gzipKb(join(dir, 'assets', f)), 0);
      const largest = assets
        .map((f) => ({ f, kb: gzipKb(join(dir, 'assets', f)), raw: statSync(join(dir, 'assets', f)).size }))
        .sort((a, b) => b.kb - a.kb)[0]!;

      const interactive: number[] = [];
      const dataReady: number[] = [];
      for (let i = 0; i < LOADS; i++) {
        const { context, page } = await e.newPage();
        await e.signIn(page, 'studio@demo.test');
        // Noted by the page itself the moment the first trending row exists (no polling delay).
        await page.addInitScript(`
          const observer = new MutationObserver(() => {
            if (document.querySelector('[data-testid="trending-table"] tbody tr')) {
              window.__interactive = performance.now();
              observer.disconnect();
            }
          });
          observer.observe(document, { childList: true, subtree: true });
        `);
        await page.goto('/market');
        await page.locator('[data-testid="trending-table"] tbody tr').first().waitFor({ timeout: 30_000 });
        const t = (await page.evaluate(`({
          interactive: window.__interactive,
          trending: performance.getEntriesByType('resource').filter((r) => r.name.includes('/api/trending')).map((r) => r.responseEnd)[0],
        })`)) as { interactive: number; trending: number };
        // The first load warms the server's caches and Chromium's; it is not counted.
        if (i > 0) {
          interactive.push(t.interactive);
          dataReady.push(t.trending);
        }
        await context.close();
      }
      const value = median(interactive);
      const floor = median(dataReady);
      return [
        {
          suite: 'web',
          name: `initial JS, gzip (${initial.length} files; all ${assets.length} chunks ${allKb.toFixed(0)} KB; largest ${largest.f} ${largest.kb.toFixed(0)} KB)`,
          value: Math.round(initialKb * 10) / 10,
          unit: 'KB',
          goal: '≤ 250 KB',
        },
        {
          suite: 'web',
          name: `market page interactive (trending rows drawn), median of ${LOADS - 1} loads`,
          value: Math.round(value),
          unit: 'ms',
          floor: { name: '/api/trending response end in the same loads', value: Math.round(floor) },
          ratio: Math.round((value / floor) * 100) / 100,
          goal: '≤ 1000 ms',
        },
      ] satisfies Figure[];
    } finally {
      await e.close();
    }
  },
};
