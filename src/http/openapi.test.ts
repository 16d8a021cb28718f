import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { ErrorRef } from './schemas.js';

let t: TestApp;

interface Operation {
  parameters?: { name: string; in: string; required?: boolean; schema: { default?: unknown } }[];
  requestBody?: unknown;
  security?: unknown[];
  responses: Record<string, unknown>;
}

const errorEntry = {
  description: expect.any(String),
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } },
};

beforeAll(async () => {
  t = await buildTestApp({
    configure(app) {
      // Two stand-in route groups, so the prefix filter has something to keep and to drop.
      app.addSchema(Type.Object({ id: Type.Integer() }, { $id: 'Widget' }));
      app.withTypeProvider<TypeBoxTypeProvider>().get(
        '/api/widgets/:id',
        {
          schema: {
            tags: ['widgets'],
            params: Type.Object({ id: Type.Integer() }),
            response: { 200: Type.Ref('Widget'), 404: ErrorRef },
          },
        },
        async (request) => ({ id: request.params.id }),
      );
      app.get(
        '/api/widgetsmith',
        { schema: { response: { 200: Type.Object({ ok: Type.Boolean() }) } } },
        async () => ({
          ok: true,
        }),
      );
    },
  });
});

afterAll(async () => {
  await t.close();
});

async function getDoc(url: string) {
  const res = await t.app.inject({ method: 'GET', url });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    openapi: string;
    paths: Record<string, unknown>;
    components?: { schemas?: Record<string, unknown> };
    tags?: { name: string }[];
  };
}

