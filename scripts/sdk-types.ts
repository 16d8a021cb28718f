/**
 * Writes sdk/js/src/events.gen.ts: the JavaScript SDK's wire types, generated from the server's own
 * TypeBox schemas (the event envelope and the 15 payloads of src/ingest/schemas.ts, the ingest
 * answer of src/ingest/ingest.schemas.ts, the assignment of src/analytics/experiments.schemas.ts),
 * so the SDK cannot drift from what the server validates. `npm run sdk:types` after changing one of
 * them; sdk/js/test/events-gen.test.ts fails while the committed file is stale.
 *
 * The schemas are plain JSON Schema objects; this emits the subset they use (object, array, string,
 * number, integer, boolean, null, const, anyOf) and states each bound in a doc comment.
 */
import { writeFileSync } from 'node:fs';
import { SdkAssignment } from '../src/analytics/experiments.schemas.js';
import { EXPOSURE_EVENT } from '../src/analytics/views/experiments.rollup.repo.js';
import { IngestErrorItem, IngestResponse, MAX_BATCH } from '../src/ingest/ingest.schemas.js';
import { EnvelopeSchema, PAYLOAD_SCHEMAS, PLATFORMS } from '../src/ingest/schemas.js';
import { EVENT_TYPES } from '../src/ingest/types.js';

interface Schema {
  type?: string;
  const?: unknown;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
  description?: string;
}

const quote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const pascal = (s: string) =>
  s
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
const INDENT = '  ';
const LINE_WIDTH = 110;

/** The TypeScript type of `schema`; `names` maps schema objects emitted elsewhere to their name. */
function typeOf(schema: Schema, names: Map<object, string>, depth: number): string {
  const named = names.get(schema);
  if (named) return named;
  if (schema.anyOf) return schema.anyOf.map((s) => typeOf(s, names, depth)).join(' | ');
  if (schema.const !== undefined)
    return typeof schema.const === 'string' ? quote(schema.const) : String(schema.const);
  switch (schema.type) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
      return schema.type;
    case 'integer':
      return 'number';
    case 'array': {
      const item = typeOf(schema.items ?? {}, names, depth);
      return /[ |]/.test(item) ? `(${item})[]` : `${item}[]`;
    }
    case 'object':
      return `{\n${members(schema, names, depth + 1)}${INDENT.repeat(depth)}}`;
    default:
      return 'unknown';
  }
}

const number = (n: number) =>
  Math.abs(n) === Number.MAX_SAFE_INTEGER ? (n < 0 ? '-(2^53 - 1)' : '2^53 - 1') : String(n);

/** The bounds and default of a field in words (its doc comment), or ''. */
function doc(schema: Schema): string {
  const parts: string[] = [];
  if (schema.description) parts.push(schema.description.replace(/\*\//g, '*\\/'));
  const { minLength: lo, maxLength: hi, minimum: min, maximum: max } = schema;
  if (lo !== undefined && hi !== undefined) parts.push(`${lo} to ${hi} characters.`);
  else if (hi !== undefined) parts.push(`At most ${hi} characters.`);
  else if (lo !== undefined && lo > 0) parts.push(`At least ${lo} character${lo === 1 ? '' : 's'}.`);
  if (schema.type === 'integer') parts.push('An integer.');
  if (min !== undefined && max !== undefined) parts.push(`From ${number(min)} to ${number(max)}.`);
  else if (min !== undefined) parts.push(`At least ${number(min)}.`);
  else if (max !== undefined) parts.push(`At most ${number(max)}.`);
  if (schema.pattern && !schema.description?.includes(schema.pattern))
    parts.push(`Matches ${schema.pattern}.`);
  if (schema.format) parts.push(`Format: ${schema.format}.`);
  if (schema.default !== undefined) parts.push(`Default: ${JSON.stringify(schema.default)}.`);
  return parts.join(' ');
}

function comment(text: string, indent: string): string {
  if (text === '') return '';
  const one = `${indent}/** ${text} */`;
  return one.length <= LINE_WIDTH ? `${one}\n` : `${indent}/**\n${wrap(text, `${indent} * `)}${indent} */\n`;
}

function wrap(text: string, prefix: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && prefix.length + line.length + 1 + word.length > LINE_WIDTH) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.map((l) => `${prefix}${l}\n`).join('');
}

function members(schema: Schema, names: Map<object, string>, depth: number, open = true): string {
  const indent = INDENT.repeat(depth);
  const required = new Set(schema.required ?? []);
  let out = '';
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    out += comment(doc(prop), indent);
    out += `${indent}${key}${required.has(key) ? '' : '?'}: ${typeOf(prop, names, depth)};\n`;
  }
  if (open && schema.additionalProperties !== false) {
    out += `${indent}/** Extra fields are accepted and kept (segment conditions can use them). */\n`;
    out += `${indent}[extra: string]: unknown;\n`;
  }
  return out;
}

