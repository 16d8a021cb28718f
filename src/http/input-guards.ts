/**
 * Two refusals the schemas cannot express, applied to the body, query and path a route declares,
 * each a 422 validation_failed naming the first offending field:
 * - the NUL character (U+0000) or an unpaired UTF-16 surrogate (a lone \ud800-\udfff, which JSON
 *   escapes allow) in any string, value or object key, checked before the schema sees the request:
 *   PostgreSQL cannot store the first, jsonb refuses the second, and text would silently turn it
 *   into U+FFFD;
 * - a number that is not finite, checked after validation: JSON's 1e400 parses to Infinity, and
 *   Ajv's type coercion turns the query strings "Infinity" and "1e400" into Infinity and then
 *   skips minimum/maximum, so an unbounded number schema would let it through to SQL or arithmetic.
 * A route that checks these on its own terms (SDK ingest rejects the event, not the batch) opts out
 * with `config: { checksOwnInput: true }`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route checks NUL characters and non-finite numbers itself (the input guards leave it alone). */
    checksOwnInput?: boolean;
  }
}

export const NUL_NOTE =
  'No string may contain the NUL character (U+0000) or an unpaired UTF-16 surrogate (a lone \\ud800 to \\udfff ' +
  'escape): PostgreSQL cannot store them. A value or key carrying one in the body, query or path → 422 ' +
  'validation_failed naming the field (SDK ingest instead rejects the event).';

const NUL = '\u0000';

/** Key as shown in a field path: a NUL in a key is written out as \u0000, a lone surrogate as its escape. */
function shown(key: string): string {
  return key
    .split(NUL)
    .join('\\u0000')
    .replace(/\p{Surrogate}/gu, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

export const FINITE_NOTE =
  'Every number must be finite: 1e400 in a body, or Infinity/1e400 in a query or path → 422 validation_failed ' +
  'naming the field.';

type Offends = (value: unknown) => boolean;

const wellFormed = (s: string): boolean => (s as string & { isWellFormed(): boolean }).isWellFormed();
const hasNul: Offends = (v) => typeof v === 'string' && (v.includes(NUL) || !wellFormed(v));
const notFinite: Offends = (v) => typeof v === 'number' && !Number.isFinite(v);

/** The dotted path of the first string (value or key) containing NUL or an unpaired surrogate, in
 * document order. */
export function findNul(root: unknown, prefix: string): Found | null {
  return findFirst(root, prefix, hasNul);
}

/** The dotted path of the first number that is not finite (Infinity, -Infinity, NaN), in document order. */
export function findNonFinite(root: unknown, prefix: string): Found | null {
  return findFirst(root, prefix, notFinite);
}

/** The offending field's dotted path and the offending value (a key, when the key offends). */
export interface Found {
  path: string;
  value: unknown;
}

/** A value met in the walk; its path is spelled out (from the parents) only when it offends. */
interface Visit {
  value: unknown;
  /** The key or index under its parent; undefined for the root. */
  key: string | number | undefined;
  parent: Visit | undefined;
}

function pathOf(visit: Visit, prefix: string): string {
  const segments: string[] = [];
  for (let v: Visit | undefined = visit; v?.key !== undefined; v = v.parent) {
    segments.push(typeof v.key === 'number' ? String(v.key) : shown(v.key));
  }
  return [prefix, ...segments.reverse()].join('.');
}

function findFirst(root: unknown, prefix: string, offends: Offends): Found | null {
  // Depth-first in document order without recursion (a body may nest deeply); every request with
  // a query or body walks it, so nothing is allocated for a value that passes but its visit.
  const stack: Visit[] = [{ value: root, key: undefined, parent: undefined }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const { value } = visit;
    if (offends(value)) return { path: pathOf(visit, prefix), value };
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: i, parent: visit });
    } else {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i]!;
        // An offending key (one with NUL or a lone surrogate) is reported in its place in the
        // document, as its value would be.
        const v = (value as Record<string, unknown>)[k];
        stack.push({ value: offends(k) ? k : v, key: k, parent: visit });
      }
    }
  }
  return null;
}

/** Only what the route declares: an undeclared query string or body is never read, so harmless. */
function first(request: FastifyRequest, find: (root: unknown, prefix: string) => Found | null): Found | null {
  const schema = request.routeOptions.schema ?? {};
  return (
    (schema.params ? find(request.params, 'path') : null) ??
    (schema.querystring ? find(request.query, 'query') : null) ??
    (schema.body ? find(request.body, 'body') : null)
  );
}

export function registerInputGuards(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.config.checksOwnInput === true) return;
    const found = first(request, findNul);
    if (found !== null) {
      const field = found.path;
      throw errors.validation(
        field,
        String(found.value).includes(NUL)
          ? `${field} must not contain the NUL character (U+0000)`
          : `${field} must not contain an unpaired UTF-16 surrogate (it is not valid Unicode text)`,
      );
    }
  });
  app.addHook('preHandler', async (request) => {
    if (request.routeOptions.config.checksOwnInput === true) return;
    const found = first(request, findNonFinite);
    if (found !== null) throw errors.validation(found.path, `${found.path} must be a finite number`);
  });
}
