/**
 * Cross-origin access (src/http/cors.ts): a browser game on its own origin may preflight and call
 * ingest and experiment assignment, without credentials; nothing else answers another origin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { type IngestKey, ingestKey, postEvents, sdkEvent } from '../../test/helpers/ingest.js';
import { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS } from './cors.js';

const ORIGIN = 'https://game.example';

let t: TestApp;
let key: IngestKey;

beforeAll(async () => {
  t = await buildTestApp();
  key = await ingestKey(t, { plan: 'Studio' });
});

afterAll(() => t?.close());

describe('CORS for browser game clients', () => {
  it('answers the ingest preflight with 204 and what a browser may send', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/sdk/events',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, x-svc-sdk-version',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toBe('POST, OPTIONS');
    expect(res.headers['access-control-allow-headers']).toBe(CORS_ALLOWED_HEADERS);
    expect(res.headers['access-control-max-age']).toBe('86400');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('lets the page read an ingest answer and an error, Retry-After among the exposed headers', async () => {
    const ok = await postEvents(
      t.app,
      { api_key: key.key, events: [sdkEvent(1, { ts: new Date().toISOString() })] },
      { origin: ORIGIN },
    );
    expect([200, 202]).toContain(ok.statusCode);
    expect(ok.headers['access-control-allow-origin']).toBe('*');
    expect(ok.headers['access-control-expose-headers']).toBe(CORS_EXPOSED_HEADERS);
    expect(ok.headers['access-control-allow-credentials']).toBeUndefined();

    const refused = await postEvents(
      t.app,
      { api_key: 'svc_nope', events: [sdkEvent(2)] },
      { origin: ORIGIN },
    );
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe('*');
  });

  it('opens experiment assignment to GET, and no other route to any origin', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/sdk/experiments/checkout-flow/assignment?game_id=g&player_id=p',
      headers: { origin: ORIGIN, 'access-control-request-method': 'GET' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toBe('GET, OPTIONS');
    // The preflight checks the path as the GET does: a key over 64 characters is refused alike.
    const tooLong = await t.app.inject({
      method: 'OPTIONS',
      url: `/api/sdk/experiments/${'k'.repeat(65)}/assignment`,
      headers: { origin: ORIGIN, 'access-control-request-method': 'GET' },
    });
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json()).toMatchObject({ code: 'validation_failed' });
    expect(typeof tooLong.json().detail).toBe('string');
    const assignment = await t.app.inject({
      url: '/api/sdk/experiments/checkout-flow/assignment?game_id=g&player_id=p',
      headers: { origin: ORIGIN, 'x-api-key': key.key },
    });
    expect(assignment.statusCode).toBe(404); // no such experiment: the page can still read why
    expect(assignment.headers['access-control-allow-origin']).toBe('*');

    for (const url of ['/api/trending', '/api/auth/me', '/healthz']) {
      const res = await t.app.inject({ url, headers: { origin: ORIGIN } });
      expect(res.headers['access-control-allow-origin'], url).toBeUndefined();
    }
    const other = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/auth/login',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
    });
    expect(other.statusCode).toBe(405);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});