function iface(
  name: string,
  summary: string,
  schema: Schema,
  names = new Map<object, string>(),
  open = true,
): string {
  return `${comment(summary, '')}export interface ${name} {\n${members(schema, names, 1, open)}}\n`;
}

function constArray(name: string, summary: string, values: readonly string[]): string {
  const one = `export const ${name} = [${values.map(quote).join(', ')}] as const;`;
  const body =
    one.length <= LINE_WIDTH
      ? one
      : `export const ${name} = [\n${values.map((v) => `${INDENT}${quote(v)},\n`).join('')}] as const;`;
  return `${comment(summary, '')}${body}\n`;
}

/** The source of events.gen.ts. */
export function sdkTypesSource(): string {
  const envelope = EnvelopeSchema as unknown as Schema;
  const envelopeProps = envelope.properties!;
  const limit = (field: string) => ({
    min: envelopeProps[field]!.minLength ?? 0,
    max: envelopeProps[field]!.maxLength!,
  });
  const limits = {
    event_id: limit('event_id'),
    game_id: limit('game_id'),
    player_id: limit('player_id'),
    session_id: limit('session_id'),
  };
  const payloads = Object.entries(PAYLOAD_SCHEMAS) as [string, Schema][];
  const parts = [
    '// Generated by scripts/sdk-types.ts from the server’s TypeBox schemas: do not edit (npm run sdk:types).\n',
    constArray('EVENT_TYPES', 'Every event type the ingest endpoint accepts.', EVENT_TYPES),
    'export type EventType = (typeof EVENT_TYPES)[number];\n',
    constArray('PLATFORMS', 'The platforms an event can come from.', PLATFORMS),
    'export type Platform = (typeof PLATFORMS)[number];\n',
    `${comment('Events per ingest request, at most.', '')}export const MAX_BATCH = ${MAX_BATCH};\n`,
    `${comment('Length bounds of the envelope’s identifiers (characters).', '')}export const ENVELOPE_LIMITS = {\n${Object.entries(
      limits,
    )
      .map(([field, { min, max }]) => `${INDENT}${field}: { min: ${min}, max: ${max} },\n`)
      .join('')}} as const;\n`,
    `${comment(
      'The custom event name of an experiment exposure (payload fields `experiment` and `variant`).',
      '',
    )}export const EXPOSURE_EVENT = ${quote(EXPOSURE_EVENT)};\n`,
    ...payloads.map(([type, schema]) =>
      iface(`${pascal(type)}Payload`, `The payload of \`${type}\` events.`, schema),
    ),
    `${comment('The payload type of each event type.', '')}export interface EventPayloads {\n${payloads
      .map(([type]) => `${INDENT}${type}: ${pascal(type)}Payload;\n`)
      .join('')}}\n`,
    iface(
      'WireEvent',
      'One event as POST /api/sdk/events takes it (the envelope).',
      envelope,
      new Map<object, string>([
        [envelopeProps.type!, 'EventType'],
        [envelopeProps.platform!, 'Platform'],
        [envelopeProps.payload!, 'Record<string, unknown>'],
      ]),
      false,
    ),
    iface('IngestError', 'One rejected event of a batch.', IngestErrorItem as unknown as Schema),
    iface(
      'IngestResponse',
      'The answer to POST /api/sdk/events (200 sync, 202 async: the counts are final either way).',
      IngestResponse as unknown as Schema,
      new Map<object, string>([[IngestErrorItem, 'IngestError']]),
    ),
    iface(
      'Assignment',
      'The answer to GET /api/sdk/experiments/{key}/assignment.',
      SdkAssignment as unknown as Schema,
    ),
  ];
  return parts.join('\n');
}

export const TYPES_FILE = new URL('../sdk/js/src/events.gen.ts', import.meta.url);

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(TYPES_FILE, sdkTypesSource());
  console.log(`wrote ${TYPES_FILE.pathname}`);
}
