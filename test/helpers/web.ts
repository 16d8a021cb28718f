/**
 * End-to-end harness: the web app built into a private directory, the real server (`svc serve`
 * with the embedded defaults: PGlite in a fresh data dir, simulated market, demo accounts) and the
 * system's headless Chromium driven by playwright-core.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { loadConfig } from '../../src/config.js';
import { type RunningServer, startServer } from '../../src/main.js';
import { LogCapture } from './app.js';
import { migratedDataDir } from './db.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROOT = new URL('../../', import.meta.url);

/** Fails with one sentence when the browser is missing (npm test's dependency check installs it). */
export function chromiumPath(): string {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}: install it (Debian: apt-get install chromium) or set CHROMIUM_PATH.`,
    );
  }
  return CHROMIUM;
}

/** Builds web/ with Vite into `outDir` (each test file its own, so files never race). */
export async function buildWeb(outDir: string): Promise<void> {
  await build({
    configFile: new URL('web/vite.config.ts', ROOT).pathname,
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
}

export interface E2e {
  server: RunningServer;
  url: string;
  /** The app's build this server serves. */
  webDir: string;
  browser: Browser;
  demoPassword: string;
  logs: LogCapture;
  /** A fresh browser context (cookies of its own) and page. */
  newPage(options?: {
    width?: number;
    height?: number;
    dark?: boolean;
  }): Promise<{ context: BrowserContext; page: Page }>;
  /** Signs a page's context in through the API (cookies set as for the web app). */
  signIn(page: Page, email: string, password?: string): Promise<void>;
  close(): Promise<void>;
}

/** Polls `url` until it answers 200 (the simulated market's first backfill takes ~30 s). */
async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(url).catch(() => undefined);
    if (res?.status === 200) return;
    if (Date.now() > until) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

export async function startE2e(): Promise<E2e> {
  const executablePath = chromiumPath();
  const dir = mkdtempSync(join(tmpdir(), 'svc-e2e-'));
  const webDir = join(dir, 'web');
  await buildWeb(webDir);
  // Migrated already when the test run has a template (the first start's migrations are tested
  // in cli.test.ts and main.test.ts): the server starts with its demo accounts and the backfill.
  const dataDir = await migratedDataDir('svc-e2e-data-');
  const logs = new LogCapture();
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    WEB_DIR: webDir,
    LOG_LEVEL: 'warn',
    // A smaller market than the default 5,000 games: the first backfill, the collections and the
    // detections that follow share this process (and PGlite's thread) with the browser's driver.
    SIMULATION_GAMES: '1500',
    // Every page load comes from 127.0.0.1: lift the per-IP limits the way route tests do.
    ENTITLEMENTS: JSON.stringify({ anonymousRatePerMin: 100_000, authRatePerMin: 100_000 }),
  });
  const server = await startServer(config, { logStream: logs });
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  try {
    await waitFor(`${server.url}/api/market/overview`, 120_000);
  } catch (err) {
    await browser.close();
    await server.close();
    throw err;
  }
  const demoPassword = readFileSync(join(dataDir, 'demo-password'), 'utf8').trim();
  const contexts: BrowserContext[] = [];
  return {
    server,
    url: server.url,
    webDir,
    browser,
    demoPassword,
    logs,
    async newPage(options = {}) {
      const context = await browser.newContext({
        baseURL: server.url,
        viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
        colorScheme: options.dark ? 'dark' : 'light',
        timezoneId: 'America/New_York',
        locale: 'en-US',
      });
      contexts.push(context);
      const page = await context.newPage();
      trackRequests(page);
      return { context, page };
    },
    async signIn(page, email, password = demoPassword) {
      const res = await page.request.post('/api/auth/login', {
        data: { email, password },
        headers: { origin: server.url },
      });
      if (res.status() !== 200)
        throw new Error(`sign-in of ${email} answered ${res.status()}: ${await res.text()}`);
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => {});
      await browser.close();
      await server.close('test done');
      rmSync(dir, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Requests each page has in flight, and when the last one started or ended (see `settle`). */
const traffic = new WeakMap<Page, { inFlight: number; since: number }>();

function trackRequests(page: Page): void {
  const t = { inFlight: 0, since: performance.now() };
  traffic.set(page, t);
  const ended = () => {
    t.inFlight -= 1;
    t.since = performance.now();
  };
  page.on('request', () => {
    t.inFlight += 1;
    t.since = performance.now();
  });
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
}

/** How long a page must have had no request in flight to count as idle. Playwright's own
 * 'networkidle' waits 500 ms, most of a page's check on a fast machine: the app asks for its data
 * as it mounts, so a shorter quiet spell after <main> is there is enough. */
const QUIET_MS = 150;

/** Waits until the page has drawn its data: the app mounted (<main>), no request in flight for
 * QUIET_MS, no loading state, and every chart drawn. At most 20 s, then the caller's assertions
 * say what is missing. */
export async function settle(page: Page): Promise<void> {
  const t = traffic.get(page);
  if (!t) await page.waitForLoadState('networkidle').catch(() => {});
  // Polled from here: page.waitForFunction builds its predicate with new Function inside the page,
  // which the page's CSP (no unsafe-eval) refuses; page.evaluate goes through the DevTools protocol.
  const ready = `!!document.querySelector('main') && !document.querySelector('.state-loading') && [...document.querySelectorAll('.chart')].every((c) => c.dataset.drawn === 'true')`;
  const until = Date.now() + 20_000;
  while (Date.now() < until) {
    const idle = !t || (t.inFlight === 0 && performance.now() - t.since >= QUIET_MS);
    if (idle && (await page.evaluate(ready).catch(() => false))) return;
    await page.waitForTimeout(50);
  }
}

let axeSource: string | undefined;

/** axe-core's serious and critical violations on the page as it is now (rule id: targets). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP (no inline script) does not
  // govern: a <script> tag would be refused, as it should be.
  axeSource ??= readFileSync(new URL('node_modules/axe-core/axe.min.js', ROOT), 'utf8');
  await page.evaluate(axeSource);
  // A string, so the Node-side types (no DOM lib) never see the page's globals.
  const result = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as {
    violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
  };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * The token of the last `path` link (/team/accept, /reset-password, /verify-email) mailed to
 * `email`: the embedded server's mail goes to the outbox table.
 */
export async function mailedToken(e: Pick<E2e, 'server'>, email: string, path: string): Promise<string> {
  const link = new RegExp(`${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\?token=([A-Za-z0-9_%-]+)`);
  const until = Date.now() + 10_000;
  for (;;) {
    const { rows } = await e.server.db.query<{ body: string }>(
      'SELECT body FROM outbox WHERE to_address = $1 ORDER BY id DESC LIMIT 1',
      [email],
    );
    const match = link.exec(rows[0]?.body ?? '');
    if (match) return decodeURIComponent(match[1]!);
    if (Date.now() > until) throw new Error(`no ${path} link mailed to ${email}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
