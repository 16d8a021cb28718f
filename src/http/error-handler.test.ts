import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { errors } from '../errors.js';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({
    configure(app) {
      app.post(
        '/test/echo',
        {
          schema: {
            body: Type.Object({
              name: Type.String({ minLength: 1 }),
              count: Type.Integer({ minimum: 0 }),
              kind: Type.Optional(Type.Union([Type.Literal('a'), Type.Literal('b')])),
              nested: Type.Optional(Type.Object({ level: Type.Integer({ maximum: 3 }) })),
            }),
            querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1 })) }),
          },
        },
        async (request) => request.body,
      );
      app.get('/test/boom', async () => {
        throw new Error('secret internals: connection string postgres://admin:pw@db');
      });
      app.get('/test/limited', async () => {
        throw errors.rateLimited(30);
      });
      app.get('/test/db-down', async () => {
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      });
    },
  });
});

afterAll(async () => {
  await t.close();
});

function post(payload: string, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  return t.app.inject({ method: 'POST', url: '/test/echo', payload, headers });
}

describe('error mapping', () => {
  it('answers malformed JSON with 400 invalid_json', async () => {
    const res = await post('{"name": "x",');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      detail: 'The request body is not valid JSON (or uses a forbidden key such as __proto__).',
      code: 'invalid_json',
    });
  });

  it('refuses prototype-poisoning keys with 400', async () => {
    for (const body of [
      '{"__proto__":{}}',
      '{"name":"x","count":1,"constructor":{"prototype":{"polluted":1}}}',
    ]) {
      const res = await post(body);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('invalid_json');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers an empty JSON body with 400', async () => {
    const res = await post('');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      detail: 'The request body is empty but content-type is application/json.',
      code: 'invalid_json',
    });
  });

  it('answers an unknown path with 404 {detail, code}', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'No route matches GET /api/nothing-here.', code: 'not_found' });
  });

  it('answers a 10 MB JSON body with 413', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(10 * 1024 * 1024), count: 1 });
    const res = await post(big);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      detail: 'The request body is larger than this endpoint accepts.',
      code: 'payload_too_large',
    });
  });

  it('answers an unsupported content-type with 415', async () => {
    const res = await post('name=x', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe('unsupported_media_type');
  });

  it.each([
    ['{"count":1}', 'body.name', 'body.name is required'],
    ['{"name":"","count":1}', 'body.name', 'body.name must NOT have fewer than 1 characters'],
    ['{"name":"x","count":-1}', 'body.count', 'body.count must be >= 0'],
    ['{"name":"x","count":"many"}', 'body.count', 'body.count must be integer'],
    ['{"name":"x","count":1,"nested":{"level":9}}', 'body.nested.level', 'body.nested.level must be <= 3'],
    ['{"name":"x","count":1,"kind":"c"}', 'body.kind', 'body.kind must be one of: a, b'],
  ])('answers %s with 422 naming %s', async (body, field, detail) => {
    const res = await post(body);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ detail, code: 'validation_failed', field });
  });

  it('names a bad query parameter', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/test/echo?limit=0',
      payload: { name: 'x', count: 1 },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      detail: 'query.limit must be >= 1',
      code: 'validation_failed',
      field: 'query.limit',
    });
  });

  it('masks a thrown bug as 500 without stack or message, and logs it', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/test/boom',
      headers: { 'x-request-id': 'req-boom-1' },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      detail: 'An unexpected error occurred; quote request id req-boom-1 when reporting it.',
      code: 'internal_error',
    });
    expect(res.body).not.toContain('secret internals');
    expect(res.body).not.toContain('.ts:');
    const logged = t.logs.records().find((r) => r.reqId === 'req-boom-1' && r.msg === 'request failed');
    expect((logged?.err as { message?: string })?.message).toContain('secret internals');
  });

  it('passes an AppError through with its status, code and headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/test/limited' });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('30');
    expect(res.json()).toEqual({ detail: 'Too many requests; slow down.', code: 'rate_limited' });
  });

  it('answers 503 temporarily_unavailable when a dependency is down', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/test/db-down' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({
      detail: 'A service this request depends on is unavailable; try again shortly.',
      code: 'temporarily_unavailable',
    });
  });
});

describe('request ids and headers', () => {
  it('generates a request id and returns it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps a well-formed incoming X-Request-Id and replaces a malformed one', async () => {
    const kept = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(kept.headers['x-request-id']).toBe('abc-123');
    const replaced = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'bad id\n<script>' },
    });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['strict-transport-security']).toBeUndefined(); // plain-http PUBLIC_URL
  });

  it('never logs credentials sent in headers', async () => {
    await t.app.inject({
      method: 'GET',
      url: '/test/boom',
      headers: {
        authorization: 'Bearer tok-SECRET-1',
        cookie: 'svc_access=cookie-SECRET-2',
        'x-api-key': 'key-SECRET-3',
      },
    });
    expect(t.logs.text).not.toMatch(/SECRET-\d/);
  });
});
