/**
 * Protocol hardening (issue 13): out-of-range ids, NUL characters, content types, methods and enum
 * messages, through the real app and its real routes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { bearer, type LoggedIn, signedIn } from '../../test/helpers/auth.js';

let t: TestApp;
let studio: LoggedIn;
let admin: LoggedIn;

beforeAll(async () => {
  t = await buildTestApp();
  studio = await signedIn(t, { plan: 'Studio' });
  admin = await signedIn(t, { plan: 'Enterprise', isAdmin: true });
});

afterAll(async () => {
  await t.close();
});

describe('integer ids are bounded', () => {
  const routes: Array<{ method: 'DELETE' | 'GET' | 'PATCH'; url: (id: string) => string; admin?: boolean }> =
    [
      { method: 'DELETE', url: (id) => `/api/keys/${id}` },
      { method: 'DELETE', url: (id) => `/api/webhooks/${id}` },
      { method: 'GET', url: (id) => `/api/webhooks/${id}/deliveries` },
      { method: 'PATCH', url: (id) => `/api/admin/users/${id}`, admin: true },
    ];

  for (const route of routes) {
    it.each([
      ['9223372036854775808', 'path.id must be <= 9007199254740991'],
      ['9007199254740992', 'path.id must be <= 9007199254740991'],
      ['0', 'path.id must be >= 1'],
      ['-5', 'path.id must be >= 1'],
      ['abc', 'path.id must be integer'],
      ['1.5', 'path.id must be integer'],
    ])(`${route.method} ${route.url('{id}')} with id %s answers 422`, async (id, detail) => {
      const res = await t.app.inject({
        method: route.method,
        url: route.url(id),
        headers: bearer(route.admin ? admin : studio),
        ...(route.method === 'PATCH' ? { payload: { plan: 'Builder' } } : {}),
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ detail, code: 'validation_failed', field: 'path.id' });
    });
  }

  it('still answers 404 for a well-formed id that does not exist', async () => {
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/keys/9007199254740991',
      headers: bearer(studio),
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not_found');
  });
});

describe('enumerated values are named in the error', () => {
  it('lists the allowed trending periods', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/trending?period=1y' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      detail: 'query.period must be one of: 1h, 6h, 24h, 7d, 30d',
      code: 'validation_failed',
      field: 'query.period',
    });
  });

  it('lists the allowed API key scopes', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/keys',
      headers: bearer(studio),
      payload: { name: 'k', scopes: ['write'] },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      detail: 'body.scopes.0 must be one of: read, sdk:ingest, ingest:telemetry',
      code: 'validation_failed',
      field: 'body.scopes.0',
    });
  });

  it('lists the allowed subscription statuses', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${studio.userId}`,
      headers: bearer(admin),
      payload: { subscription_status: 'paused' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      detail: 'body.subscription_status must be one of: active, trialing, past_due, canceled, none',
      code: 'validation_failed',
      field: 'body.subscription_status',
    });
  });
});

describe('a body that is not JSON', () => {
  const refused = {
    detail: 'This endpoint does not accept that content-type.',
    code: 'unsupported_media_type',
  };
  const types = [
    'text/plain',
    'text/plain; charset=utf-8',
    'application/x-www-form-urlencoded',
    'application/xml',
    'application/vnd.api+json',
  ];

  it.each(types)('on POST /api/auth/login as %s answers 415', async (type) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': type },
      payload: JSON.stringify({ email: studio.email, password: studio.password }),
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual(refused);
  });

  it.each(types)('on POST /api/keys as %s answers 415', async (type) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/keys',
      headers: { ...bearer(studio), 'content-type': type },
      payload: JSON.stringify({ name: 'k', scopes: ['read'] }),
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual(refused);
  });

  it('on POST /api/sdk/events as text/plain answers 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/sdk/events',
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({ api_key: 'svc_live_x', events: [{}] }),
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual(refused);
  });

  it('is accepted as application/json with a charset', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/keys',
      headers: { ...bearer(studio), 'content-type': 'application/json; charset=utf-8' },
      payload: JSON.stringify({ name: 'k', scopes: ['read'] }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'k', scopes: ['read'] });
  });
});

describe('a known path with another method', () => {
  it.each([
    ['PUT', '/api/trending', 'GET, HEAD'],
    ['POST', '/api/trending?period=24h', 'GET, HEAD'],
    ['GET', '/api/auth/login', 'POST'],
    ['GET', '/api/keys/123', 'DELETE'],
    ['PUT', '/api/keys', 'GET, HEAD, POST'],
    ['DELETE', '/healthz', 'GET, HEAD'],
  ] as const)('%s %s answers 405 with Allow: %s', async (method, url, allow) => {
    const res = await t.app.inject({ method, url, headers: bearer(studio) });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe(allow);
    const path = url.split('?')[0];
    expect(res.json()).toEqual({
      detail: `${method} is not allowed on ${path}; allowed: ${allow}.`,
      code: 'method_not_allowed',
    });
  });

  it('an unknown path is still 404', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/keys/1/nothing' });
    expect(res.statusCode).toBe(404);
    expect(res.headers.allow).toBeUndefined();
    expect(res.json()).toEqual({ detail: 'No route matches PUT /api/keys/1/nothing.', code: 'not_found' });
  });
});
