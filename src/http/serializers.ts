/**
 * Response serializers built with only the shared schemas a route's response refers to.
 *
 * Fastify's default hands fast-json-stringify every shared schema (app.addSchema) for every
 * response schema of every route, and fast-json-stringify checks each one against the JSON Schema
 * meta-schema each time: routes × shared schemas checks, about 4 s of every app start (three
 * quarters of it). Here each response schema gets the schemas it names by `$ref`, followed through
 * the schemas they name in turn, so the output and the `$ref` resolution are exactly Fastify's.
 * Request validation is untouched (Ajv holds and checks each shared schema once).
 */

import fastJsonStringify, { type Options } from 'fast-json-stringify';
import type { FastifyReply } from 'fastify';
import { joinBytes } from '../bytes.js';

// fast-json-stringify's types describe schemas it builds, not the plain JSON Fastify hands over.
type Schema = Parameters<typeof fastJsonStringify>[0];
type Serializer = (data: unknown) => string;

/** The ids of the shared schemas `schema` refers to (`{$ref: 'Id'}` or `'Id#/pointer'`). */
function referencedIds(schema: unknown, into: Set<string>): void {
  if (Array.isArray(schema)) {
    for (const item of schema) referencedIds(item, into);
    return;
  }
  if (schema === null || typeof schema !== 'object') return;
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && typeof value === 'string') {
      const id = value.split('#', 1)[0]!;
      if (id !== '') into.add(id);
    } else if (typeof value === 'object') {
      referencedIds(value, into);
    }
  }
}

/** The shared schemas reachable from `schema` by `$ref`, keyed as Fastify keys them (by $id). */
export function reachableSchemas<S>(schema: unknown, shared: Record<string, S>): Record<string, S> {
  const out: Record<string, S> = {};
  const pending = new Set<string>();
  referencedIds(schema, pending);
  for (const id of pending) {
    // A Set iterates over what is added while iterating: the closure ends when nothing new is named.
    const target = shared[id];
    if (target === undefined || id in out) continue;
    out[id] = target;
    referencedIds(target, pending);
  }
  return out;
}

/** Fastify's `schemaController.compilersFactory.buildSerializer` (its SerializerFactory). */
export function buildResponseSerializer(
  externalSchemas?: unknown,
  serializerOpts?: Options,
): (route: { schema?: unknown }) => Serializer {
  const shared = (externalSchemas ?? {}) as Record<string, Schema>;
  return ({ schema }) => {
    const schemas = reachableSchemas(schema, shared);
    // As Fastify's own compiler: a response schema that is itself shared is not passed twice.
    const id = (schema as { $id?: unknown } | undefined)?.$id;
    if (typeof id === 'string') delete schemas[id];
    return fastJsonStringify(schema as Schema, { ...serializerOpts, schema: schemas }) as Serializer;
  };
}

/**
 * JSON a service serialised itself (and may serve many times), as the UTF-8 bytes a response
 * sends: a cached page is encoded once, when it is made. Sent as a string, every answer would
 * measure it (Content-Length) and encode it again, two passes over a page of 10–30 KB.
 */
export type SerialisedBody = Buffer;

/** `value` as JSON bytes, in memory of their own: a small page kept in a cache must not hold on to
 * a slab of Node's shared buffer pool. */
export function serialise(value: unknown): SerialisedBody {
  return joinBytes([JSON.stringify(value)]);
}

/** Sends a body the service already serialised (a cached page) with the JSON content type. */
export function sendSerialised(reply: FastifyReply, body: SerialisedBody): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(body);
}
