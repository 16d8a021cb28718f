/**
 * Cross-origin access for the endpoints game clients call from a browser page on their own origin
 * (the TypeScript SDK in a web game): ingest and experiment assignment. Those authenticate by an
 * ingest key (the body's api_key, or X-API-Key), never by the session cookie, so any origin may
 * call them, without credentials: `Access-Control-Allow-Origin: *` and no Allow-Credentials, which
 * makes a browser refuse to attach cookies to such a request. Every other route stays same-origin
 * (no CORS header: the web app is served from the API's own origin).
 */
import type { FastifyInstance } from 'fastify';
import { type TSchema, Type } from 'typebox';
import { errorResponses } from './schemas.js';

/** The request headers a browser client may send (besides the CORS-safelisted ones). */
export const CORS_ALLOWED_HEADERS = 'Content-Type, Content-Encoding, X-Svc-SDK-Version, X-API-Key';
/** The response headers a browser client may read (the SDKs honour Retry-After). */
export const CORS_EXPOSED_HEADERS = 'Retry-After, X-Svc-Ingest-Mode, X-Request-Id';
/** How long a browser may keep a preflight's answer (browsers cap it: Chromium at 2 hours). */
export const CORS_MAX_AGE_SEC = 86_400;

const open = new WeakMap<FastifyInstance, Set<string>>();

/**
 * Opens `url` (a route path as registered, e.g. `/api/sdk/experiments/:key/assignment`) to
 * cross-origin `methods`: an OPTIONS preflight route (204, public) and, on every answer of the
 * path's routes (errors too: a 429 or 503 must be readable to be honoured), the allow-origin and
 * expose headers.
 */
export function allowCrossOrigin(
  app: FastifyInstance,
  url: string,
  methods: readonly string[],
  /** The path parameters' schema of the routes it opens (a preflight is refused as they would be). */
  params?: TSchema,
): void {
  let urls = open.get(app);
  if (!urls) {
    const paths = new Set<string>();
    urls = paths;
    open.set(app, paths);
    app.addHook('onSend', async (request, reply, payload) => {
      const route = request.routeOptions.url;
      if (route !== undefined && paths.has(route)) {
        reply.header('access-control-allow-origin', '*');
        reply.header('access-control-expose-headers', CORS_EXPOSED_HEADERS);
      }
      return payload;
    });
  }
  urls.add(url);
  const allowed = [...methods, 'OPTIONS'].join(', ');
  app.options(
    url,
    {
      config: { access: { auth: 'public' as const } },
      schema: {
        tags: ['sdk'],
        summary: 'CORS preflight',
        description:
          `Answers a browser's preflight for a cross-origin ${methods.join(' or ')} from any origin, without ` +
          `credentials (the key travels in the request, never a cookie): Access-Control-Allow-Methods ${allowed}, ` +
          `Access-Control-Allow-Headers ${CORS_ALLOWED_HEADERS}, Access-Control-Max-Age ${CORS_MAX_AGE_SEC}. ` +
          `The path's answers carry Access-Control-Allow-Origin * and expose ${CORS_EXPOSED_HEADERS}.`,
        ...(params ? { params } : {}),
        response: {
          204: Type.Null({ description: 'No content; the CORS headers say what is allowed.' }),
          ...(params ? errorResponses(422) : {}),
        },
      },
    },
    async (_request, reply) => {
      reply
        .code(204)
        .header('access-control-allow-methods', allowed)
        .header('access-control-allow-headers', CORS_ALLOWED_HEADERS)
        .header('access-control-max-age', String(CORS_MAX_AGE_SEC));
      return reply.send();
    },
  );
}
