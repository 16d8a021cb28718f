/**
 * npm run screenshots: a PNG of every page of the web app, on a desktop (1280×800) and a phone
 * (390×844), into docs/screenshots/. It builds the app, starts the real server with the embedded
 * defaults on a fresh data dir, fills an account with data (tracked games, alerts, a Dev Lens
 * report of the real Creator Hub export, SDK events of two games) and drives Chromium.
 */
import { mkdirSync } from 'node:fs';
import { settle, startE2e } from '../test/helpers/web.js';
import { demoPages, prepareDemo } from '../test/helpers/web-demo.js';

const OUT = new URL('../docs/screenshots/', import.meta.url).pathname;

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const e = await startE2e();
  try {
    const demo = await prepareDemo(e.url, 'enterprise@demo.test', e.demoPassword, { days: 28, players: 320 });
    const pages = demoPages(demo);
    const desktop = await e.newPage({ width: 1280, height: 800 });
    await e.signIn(desktop.page, 'enterprise@demo.test');
    const phone = await e.newPage({ width: 390, height: 844 });
    await phone.context.addCookies(await desktop.context.cookies());
    const anonymous = await e.newPage({ width: 1280, height: 800 });
    const anonymousPhone = await e.newPage({ width: 390, height: 844 });
    const shots: [string, string, typeof desktop][] = [];
    for (const [name, path] of pages) {
      shots.push([`${name}-desktop`, path, desktop], [`${name}-phone`, path, phone]);
    }
    shots.push(
      ['signin-desktop', '/signin', anonymous],
      ['signin-phone', '/signin', anonymousPhone],
      ['register-desktop', '/register', anonymous],
    );
    for (const [file, path, { page }] of shots) {
      await page.goto(path);
      await settle(page);
      // Charts animate their first draw.
      await page.waitForTimeout(800);
      await page.screenshot({ path: `${OUT}${file}.png` });
      console.log(`screenshots: ${file}.png  ${path}`);
    }
    console.log(`screenshots: wrote ${shots.length} PNGs to docs/screenshots/`);
  } finally {
    await e.close();
  }
}

await main();
