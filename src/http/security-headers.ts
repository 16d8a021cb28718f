/**
 * The security headers of every response (helmet's set: CSP, frame and sniffing guards, referrer
 * policy, HSTS over HTTPS), set in one onRequest hook. Helmet works them out once, at start-up:
 * @fastify/helmet built its middleware again on every request (it merges per-route options that
 * this service never uses), and even built once, its eleven middlewares and their validated
 * setHeader calls were ≈8% of a signed-in read.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** `https`: users reach the service over HTTPS (PUBLIC_URL), so HSTS and upgrade-insecure-requests
 * mean something. */
function securityHeaderOptions(https: boolean): HelmetOptions {
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

/**
 * The headers helmet sets for these options, read once by running its middleware against a
 * recording response. With static directives (no per-request nonce or function) helmet's output is
 * the same for every request, so it stays the one source of the values.
 */
function securityHeaders(https: boolean): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let finished = false;
  helmet(securityHeaderOptions(https))(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    (err?: unknown) => {
      if (err) throw err;
      finished = true;
    },
  );
  if (!finished) throw new Error('helmet did not set its headers at once');
  return Object.freeze(headers);
}

export function registerSecurityHeaders(app: FastifyInstance, options: { https: boolean }): void {
  const headers = securityHeaders(options.https);
  app.addHook('onRequest', (_request, reply, done) => {
    // Reply headers: a route may still set its own value of one (it wins, as it did over helmet's).
    reply.headers(headers);
    done();
  });
}
