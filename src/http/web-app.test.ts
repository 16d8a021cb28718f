/**
 * The web app served by the API process: index.html for every page outside the API, assets with
 * their cache policy, and the API's JSON 404/405 untouched. A hand-made build stands in for Vite's.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { isAppPage } from './web-app.js';

const SVC_LUA = join(import.meta.dirname, '../../sdk/roblox/Svc.lua');
const INDEX =
  '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script></body></html>';

describe('web app serving', () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-web-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), INDEX);
    writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log("app")');
    writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    // What web/vite.config.ts emits: the Roblox SDK module, for the SDK page's download link.
    mkdirSync(join(dir, 'downloads'));
    copyFileSync(SVC_LUA, join(dir, 'downloads', 'Svc.lua'));
    t = await buildTestApp({ env: { WEB_DIR: dir } });
  });

  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers index.html, never cached, for / and every page path, with the CSP on', async () => {
    for (const url of [
      '/',
      '/market',
      '/games/123?zoom=daily',
      '/sdk/7/retention',
      '/signin?next=%2Ftracking',
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.body).toBe(INDEX);
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/market' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('serves hashed assets for a year and other files for an hour; a missing file is a JSON 404', async () => {
    const js = await t.app.inject({ url: '/assets/index-abc123.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.body).toBe('console.log("app")');
    const icon = await t.app.inject({ url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
    for (const url of ['/assets/missing.js', '/robots.txt', '/index.html']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ detail: `No route matches GET ${url}.`, code: 'not_found' });
    }
  });

  it('serves the Roblox SDK module at /downloads/Svc.lua, a file in a folder of the build', async () => {
    const res = await t.app.inject({ url: '/downloads/Svc.lua' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.headers['content-type']).toBe('text/x-lua; charset=utf-8');
    expect(res.rawPayload.equals(readFileSync(SVC_LUA))).toBe(true);
  });

  it('keeps the API its own: JSON 404 under /api, 405 on known paths, health and docs as before', async () => {
    const missing = await t.app.inject({ url: '/api/nope' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'No route matches GET /api/nope.', code: 'not_found' });
    const wrongMethod = await t.app.inject({ method: 'PUT', url: '/api/trending' });
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.headers.allow).toBe('GET, HEAD');
    const post = await t.app.inject({ method: 'POST', url: '/market' });
    expect(post.statusCode).toBe(404);
    expect((await t.app.inject({ url: '/healthz' })).json()).toMatchObject({ status: 'ok' });
    expect((await t.app.inject({ url: '/openapi.json' })).headers['content-type']).toContain(
      'application/json',
    );
  });

  it('keeps the static routes out of the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/api/'))).toEqual([
      '/openapi.json',
      '/healthz',
      '/readyz',
    ]);
  });
});

describe('isAppPage', () => {
  it('is a GET or HEAD outside the API that does not name a file', () => {
    expect(isAppPage('GET', '/')).toBe(true);
    expect(isAppPage('HEAD', '/games/12')).toBe(true);
    expect(isAppPage('GET', '/apiary')).toBe(true);
    expect(isAppPage('POST', '/market')).toBe(false);
    for (const path of [
      '/api',
      '/api/x',
      '/docs',
      '/docs/static/index.html',
      '/openapi.json',
      '/healthz',
      '/readyz',
    ]) {
      expect(isAppPage('GET', path), path).toBe(false);
    }
    expect(isAppPage('GET', '/assets/app.js')).toBe(false);
    expect(isAppPage('GET', '/games/v1.2')).toBe(false);
  });
});
