/**
 * The security headers of every response (helmet's set: CSP, frame and sniffing guards, referrer
 * policy, HSTS over HTTPS), set in one onRequest hook. Helmet's middleware is built once here:
 * @fastify/helmet builds it again on every request (it merges per-route options that this service
 * never uses), which cost ≈9% of a cheap read such as GET /healthz.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** `https`: users reach the service over HTTPS (PUBLIC_URL), so HSTS and upgrade-insecure-requests
 * mean something. */
export function securityHeaderOptions(https: boolean): HelmetOptions {
  return {
    // Swagger UI at /docs needs inline styles and data: images; everything is served from 'self'.
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        upgradeInsecureRequests: https ? [] : null,
      },
    },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  };
}

export function registerSecurityHeaders(app: FastifyInstance, options: { https: boolean }): void {
  const setHeaders: (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void =
    helmet(securityHeaderOptions(options.https));
  app.addHook('onRequest', (request, reply, done) => {
    // Helmet's middleware only sets headers and calls back at once; a fault in it throws.
    setHeaders(request.raw, reply.raw, (err) => done(err instanceof Error ? err : undefined));
  });
}
