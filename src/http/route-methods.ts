/**
 * Which methods each path answers, so a known path asked with another method gets 405 with an
 * `Allow` header instead of 404 (Fastify has no 405 of its own). Filled by an onRoute hook; read
 * by the not-found handler. Matching follows Fastify's route syntax as used here: static segments,
 * `:param` segments and a trailing `*`.
 */
import type { FastifyInstance } from 'fastify';

const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

interface Entry {
  pattern: RegExp;
  methods: Set<string>;
}

function compile(url: string): RegExp {
  let source = '';
  for (const segment of url.split('/').slice(1)) {
    source += '/';
    if (segment.startsWith(':')) source += '[^/]+';
    else if (segment === '*') source += '.*';
    else source += segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

export class RouteMethods {
  private readonly entries = new Map<string, Entry>();

  add(url: string, methods: string[]): void {
    let entry = this.entries.get(url);
    if (!entry) {
      entry = { pattern: compile(url), methods: new Set() };
      this.entries.set(url, entry);
    }
    for (const m of methods) entry.methods.add(m.toUpperCase());
  }

  /** The methods some route answers on this path (no query string), in a fixed order. */
  allowed(path: string): string[] {
    const found = new Set<string>();
    for (const entry of this.entries.values()) {
      if (entry.pattern.test(path)) for (const m of entry.methods) found.add(m);
    }
    return [...found].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  }
}

function rank(method: string): number {
  const i = ORDER.indexOf(method);
  return i === -1 ? ORDER.length : i;
}

/** Records every route registered from now on (call it before any route). */
export function trackRouteMethods(app: FastifyInstance): RouteMethods {
  const table = new RouteMethods();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? [...route.method] : [route.method];
    // Fastify adds a HEAD route beside every GET one (exposeHeadRoutes defaults to true).
    if (methods.includes('GET') && route.exposeHeadRoute !== false) methods.push('HEAD');
    table.add(route.url, methods);
  });
  return table;
}
