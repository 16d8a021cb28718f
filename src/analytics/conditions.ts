/**
 * Conditions on events, shared by segments and funnel steps: `{field, op, value}` where field is an
 * envelope field (`platform`, `country`, `game_id`) or a payload field (`payload.<key>`, nested as
 * `payload.a.b`, extra fields included), combined with `match: all | any`, optionally on one event
 * type. checkConditions refuses a bad one with 422 naming it; conditionSql compiles them into a
 * parameterised boolean SQL expression over an `events` row (no value is ever spliced into SQL).
 */
import { type Static, Type } from 'typebox';
import { errors } from '../errors.js';
import { OneOf } from '../http/schemas.js';
import { EVENT_TYPES } from '../ingest/index.js';

export const CONDITION_OPS = ['eq', 'neq', 'in', 'gt', 'gte', 'lt', 'lte', 'exists', 'contains'] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];
export const ENVELOPE_FIELDS = ['platform', 'country', 'game_id'] as const;
export const MAX_CONDITIONS = 20;
export const MAX_IN_VALUES = 100;
const PAYLOAD_FIELD = /^payload(\.[A-Za-z0-9_-]{1,64}){1,5}$/;

type Scalar = string | number | boolean;
// One schema with a list of types, not a union (anyOf): the app's Ajv coerces types, and in an anyOf
// its first branch that coerces wins, so 40 became "40" and ["DE"] became "DE". With a type list
// Ajv coerces only a value of none of the types. 'array' first: the response serialiser tries the
// types in order and would write a list as a string.
const SCALAR_TYPES = ['string', 'number', 'boolean'];
const ConditionValue = Type.Unsafe<Scalar | Scalar[]>({
  type: ['array', ...SCALAR_TYPES],
  maxLength: 256,
  items: { type: SCALAR_TYPES, maxLength: 256 },
  minItems: 1,
  maxItems: MAX_IN_VALUES,
  description:
    'eq/neq: a string, number or boolean; in: a list of them; gt/gte/lt/lte: a number; contains: a string ' +
    '(a substring of a string field, or an element of a list field); exists: none.',
});

export const Condition = Type.Object(
  {
    field: Type.String({
      minLength: 1,
      maxLength: 400,
      description: '`platform`, `country`, `game_id`, or `payload.<key>` (nested: `payload.a.b`).',
    }),
    op: OneOf(CONDITION_OPS),
    value: Type.Optional(ConditionValue),
  },
  { additionalProperties: false },
);
export type ConditionT = Static<typeof Condition>;

export const ConditionSet = {
  conditions: Type.Array(Condition, { minItems: 1, maxItems: MAX_CONDITIONS }),
  match: Type.Optional(OneOf(['all', 'any'] as const, { default: 'all' })),
  event_type: Type.Optional(OneOf(EVENT_TYPES, { description: 'Only events of this type can match.' })),
};

/** The checks a schema cannot make (field names, value per operator); `at` names the list in
 * errors, e.g. `body.conditions`. */
export function checkConditions(conditions: readonly ConditionT[], at: string): void {
  conditions.forEach((c, i) => {
    const where = `${at}[${i}]`;
    const isEnvelope = (ENVELOPE_FIELDS as readonly string[]).includes(c.field);
    if (!isEnvelope && !PAYLOAD_FIELD.test(c.field)) {
      throw errors.validation(
        `${where}.field`,
        `${where}.field must be platform, country, game_id or payload.<key> (letters, digits, _ and -, up to 5 levels)`,
      );
    }
    const v = c.value;
    const fail = (detail: string) => errors.validation(`${where}.value`, `${where}.value ${detail}`);
    switch (c.op) {
      case 'exists':
        if (v !== undefined) throw fail('must be left out with exists');
        if (isEnvelope && c.field !== 'country') {
          throw errors.validation(`${where}.op`, `${where}.op exists applies to country and payload fields`);
        }
        return;
      case 'in':
        if (!Array.isArray(v)) throw fail('must be a list with in');
        return;
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte':
        if (typeof v !== 'number') throw fail(`must be a number with ${c.op}`);
        if (isEnvelope)
          throw errors.validation(`${where}.op`, `${where}.op ${c.op} applies to payload fields`);
        return;
      case 'contains':
        if (typeof v !== 'string') throw fail('must be a string with contains');
        return;
      default:
        if (v === undefined || Array.isArray(v))
          throw fail(`must be a string, number or boolean with ${c.op}`);
        if (isEnvelope && typeof v !== 'string') throw fail(`must be a string for ${c.field}`);
    }
  });
}

const SQL_OP = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/**
 * The conditions as one SQL boolean over the events row `alias`, with its parameters numbered from
 * `firstParam` ($n). Checked conditions only (checkConditions).
 */
export function conditionSql(
  set: {
    conditions: readonly ConditionT[];
    match?: 'all' | 'any' | undefined;
    event_type?: string | undefined;
  },
  alias: string,
  firstParam: number,
): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const p = (value: unknown, cast: string) => {
    params.push(value);
    return `$${firstParam + params.length - 1}::${cast}`;
  };
  const parts = set.conditions.map((c) => {
    if ((ENVELOPE_FIELDS as readonly string[]).includes(c.field)) {
      const col = `${alias}.${c.field}`;
      switch (c.op) {
        case 'eq':
          return `${col} = ${p(c.value, 'text')}`;
        case 'neq':
          return `${col} IS DISTINCT FROM ${p(c.value, 'text')}`;
        case 'in':
          return `${col} = ANY(${p((c.value as unknown[]).map(String), 'text[]')})`;
        case 'exists':
          return `${col} IS NOT NULL`;
        case 'contains':
          return `strpos(${col}, ${p(c.value, 'text')}) > 0`;
        default:
          return 'false';
      }
    }
    const path = p(c.field.split('.').slice(1), 'text[]');
    const x = `(${alias}.payload #> ${path})`;
    switch (c.op) {
      case 'eq':
        return `${x} = ${p(JSON.stringify(c.value), 'jsonb')}`;
      case 'neq':
        return `(${x} IS NOT NULL AND ${x} <> ${p(JSON.stringify(c.value), 'jsonb')})`;
      case 'in':
        return `${x} = ANY(${p(
          (c.value as unknown[]).map((v) => JSON.stringify(v)),
          'jsonb[]',
        )})`;
      case 'exists':
        return `(${x} IS NOT NULL AND jsonb_typeof(${x}) <> 'null')`;
      case 'contains': {
        const v = p(c.value, 'text');
        return `((jsonb_typeof(${x}) = 'string' AND strpos(${x} #>> '{}', ${v}) > 0)
          OR (jsonb_typeof(${x}) = 'array' AND ${x} @> jsonb_build_array(${v})))`;
      }
      default:
        // CASE, not AND: the planner may evaluate AND's operands in any order, and casting a
        // string to numeric fails the whole query instead of not matching that row.
        return `(CASE WHEN jsonb_typeof(${x}) = 'number' THEN (${x})::numeric ${SQL_OP[c.op]} ${p(c.value, 'numeric')} ELSE false END)`;
    }
  });
  const joined = parts.map((s) => `(${s})`).join(set.match === 'any' ? ' OR ' : ' AND ');
  const typed = set.event_type ? `${alias}.type = ${p(set.event_type, 'text')} AND ` : '';
  return { sql: `(${typed}(${joined}))`, params };
}
