/**
 * Compiles the TypeBox object schemas of schemas.ts into flat lists of field rules, once at module
 * load. Each rule checks one property with closures built from the schema's keywords and hands back
 * a pre-built fault (code + message), so a valid event allocates nothing here and an invalid one
 * reports exactly which rule failed — which TypeBox's Errors() would only give after a second pass.
 */
import { canonicalCountry } from './countries.js';
import { storableText } from './pii.js';
import { COUNTRY_FORMAT } from './schemas.js';

export interface Fault {
  code: string;
  message: string;
}

export interface FieldRule {
  key: string;
  /** JSON path reported in errors, e.g. "payload.price". */
  path: string;
  required: boolean;
  /** Applied when the field is absent (undefined or null); undefined = no default. */
  default: unknown;
  /** Country fields return a canonical value to store instead of the one sent. */
  normalize: ((value: string) => string | null) | null;
  check: (value: unknown) => Fault | null;
}

type SchemaNode = Readonly<Record<string, unknown>>;

const num = (node: SchemaNode, key: string): number | undefined => {
  const v = node[key];
  return typeof v === 'number' ? v : undefined;
};

/** Length in Unicode code points, counting only where UTF-16 length leaves it undecided. */
export function lengthFault(
  value: string,
  min: number,
  max: number,
  short: Fault,
  long: Fault,
): Fault | null {
  const units = value.length;
  if (units < min) return short;
  if (units > 2 * max) return long;
  // Each astral code point takes two UTF-16 units: count them only when the answer depends on it.
  if (units <= max && units >= 2 * min) return null;
  let points = units;
  for (let i = 0; i < units - 1; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        points--;
        i++;
      }
    }
  }
  if (points < min) return short;
  return points > max ? long : null;
}

function describe(path: string, code: string, text: string): Fault {
  return { code, message: `${path} ${text}` };
}

/** Compile options: `textChecked`, the values' text was already found storable (pii.ts scanPayload
 * walks every string of a payload before its field rules run), so a string rule skips that pass. */
export interface CompileOptions {
  textChecked?: boolean;
}

function stringCheck(
  node: SchemaNode,
  path: string,
  options: CompileOptions,
): (value: unknown) => Fault | null {
  const min = num(node, 'minLength') ?? 0;
  const max = num(node, 'maxLength') ?? Number.POSITIVE_INFINITY;
  const wrong = describe(path, 'wrong_type', 'must be a string');
  const nul = describe(
    path,
    'invalid_characters',
    'must not contain a NUL character or an unpaired surrogate (it cannot be stored)',
  );
  const bounds = max === Number.POSITIVE_INFINITY ? `at least ${min}` : `${min} to ${max}`;
  const short = describe(path, 'too_short', `must be ${bounds} characters`);
  const long = describe(path, 'too_long', `must be ${bounds} characters`);
  if (node.format === COUNTRY_FORMAT) {
    const bad = describe(path, 'invalid_country', 'must be an ISO 3166-1 alpha-2 country code');
    return (v) => (typeof v !== 'string' ? wrong : canonicalCountry(v) === null ? bad : null);
  }
  const pattern = typeof node.pattern === 'string' ? new RegExp(node.pattern) : null;
  if (pattern !== null) {
    // After the length rules, so a too long key still says too_long.
    const unlike = describe(path, 'invalid_format', `must match ${node.pattern}`);
    return (v) => {
      if (typeof v !== 'string') return wrong;
      return lengthFault(v, min, max, short, long) ?? (pattern.test(v) ? null : unlike);
    };
  }
  if (options.textChecked) {
    return (v) => (typeof v !== 'string' ? wrong : lengthFault(v, min, max, short, long));
  }
  return (v) => {
    if (typeof v !== 'string') return wrong;
    return lengthFault(v, min, max, short, long) ?? (storableText(v) ? null : nul);
  };
}

function numberCheck(node: SchemaNode, path: string, integer: boolean): (value: unknown) => Fault | null {
  const min = num(node, 'minimum') ?? Number.NEGATIVE_INFINITY;
  const max = num(node, 'maximum') ?? Number.POSITIVE_INFINITY;
  const wrong = describe(path, 'wrong_type', integer ? 'must be an integer' : 'must be a finite number');
  const fraction = describe(path, 'not_integer', 'must be an integer');
  const range =
    max === Number.POSITIVE_INFINITY
      ? `must be at least ${min}`
      : min === Number.NEGATIVE_INFINITY
        ? `must be at most ${max}`
        : `must be between ${min} and ${max}`;
  const out = describe(path, 'out_of_range', range);
  return (v) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) return wrong;
    if (integer && !Number.isInteger(v)) return fraction;
    return v < min || v > max ? out : null;
  };
}

function enumCheck(values: readonly unknown[], path: string): (value: unknown) => Fault | null {
  const wrong = describe(path, 'wrong_type', 'must be a string');
  const notAllowed = describe(path, 'not_allowed_value', `must be one of ${values.join(', ')}`);
  return (v) => (typeof v !== 'string' ? wrong : values.includes(v) ? null : notAllowed);
}

function literals(node: SchemaNode): unknown[] | null {
  if (Array.isArray(node.enum)) return node.enum;
  if (!Array.isArray(node.anyOf)) return null;
  return node.anyOf.map((member: SchemaNode) => member.const);
}

/** The checker for one property schema; throws at load time on a keyword it does not handle. */
export function compileCheck(
  node: SchemaNode,
  path: string,
  options: CompileOptions = {},
): (value: unknown) => Fault | null {
  const values = literals(node);
  if (values !== null) return enumCheck(values, path);
  switch (node.type) {
    case 'string':
      return stringCheck(node, path, options);
    case 'number':
      return numberCheck(node, path, false);
    case 'integer':
      return numberCheck(node, path, true);
    case 'boolean': {
      const wrong = describe(path, 'wrong_type', 'must be true or false');
      return (v) => (typeof v === 'boolean' ? null : wrong);
    }
    case 'object': {
      const wrong = describe(path, 'wrong_type', 'must be a JSON object');
      return (v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? null : wrong);
    }
    default:
      throw new Error(`ingest schema: unsupported schema at ${path}`);
  }
}

/** Rules for every declared property of an object schema, in declaration order (= §6 order). */
export function compileRules(
  objectSchema: object,
  prefix: string,
  options: CompileOptions = {},
): FieldRule[] {
  const schema = objectSchema as SchemaNode;
  const properties = (schema.properties ?? {}) as Record<string, SchemaNode>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties).map(([key, node]) => {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    return {
      key,
      path,
      required: required.has(key),
      default: node.default,
      normalize: node.format === COUNTRY_FORMAT ? canonicalCountry : null,
      check: compileCheck(node, path, options),
    };
  });
}
