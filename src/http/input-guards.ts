/**
 * PostgreSQL cannot store the NUL character (U+0000) in text: a request carrying one in any string
 * (a value or an object key, in a body, query or path the route declares) is refused here with
 * 422 validation_failed naming the first such field, before any schema or handler sees it. A route
 * that refuses NUL on its own terms (SDK ingest rejects the event, not the batch) opts out with
 * `config: { allowNul: true }`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route checks NUL characters itself (the NUL guard leaves it alone). */
    allowNul?: boolean;
  }
}

export const NUL_NOTE =
  'No string may contain the NUL character (U+0000): PostgreSQL cannot store it. A value or key carrying one ' +
  'in the body, query or path → 422 validation_failed naming the field (SDK ingest instead rejects the event).';

const NUL = '\u0000';

/** Key as shown in a field path: a NUL in a key is written out as \u0000. */
function shown(key: string): string {
  return key.split(NUL).join('\\u0000');
}

/** The dotted path of the first string (value or key) containing NUL, in document order. */
export function findNul(root: unknown, prefix: string): string | null {
  const stack: Array<{ value: unknown; path: string }> = [{ value: root, path: prefix }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes(NUL)) return path;
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    const children: Array<{ value: unknown; path: string }> = [];
    if (Array.isArray(value)) {
      value.forEach((v, i) => {
        children.push({ value: v, path: `${path}.${i}` });
      });
    } else {
      for (const [k, v] of Object.entries(value)) {
        const child = `${path}.${shown(k)}`;
        // A key with NUL is reported in its place in the document (as if its value were NUL).
        children.push({ value: k.includes(NUL) ? NUL : v, path: child });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return null;
}

/** Only what the route declares: an undeclared query string or body is never read, so harmless. */
function firstNul(request: FastifyRequest): string | null {
  const schema = request.routeOptions.schema ?? {};
  return (
    (schema.params ? findNul(request.params, 'path') : null) ??
    (schema.querystring ? findNul(request.query, 'query') : null) ??
    (schema.body ? findNul(request.body, 'body') : null)
  );
}

export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.config.allowNul === true) return;
    const field = firstNul(request);
    if (field !== null) {
      throw errors.validation(field, `${field} must not contain the NUL character (U+0000)`);
    }
  });
}
