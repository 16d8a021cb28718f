/**
 * Bodies a service serialises itself (sendSerialised) skip Fastify's response serialiser, which
 * would drop undeclared fields and coerce types: a test checks such a body against its route's
 * schema with every object closed, so the body must already be exactly what the route declares.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';
import type { TSchema } from 'typebox';
import { expect } from 'vitest';

/** A copy of the schema in which every object refuses fields it does not declare. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    // `properties` maps field names to schemas: its keys are not keywords.
    out[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, closed(v)]))
        : closed(value);
  }
  if (out.type === 'object' && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

/** A closed-schema validator; `shared` are the schemas the response refers to by $id. */
export function closedValidator(schema: TSchema, shared: readonly TSchema[] = []): ValidateFunction {
  const ajv = new Ajv({ allErrors: true, strict: false });
  formats.default(ajv);
  for (const s of shared) ajv.addSchema(closed(JSON.parse(JSON.stringify(s))) as object);
  return ajv.compile(closed(JSON.parse(JSON.stringify(schema))) as object);
}

/** Parses `json` (a service's serialised bytes, or a response's text) and fails the test (naming
 * `what`) unless it matches the closed schema. */
export function expectValid(validate: ValidateFunction, json: Buffer | string, what: string): unknown {
  const body: unknown = JSON.parse(typeof json === 'string' ? json : json.toString('utf8'));
  const ok = validate(body);
  expect(ok ? [] : validate.errors, what).toEqual([]);
  return body;
}