describe('GET /openapi.json', () => {
  it('serves a document that validates as OpenAPI 3.1', async () => {
    const doc = await getDoc('/openapi.json');
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/healthz', '/readyz', '/openapi.json', '/api/widgets/{id}']),
    );
    expect(Object.keys(doc.components?.schemas ?? {})).toEqual(
      expect.arrayContaining(['ErrorResponse', 'Widget']),
    );
  });

  it('keeps only the paths under ?prefix= and the components they reference', async () => {
    const doc = await getDoc('/openapi.json?prefix=/api/widgets');
    expect(Object.keys(doc.paths)).toEqual(['/api/widgets/{id}']);
    expect(Object.keys(doc.components?.schemas ?? {}).sort()).toEqual(['ErrorResponse', 'Widget']);
    expect(doc.tags?.map((tag) => tag.name)).toEqual([]);
    expect((await new Validator().validate(doc)).valid).toBe(true);
  });

  it('describes the auth endpoints with their schemas and security', async () => {
    const doc = (await getDoc('/openapi.json?prefix=/api/auth')) as Awaited<ReturnType<typeof getDoc>> & {
      paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
    };
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/api/auth/identities',
      '/api/auth/login',
      '/api/auth/logout',
      '/api/auth/me',
      '/api/auth/oauth/{provider}',
      '/api/auth/oauth/{provider}/callback',
      '/api/auth/oauth/{provider}/link',
      '/api/auth/oauth/{provider}/start',
      '/api/auth/password/change',
      '/api/auth/password/forgot',
      '/api/auth/password/reset',
      '/api/auth/providers',
      '/api/auth/refresh',
      '/api/auth/register',
      '/api/auth/verify',
      '/api/auth/verify/resend',
    ]);
    expect(Object.keys(doc.components.schemas).sort()).toEqual([
      'ErrorResponse',
      'Identity',
      'LoginResult',
      'OAuthProvider',
      'User',
    ]);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'apiKeyAuth',
      'bearerAuth',
      'cookieAuth',
    ]);
    expect(doc.paths['/api/auth/me']!.get!.security).toEqual([{ bearerAuth: [] }, { cookieAuth: [] }]);
    expect(Object.keys(doc.paths['/api/auth/me']!.get!.responses).sort()).toEqual([
      '200',
      '401',
      '403',
      '429',
      '500',
      '503',
    ]);
    expect(doc.paths['/api/auth/login']!.post!.security).toBeUndefined();
    expect((await new Validator().validate(doc)).valid).toBe(true);
  });

  it('documents on every operation each status the framework can answer it with', async () => {
    const doc = (await getDoc('/openapi.json')) as Awaited<ReturnType<typeof getDoc>> & {
      paths: Record<string, Record<string, Operation>>;
    };
    const missing: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const expected = ['500'];
        if (['post', 'put', 'patch', 'delete'].includes(method)) expected.push('400', '413', '415');
        if (op.requestBody || (op.parameters ?? []).length > 0) expected.push('422');
        if (path.includes('{')) expected.push('400', '414');
        if (op.security) expected.push('403');
        if (path.startsWith('/api/')) expected.push('503');
        for (const status of expected) {
          if (!op.responses[status]) missing.push(`${method.toUpperCase()} ${path} ${status}`);
          else expect(op.responses[status]).toEqual(errorEntry);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('answers the router refusals it documents for path parameters as {detail, code}', async () => {
    const doc = (await getDoc('/openapi.json')) as Awaited<ReturnType<typeof getDoc>> & {
      paths: Record<string, Record<string, Operation>>;
    };
    expect(Object.keys(doc.paths['/api/widgets/{id}']!.get!.responses)).toEqual(
      expect.arrayContaining(['400', '414']),
    );
    const badEncoding = await t.app.inject({ url: '/api/widgets/%FF', headers: { 'x-request-id': 'req-1' } });
    expect(badEncoding.statusCode).toBe(400);
    expect(badEncoding.headers['x-request-id']).toBe('req-1');
    expect(badEncoding.json()).toEqual({
      detail: "'/api/widgets/%FF' is not a valid url component",
      code: 'bad_request',
    });
    const tooLong = await t.app.inject({ url: `/api/widgets/${'1'.repeat(101)}` });
    expect(tooLong.statusCode).toBe(414);
    expect(tooLong.json()).toEqual({
      detail: expect.stringContaining('/api/widgets/111'),
      code: 'uri_too_long',
    });
  });

  it('says each note of an operation once (a GET and its HEAD share a schema)', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { description?: string }>>;
    };
    const repeated: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const paragraphs = (op.description ?? '').split('\n\n').filter(Boolean);
        if (new Set(paragraphs).size !== paragraphs.length) repeated.push(`${method} ${path}`);
      }
    }
    expect(repeated).toEqual([]);
    expect(doc.paths['/api/game/{place_id}']!.get!.description!.match(/X-CSRF-Token/g)).toHaveLength(1);
  });

  it('marks no parameter with a default as required', async () => {
    const doc = (await getDoc('/openapi.json')) as Awaited<ReturnType<typeof getDoc>> & {
      paths: Record<string, Record<string, Operation>>;
    };
    const wrong: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const p of op.parameters ?? []) {
          if (p.schema.default !== undefined && p.required) wrong.push(`${method} ${path} ${p.name}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    const required = (op: Operation) =>
      Object.fromEntries((op.parameters ?? []).map((p) => [p.name, p.required]));
    expect(required(doc.paths['/api/trending']!.get!)).toEqual({ period: false, genre: false, limit: false });
    expect(required(doc.paths['/api/search']!.get!)).toEqual({ q: true, limit: false, offset: false });
    expect(required(doc.paths['/api/dev-lens/reports']!.get!)).toEqual({ limit: false, 'x-team-id': false });
    expect(required(doc.paths['/api/dev-lens/analyze']!.post!)).toEqual({ save: false, 'x-team-id': false });
    expect(required(doc.paths['/api/game/{place_id}']!.get!)).toEqual({ place_id: true, history: false });
    expect(Object.keys(doc.paths['/api/trending']!.get!.responses).sort()).toEqual([
      '200',
      '401',
      '403',
      '422',
      '429',
      '500',
      '503',
    ]);
    expect(Object.keys(doc.paths['/api/search']!.get!.responses).sort()).toEqual([
      '200',
      '401',
      '403',
      '422',
      '429',
      '500',
      '503',
    ]);
    expect(Object.keys(doc.paths['/api/keys/{id}']!.delete!.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '413',
      '414',
      '415',
      '422',
      '429',
      '500',
      '503',
    ]);
  });

  it('drops components no kept path references', async () => {
    const doc = await getDoc('/openapi.json?prefix=/healthz');
    expect(Object.keys(doc.paths)).toEqual(['/healthz']);
    // Only the error body of its 500 answer.
    expect(Object.keys(doc.components?.schemas ?? {})).toEqual(['ErrorResponse']);
    expect(doc.tags?.map((tag) => tag.name)).toEqual(['system']);
  });

  it('answers an unmatched prefix with an empty document and a malformed one with 422', async () => {
    expect((await getDoc('/openapi.json?prefix=/api/nothing')).paths).toEqual({});
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json?prefix=api' });
    expect(res.statusCode).toBe(422);
    expect(res.json().field).toBe('query.prefix');
  });

  it('serves interactive docs at /docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('swagger-ui');
  });
});
