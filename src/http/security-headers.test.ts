import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerSecurityHeaders } from './security-headers.js';

const CSP =
  "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';" +
  "frame-ancestors 'self';img-src 'self' data:;object-src 'none';script-src 'self';" +
  "script-src-attr 'none';style-src 'self' 'unsafe-inline'";

const COMMON = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

async function appWith(https: boolean) {
  const app = Fastify();
  registerSecurityHeaders(app, { https });
  app.get('/ok', async () => ({ ok: true }));
  app.get('/framed', async (_request, reply) => reply.header('X-Frame-Options', 'DENY').send({ ok: true }));
  app.get('/boom', async () => {
    throw new Error('boom');
  });
  await app.ready();
  return app;
}

function securityPart(headers: Record<string, unknown>): Record<string, unknown> {
  const { date, connection, 'content-type': _type, 'content-length': _length, ...rest } = headers;
  return rest;
}

describe('security headers', () => {
  it('sends the same set on a route, a 404 and a 500 over plain http: no HSTS, no upgrade', async () => {
    const app = await appWith(false);
    for (const url of ['/ok', '/missing', '/boom']) {
      const res = await app.inject({ method: 'GET', url });
      expect(securityPart(res.headers)).toEqual({ ...COMMON, 'content-security-policy': CSP });
    }
    await app.close();
  });

  it('lets a route set its own value of one of them', async () => {
    const app = await appWith(false);
    const res = await app.inject({ method: 'GET', url: '/framed' });
    expect(securityPart(res.headers)).toEqual({
      ...COMMON,
      'content-security-policy': CSP,
      'x-frame-options': 'DENY',
    });
    await app.close();
  });

  it('adds HSTS and upgrade-insecure-requests when users come over HTTPS', async () => {
    const app = await appWith(true);
    const res = await app.inject({ method: 'GET', url: '/ok' });
    expect(securityPart(res.headers)).toEqual({
      ...COMMON,
      'content-security-policy': `${CSP};upgrade-insecure-requests`,
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
    });
    await app.close();
  });
});
