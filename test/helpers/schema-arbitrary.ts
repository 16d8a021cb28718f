/**
 * fast-check arbitraries derived from the JSON schemas of an OpenAPI document: values a schema
 * accepts (`schemaArbitrary`) and values meant to break it (`nastyValue`). Covers what our TypeBox
 * schemas use: $ref to components, object (properties, required, additionalProperties,
 * minProperties), string (length, pattern, email/date-time/uri/uuid), integer and number bounds,
 * boolean, null, enum/const, anyOf/oneOf, type lists and arrays (items, min/max, unique).
 */
import fc from 'fast-check';

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  minProperties?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
  [key: string]: unknown;
};

export interface ArbitraryOptions {
  /** Resolves `#/components/schemas/X`. */
  components: Record<string, JsonSchema>;
  /** Known-good values by property or parameter name (ids that exist, a real API key…), mixed in
   * with generated ones so valid requests reach past "not found". */
  hints?: Record<string, unknown[]>;
}

const MAX_STRING = 40;
const MAX_ARRAY = 4;

export function resolveRef(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  let s = schema;
  for (let depth = 0; s.$ref !== undefined && depth < 20; depth++) {
    const name = /^#\/components\/schemas\/(.+)$/.exec(s.$ref)?.[1];
    const target = name === undefined ? undefined : components[name];
    if (!target) throw new Error(`unresolvable $ref ${s.$ref}`);
    s = target;
  }
  return s;
}

function stringArbitrary(s: JsonSchema): fc.Arbitrary<string> {
  const minLength = s.minLength ?? 0;
  const maxLength = s.maxLength ?? Math.max(minLength, MAX_STRING);
  const fits = (v: string) => v.length >= minLength && v.length <= maxLength;
  let base: fc.Arbitrary<string>;
  switch (s.format) {
    case 'email':
      base = fc.emailAddress();
      break;
    case 'date-time':
      base = fc
        .date({
          min: new Date('2000-01-01T00:00:00Z'),
          max: new Date('2100-01-01T00:00:00Z'),
          noInvalidDate: true,
        })
        .map((d) => d.toISOString());
      break;
    case 'date':
      base = fc
        .date({
          min: new Date('2000-01-01T00:00:00Z'),
          max: new Date('2100-01-01T00:00:00Z'),
          noInvalidDate: true,
        })
        .map((d) => d.toISOString().slice(0, 10));
      break;
    case 'uri':
      base = fc.webUrl();
      break;
    case 'uuid':
      base = fc.uuid();
      break;
    default:
      base =
        s.pattern !== undefined
          ? fc.stringMatching(new RegExp(s.pattern))
          : fc.string({
              minLength,
              maxLength: Math.min(maxLength, Math.max(minLength, MAX_STRING)),
              unit: 'grapheme',
            });
  }
  return base.filter(fits);
}

function integerArbitrary(s: JsonSchema): fc.Arbitrary<number> {
  let min = s.minimum ?? Number.MIN_SAFE_INTEGER;
  let max = s.maximum ?? Number.MAX_SAFE_INTEGER;
  if (s.exclusiveMinimum !== undefined) min = Math.max(min, Math.floor(s.exclusiveMinimum) + 1);
  if (s.exclusiveMaximum !== undefined) max = Math.min(max, Math.ceil(s.exclusiveMaximum) - 1);
  min = Math.max(Math.ceil(min), Number.MIN_SAFE_INTEGER);
  max = Math.min(Math.floor(max), Number.MAX_SAFE_INTEGER);
  return fc.bigInt({ min: BigInt(min), max: BigInt(max) }).map(Number);
}

function numberArbitrary(s: JsonSchema): fc.Arbitrary<number> {
  const min = s.minimum ?? s.exclusiveMinimum ?? -1e12;
  const max = s.maximum ?? s.exclusiveMaximum ?? 1e12;
  return fc
    .double({ min, max, noNaN: true, noDefaultInfinity: true })
    .map((v) => (Object.is(v, -0) ? 0 : v))
    .filter(
      (v) =>
        (s.exclusiveMinimum === undefined || v > s.exclusiveMinimum) &&
        (s.exclusiveMaximum === undefined || v < s.exclusiveMaximum),
    );
}

