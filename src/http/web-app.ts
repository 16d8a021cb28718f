/**
 * The web app (web/, built by Vite into WEB_DIR) served by the same process: hashed assets from
 * /assets/ cached for a year, other files (favicon) for an hour, and index.html for `/` and every
 * path that is not the API's (`/api`, `/docs`, `/openapi.json`, `/healthz`, `/readyz`), so the
 * app's own router draws the page. The API keeps its JSON 404 and 405 (error-handler.ts asks
 * `pageFor` first). None of these routes appear in /openapi.json.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Paths that stay the API's (a miss there is JSON 404, never the app). */
const API_PATHS = /^\/(api|docs|openapi\.json|healthz|readyz)(\/|$|\?)/;
/** A last segment with an extension names a file: missing files are 404, not the app. */
const FILE_LIKE = /\/[^/]*\.[A-Za-z0-9]{1,8}$/;

export interface WebApp {
  /** index.html for an app page (GET or HEAD outside the API, not a file); undefined otherwise. */
  pageFor(request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined;
}

export function isAppPage(method: string, path: string): boolean {
  return (method === 'GET' || method === 'HEAD') && !API_PATHS.test(path) && !FILE_LIKE.test(path);
}

/** Serves `dir` when it holds a built app; returns undefined (API only) when it does not. */
export async function registerWebApp(app: FastifyInstance, dir: string): Promise<WebApp | undefined> {
  const indexFile = join(dir, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.info({ webDir: dir }, 'web app not built (npm run build): serving the API only');
    return undefined;
  }
  const index = readFileSync(indexFile);
  await app.register(fastifyStatic, {
    root: dir,
    prefix: '/',
    index: false,
    wildcard: false,
    // The app's pages are answered below, with index.html; the file list is read once at start.
    allowedPath: (path) => path !== '/index.html',
    cacheControl: false,
    setHeaders: (reply: FastifyReply, path: string) => {
      reply.header(
        'cache-control',
        /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
      );
    },
  });
  return {
    pageFor(request, reply) {
      const path = request.url.split('?')[0] ?? '';
      if (!isAppPage(request.method, path)) return undefined;
      return reply.code(200).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(index);
    },
  };
}
