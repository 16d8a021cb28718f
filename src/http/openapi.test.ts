import { Validator } from '@seriousme/openapi-schema-validator';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { ErrorRef } from './schemas.js';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({
    configure(app) {
      // Two stand-in route groups, so the prefix filter has something to keep and to drop.
      app.addSchema(Type.Object({ id: Type.Integer() }, { $id: 'Widget' }));
      app.get(
        '/api/widgets/:id',
        {
          schema: {
            tags: ['widgets'],
            params: Type.Object({ id: Type.Integer() }),
            response: { 200: Type.Ref('Widget'), 404: ErrorRef },
          },
        },
        async (request) => ({ id: (request.params as { id: number }).id }),
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
      '/api/auth/login',
      '/api/auth/logout',
      '/api/auth/me',
      '/api/auth/refresh',
      '/api/auth/register',
    ]);
    expect(Object.keys(doc.components.schemas).sort()).toEqual(['ErrorResponse', 'LoginResult', 'User']);
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
    ]);
    expect(doc.paths['/api/auth/login']!.post!.security).toBeUndefined();
    expect((await new Validator().validate(doc)).valid).toBe(true);
  });

  it('drops components no kept path references', async () => {
    const doc = await getDoc('/openapi.json?prefix=/healthz');
    expect(Object.keys(doc.paths)).toEqual(['/healthz']);
    expect(doc.components?.schemas).toBeUndefined();
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