function objectArbitrary(s: JsonSchema, options: ArbitraryOptions): fc.Arbitrary<Record<string, unknown>> {
  const properties = s.properties ?? {};
  const required = new Set(s.required ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, prop] of Object.entries(properties)) {
    model[name] = withHints(name, schemaArbitrary(prop, options), options);
  }
  const record = fc.record(model, { requiredKeys: [...required].filter((k) => k in properties) });
  const minProperties = s.minProperties ?? 0;
  return record.filter((v) => Object.keys(v).length >= minProperties) as fc.Arbitrary<
    Record<string, unknown>
  >;
}

export function withHints(
  name: string,
  arb: fc.Arbitrary<unknown>,
  options: ArbitraryOptions,
): fc.Arbitrary<unknown> {
  const hints = options.hints?.[name];
  return hints && hints.length > 0 ? fc.oneof({ arbitrary: fc.constantFrom(...hints), weight: 3 }, arb) : arb;
}

/** Values `schema` accepts. */
export function schemaArbitrary(schema: JsonSchema, options: ArbitraryOptions): fc.Arbitrary<unknown> {
  const s = resolveRef(schema, options.components);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((a) => schemaArbitrary(a, options)));
  if (s.allOf && s.allOf.length > 0) return schemaArbitrary(s.allOf[0]!, options);
  if (Array.isArray(s.type)) {
    return fc.oneof(...s.type.map((type) => schemaArbitrary({ ...s, type }, options)));
  }
  switch (s.type) {
    case 'object':
      return objectArbitrary(s, options);
    case 'array': {
      const items = schemaArbitrary(s.items ?? {}, options);
      const constraints = {
        minLength: s.minItems ?? 0,
        maxLength: Math.min(s.maxItems ?? MAX_ARRAY, Math.max(s.minItems ?? 0, MAX_ARRAY)),
      };
      return s.uniqueItems
        ? fc.uniqueArray(items, { ...constraints, selector: (v) => JSON.stringify(v) })
        : fc.array(items, constraints);
    }
    case 'string':
      return stringArbitrary(s);
    case 'integer':
      return integerArbitrary(s);
    case 'number':
      return numberArbitrary(s);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      // No type: anything JSON.
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Values that break schemas: wrong types, edges of number ranges, hostile strings. */
export const NASTY_VALUES: readonly unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  -0.000001,
  1e308,
  -1e308,
  2 ** 53,
  2 ** 64,
  '',
  ' ',
  '0',
  '-1',
  '18446744073709551616',
  '99999999999999999999999999999',
  'NaN',
  'Infinity',
  'true',
  'null',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  '😀'.repeat(3),
  '\u202eevil',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  'x'.repeat(5000),
  [],
  [1, 'a', null],
  {},
  { nested: { deeper: [1] } },
];

export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constantFrom(...NASTY_VALUES), weight: 4 },
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Raw text for a path segment or query value that is not a valid instance (already URL-encoded). */
export const NASTY_SEGMENTS: readonly string[] = [
  '0',
  '-1',
  'abc',
  '1.5',
  '1e3',
  '1e400',
  'Infinity',
  '-Infinity',
  '0x10',
  '%201',
  '9007199254740993',
  '18446744073709551616',
  '99999999999999999999999999999999999999',
  '%00',
  '1%00',
  '%ED%A0%80',
  '%FF',
  '%C3%A9',
  encodeURIComponent('x'.repeat(3000)),
  'null',
  'true',
  '',
];

/**
 * encodeURIComponent that survives lone surrogates (sent as the raw, invalid UTF-8 escape). A
 * segment of "." or ".." (or %2E, %2E%2E) cannot be sent at all: URL resolution removes it
 * (`/a/./b` is `/a/b`) before the request leaves, so it gets a trailing "_".
 */
export function encodeSegment(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  if (text === '.' || text === '..') return `${text}_`;
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}
