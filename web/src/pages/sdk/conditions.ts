/**
 * Conditions as segments and funnel steps take them ({field, op, value}), built from what a person
 * types: values keep their JSON type (40 is a number, "40" in quotes a string, true a boolean), as
 * the API compares them. Pure: tested in conditions.test.ts.
 */

export const OPS = [
  { value: 'eq', label: 'equals', hint: 'a text, number or true/false' },
  { value: 'neq', label: 'does not equal', hint: 'a text, number or true/false' },
  { value: 'in', label: 'is one of', hint: 'values separated by commas' },
  { value: 'gt', label: '>', hint: 'a number' },
  { value: 'gte', label: '≥', hint: 'a number' },
  { value: 'lt', label: '<', hint: 'a number' },
  { value: 'lte', label: '≤', hint: 'a number' },
  { value: 'exists', label: 'exists', hint: 'no value' },
  { value: 'contains', label: 'contains', hint: 'a text (substring, or element of a list)' },
] as const;
export type Op = (typeof OPS)[number]['value'];

export type Scalar = string | number | boolean;
export interface Condition {
  field: string;
  op: Op;
  value?: Scalar | Scalar[];
}
export interface ConditionDraft {
  field: string;
  op: Op;
  value: string;
}

/** Fields offered as suggestions; any `payload.<key>` works (extra payload fields too). */
export const FIELD_SUGGESTIONS = [
  'country',
  'platform',
  'game_id',
  'payload.level',
  'payload.result',
  'payload.score',
  'payload.name',
  'payload.sku',
  'payload.currency',
  'payload.price',
  'payload.source',
  'payload.device',
  'payload.os',
  'payload.membership',
  'payload.format',
  'payload.network',
  'payload.severity',
  'payload.zone_id',
  'payload.item_id',
];

// The server's own list (a module with no imports, so the bundle takes just the array).
export { EVENT_TYPES, type EventType } from '../../../../src/ingest/types';

const FIELD = /^(platform|country|game_id|payload(\.[^.\s]+)+)$/;
const NUMBER = /^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** `true`/`false` → boolean, a number → number, "quoted" → the text inside, else the trimmed text. */
export function parseScalar(text: string): Scalar {
  const t = text.trim();
  if (t === 'true') return true;
  if (t === 'false') return false;
  if (NUMBER.test(t)) return Number(t);
  const quoted = /^"(.*)"$/.exec(t) ?? /^'(.*)'$/.exec(t);
  return quoted ? (quoted[1] as string) : t;
}

/** A condition from the form, or the reason it cannot be sent. */
export function toCondition(d: ConditionDraft): { condition: Condition } | { error: string } {
  const field = d.field.trim();
  if (!FIELD.test(field)) return { error: 'Field: platform, country, game_id or payload.<key>.' };
  const raw = d.value.trim();
  switch (d.op) {
    case 'exists':
      return { condition: { field, op: d.op } };
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      if (!NUMBER.test(raw)) return { error: 'This comparison needs a number.' };
      return { condition: { field, op: d.op, value: Number(raw) } };
    }
    case 'in': {
      const values = raw
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '')
        .map(parseScalar);
      if (values.length === 0) return { error: 'List at least one value, separated by commas.' };
      return { condition: { field, op: d.op, value: values } };
    }
    case 'contains': {
      if (raw === '') return { error: 'Give the text to look for.' };
      const v = parseScalar(raw);
      return { condition: { field, op: d.op, value: typeof v === 'string' ? v : raw } };
    }
    default: {
      if (raw === '') return { error: 'Give a value.' };
      return { condition: { field, op: d.op, value: parseScalar(raw) } };
    }
  }
}

/** Every draft as a condition, or the first error with its position (1-based). */
export function toConditions(drafts: ConditionDraft[]): { conditions: Condition[] } | { error: string } {
  const conditions: Condition[] = [];
  for (const [i, d] of drafts.entries()) {
    const r = toCondition(d);
    if ('error' in r) return { error: `Condition ${i + 1}: ${r.error}` };
    conditions.push(r.condition);
  }
  return { conditions };
}

function showValue(v: Scalar): string {
  return typeof v === 'string' ? `“${v}”` : String(v);
}

/** A condition as a line people read: `country equals “BR”`, `payload.level ≥ 5`. */
export function conditionText(c: Condition): string {
  const op = OPS.find((o) => o.value === c.op)?.label ?? c.op;
  if (c.op === 'exists' || c.value === undefined) return `${c.field} ${op}`;
  const value = Array.isArray(c.value) ? c.value.map(showValue).join(', ') : showValue(c.value);
  return `${c.field} ${op} ${value}`;
}
