/**
 * Protocol hardening (issue 13): out-of-range ids, NUL characters, content types, methods and enum
 * messages, through the real app and its real routes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { bearer, type LoggedIn, signedIn } from '../../test/helpers/auth.js';
import { ingestKey, postEvents, sdkEvent } from '../../test/helpers/ingest.js';

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

describe('the NUL character (U+0000) or an unpaired surrogate in a string', () => {
  const nul = (field: string) => ({
    detail: `${field} must not contain the NUL character (U+0000)`,
    code: 'validation_failed',
    field,
  });

  it.each([
    ['POST', '/api/keys', { name: 'a\u0000b', scopes: ['read'] }, 'body.name'],
    [
      'POST',
      '/api/webhooks',
      { url: 'https://example.com/hook', secret: `${'s'.repeat(20)}\u0000` },
      'body.secret',
    ],
    ['POST', '/api/alerts', { game_id: 1, type: 'ccu_spike\u0000', threshold: 1 }, 'body.type'],
    [
      'POST',
      '/api/auth/register',
      { email: 'nul\u0000@example.com', password: 'long enough password' },
      'body.email',
    ],
    ['POST', '/api/auth/login', { email: 'a@example.com', password: 'pass\u0000word' }, 'body.password'],
    [
      'POST',
      '/api/revenue-simulator',
      { avg_ccu: 1, gamepass_count: 1, avg_gamepass_price: 1, genre: '\u0000' },
      'body.genre',
    ],
    ['POST', '/api/keys', { name: 'k', scopes: ['read', 'x\u0000'] }, 'body.scopes.1'],
    [
      'POST',
      '/api/keys',
      { name: 'k', scopes: ['read'], extra: { deep: [1, 'x\u0000'] } },
      'body.extra.deep.1',
    ],
    ['POST', '/api/keys', { name: 'k', scopes: ['read'], 'bad\u0000key': 1 }, 'body.bad\\u0000key'],
  ] as const)('%s %s names $3', async (method, url, payload, field) => {
    const res = await t.app.inject({ method, url, headers: bearer(studio), payload });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual(nul(field));
  });

  it('names the field in an admin patch', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${studio.userId}`,
      headers: bearer(admin),
      payload: { plan: 'Builder\u0000' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual(nul('body.plan'));
  });

  it('names a query parameter', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/search?q=blox%00fruits',
      headers: bearer(studio),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual(nul('query.q'));
  });

  it.each([
    ['a lone low half in a value', '{"name":"x\\udc00y","scopes":["read"]}', 'body.name'],
    ['a lone high half at the end', '{"name":"k","scopes":["read","x\\ud800"]}', 'body.scopes.1'],
    ['a lone half in a key', '{"name":"k","scopes":["read"],"a\\udfffb":1}', 'body.a\\udfffb'],
  ])('refuses an unpaired surrogate (%s) with 422 naming the field', async (_, payload, field) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/keys',
      headers: { ...bearer(studio), 'content-type': 'application/json' },
      payload,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      detail: `${field} must not contain an unpaired UTF-16 surrogate (it is not valid Unicode text)`,
      code: 'validation_failed',
      field,
    });
  });

  it('takes a well-formed pair (an emoji) as text', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/keys',
      headers: { ...bearer(studio), 'content-type': 'application/json' },
      payload: '{"name":"rocket \\ud83d\\ude80","scopes":["read"]}',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().name).toBe('rocket 🚀');
  });

  it('ignores a query string the route does not read', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz?x=%00' });
    expect(res.statusCode).toBe(200);
  });

  it('leaves ingest to refuse the event, not the batch', async () => {
    const k = await ingestKey(t);
    const res = await postEvents(t.app, {
      api_key: k.key,
      events: [sdkEvent(1), sdkEvent(2, { player_id: 'p\u0000' })],
    });
    expect([200, 202]).toContain(res.statusCode);
    expect(res.json()).toMatchObject({
      accepted: 1,
      rejected: 1,
      errors: [{ index: 1, field: 'player_id' }],
    });
  });
});

describe('a number that is not finite', () => {
  it.each([
    ['/api/search?q=a&limit=Infinity', 'query.limit'],
    ['/api/search?q=a&offset=1e400', 'query.offset'],
    ['/api/game/Infinity', 'path.place_id'],
    ['/api/dev-lens/reports?limit=Infinity', 'query.limit'],
    ['/api/sdk/events/recent?limit=1e400', 'query.limit'],
  ])('GET %s answers 422 naming %s', async (url, field) => {
    const res = await t.app.inject({ method: 'GET', url, headers: bearer(studio) });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ detail: expect.any(String), code: 'validation_failed', field });
  });

  it.each([
    [
      'a string "Infinity"',
      '{"avg_ccu":"Infinity","gamepass_count":3,"avg_gamepass_price":150,"genre":"simulation"}',
    ],
    ['JSON 1e400', '{"avg_ccu":1e400,"gamepass_count":3,"avg_gamepass_price":150,"genre":"simulation"}'],
    ['JSON -1e400', '{"avg_ccu":-1e400,"gamepass_count":3,"avg_gamepass_price":150,"genre":"simulation"}'],
  ])('in a body (%s) answers 422 naming it', async (_, payload) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/revenue-simulator',
      headers: { ...bearer(studio), 'content-type': 'application/json' },
      payload,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      detail: expect.stringMatching(/^body\.avg_ccu must /),
      code: 'validation_failed',
      field: 'body.avg_ccu',
    });
  });

  it('leaves ingest to refuse the event, not the batch', async () => {
    const k = await ingestKey(t);
    const payload = JSON.stringify({
      api_key: k.key,
      events: [sdkEvent(1, { payload: { level: 7 } }), sdkEvent(2)],
    }).replace('"level":7', '"level":1e400');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/sdk/events',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect([200, 202]).toContain(res.statusCode);
    expect(res.json()).toMatchObject({ accepted: 1, rejected: 1, errors: [{ index: 0 }] });
  });
});

describe('pagination', () => {
  it('refuses a search offset past 2^53 − 1 (bigint overflowed: 500)', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/search?q=a&offset=18446744073709551616',
      headers: bearer(studio),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      detail: 'query.offset must be <= 9007199254740991',
      code: 'validation_failed',
      field: 'query.offset',
    });
  });
});
