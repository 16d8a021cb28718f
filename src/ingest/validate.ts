/**
 * Ingest validation (interface.md §6, DECISIONS §1 and §8): pure, no I/O. Each event is checked
 * alone; an invalid one yields exactly one error, for the first rule that fails in this order:
 *
 *   1. the event is a JSON object                                  field "event"
 *   2. envelope, in §6 table order: event_id, ts, platform, game_id, player_id, session_id,
 *      type (unknown → unknown_type), payload (an object when present)
 *   3. the payload walk: personal-data keys at any depth (personal_data), nesting deeper than
 *      32 (too_deep), more than 10,000 keys and elements (too_large), NUL characters
 *      (invalid_characters) — in the payload's key order
 *   4. the type's payload fields in §6 order (required, wrong_type, too_short, too_long,
 *      out_of_range, not_integer, not_allowed_value, invalid_country, invalid_format: a
 *      brand_survey_response answer that is not a fixed-choice key)
 *   5. custom: name must not be a standard type's name, case-insensitively (reserved_name)
 *
 * Choices §6 leaves open: player_id is required (1..128); null counts as absent for every optional
 * field (and gets its default); an empty session_id is stored as null; payload may be omitted and
 * then is {} (so a type with required fields reports the first missing one); ts is defined in
 * timestamp.ts; unknown envelope fields are ignored; the payload bounds are in schemas.ts.
 * Messages name the field and the rule, never the value.
 */
import { compileRules, type Fault, type FieldRule } from './field-rules.js';
import { formatPath, scanPayload } from './pii.js';
import { EnvelopeSchema, PAYLOAD_SCHEMAS } from './schemas.js';
import { parseUtcTimestamp } from './timestamp.js';
import {
  EVENT_TYPES,
  type EventType,
  type IngestError,
  type ValidatedBatch,
  type ValidEvent,
} from './types.js';

export { PERSONAL_DATA_KEYS } from './pii.js';

export type EventResult = { ok: true; event: ValidEvent } | { ok: false; error: IngestError };

type Raw = Record<string, unknown>;

const ENVELOPE = new Map(compileRules(EnvelopeSchema, '').map((rule) => [rule.key, rule]));
const envelopeRule = (key: string): FieldRule => {
  const rule = ENVELOPE.get(key);
  if (rule === undefined) throw new Error(`ingest schema: no envelope rule for ${key}`);
  return rule;
};
const EVENT_ID = envelopeRule('event_id');
const SESSION_ID = envelopeRule('session_id');
const REQUIRED_ENVELOPE = [envelopeRule('platform'), envelopeRule('game_id'), envelopeRule('player_id')];

/** The per-type dispatch: one lookup on `type`, then that type's compiled rules only. */
const PAYLOAD_RULES = new Map<string, readonly FieldRule[]>(
  // scanPayload has checked every string of a payload for storable text before these rules run.
  EVENT_TYPES.map((type) => [type, compileRules(PAYLOAD_SCHEMAS[type], 'payload', { textChecked: true })]),
);
/** Standard types a custom event must not be named after (§6: "standard events must not be sent as custom"). */
const RESERVED_NAMES = new Set<string>(EVENT_TYPES.filter((type) => type !== 'custom'));

const fault = (code: string, message: string): Fault => ({ code, message });
const NOT_OBJECT = fault('wrong_type', 'event must be a JSON object');
const TS_WRONG_TYPE = fault('wrong_type', 'ts must be a string');
const TS_INVALID = fault(
  'invalid_timestamp',
  'ts must be an ISO 8601 UTC time: YYYY-MM-DDTHH:MM:SS[.fff]Z or +00:00',
);
const TYPE_REQUIRED = fault('required', 'type is required');
const TYPE_WRONG = fault('wrong_type', 'type must be a string');
const TYPE_UNKNOWN = fault(
  'unknown_type',
  `type must be one of the ${EVENT_TYPES.length} event types; send others as custom`,
);
const PAYLOAD_WRONG = fault('wrong_type', 'payload must be a JSON object');
const RESERVED = fault(
  'reserved_name',
  'payload.name must not name a standard event type; send that event with its own type',
);
const SCAN_MESSAGES = {
  personal_data: 'is a personal-data key; send hashed or no personal data',
  too_deep: 'nests deeper than 32 levels',
  too_large: 'has more than 10000 keys and elements in all',
  invalid_characters: 'contains a NUL character or an unpaired surrogate, which cannot be stored',
} as const;

const requiredFault = (rule: FieldRule): Fault => fault('required', `${rule.path} is required`);

function reject(index: number, eventId: string | null, field: string, f: Fault): EventResult {
  return { ok: false, error: { index, event_id: eventId, field, code: f.code, message: f.message } };
}

const isObject = (value: unknown): value is Raw =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A required envelope string: its fault, or null when it passes. */
function checkRequired(rule: FieldRule, value: unknown): Fault | null {
  return value === undefined || value === null ? requiredFault(rule) : rule.check(value);
}

/** `ts` parsed once: the instant, null when absent, or the fault. */
function readTs(ts: unknown): Date | null | Fault {
  if (ts === undefined || ts === null) return null;
  if (typeof ts !== 'string') return TS_WRONG_TYPE;
  return parseUtcTimestamp(ts) ?? TS_INVALID;
}

/** Envelope step 2 after event_id and ts; returns the first failing field and its fault. */
function checkEnvelope(raw: Raw): [string, Fault] | null {
  for (const rule of REQUIRED_ENVELOPE) {
    const f = checkRequired(rule, raw[rule.key]);
    if (f !== null) return [rule.key, f];
  }
  const sessionId = raw.session_id;
  if (sessionId !== undefined && sessionId !== null) {
    const f = SESSION_ID.check(sessionId);
    if (f !== null) return ['session_id', f];
  }
  const type = raw.type;
  if (type === undefined || type === null) return ['type', TYPE_REQUIRED];
  if (typeof type !== 'string') return ['type', TYPE_WRONG];
  if (!PAYLOAD_RULES.has(type)) return ['type', TYPE_UNKNOWN];
  const payload = raw.payload;
  if (payload !== undefined && payload !== null && !isObject(payload)) return ['payload', PAYLOAD_WRONG];
  return null;
}

/** Steps 4-5: the first fault, or the payload to store: the one sent when nothing changes (the usual
 * case), else a copy with defaults filled, countries canonical and null optionals dropped. */
function checkPayload(type: string, payload: Raw): [string, Fault] | { out: Raw } {
  let out: Raw | null = null;
  for (const rule of PAYLOAD_RULES.get(type) ?? []) {
    const value = payload[rule.key];
    if (value === undefined || value === null) {
      if (rule.required) return [rule.path, requiredFault(rule)];
      if (rule.default !== undefined) {
        out ??= { ...payload };
        out[rule.key] = rule.default;
      } else if (value === null) {
        out ??= { ...payload };
        delete out[rule.key];
      }
      continue;
    }
    const f = rule.check(value);
    if (f !== null) return [rule.path, f];
    if (rule.normalize !== null) {
      const canonical = rule.normalize(value as string);
      if (canonical !== value) {
        out ??= { ...payload };
        out[rule.key] = canonical;
      }
    }
  }
  if (type === 'custom' && RESERVED_NAMES.has((payload.name as string).trim().toLowerCase())) {
    return ['payload.name', RESERVED];
  }
  return { out: out ?? payload };
}

/** One event: the normalised event, or the one error for the first rule it breaks. */
export function validateEvent(raw: unknown, index: number): EventResult {
  if (!isObject(raw)) return reject(index, null, 'event', NOT_OBJECT);
  const idFault = checkRequired(EVENT_ID, raw.event_id);
  if (idFault !== null) return reject(index, null, 'event_id', idFault);
  const eventId = raw.event_id as string;
  const ts = readTs(raw.ts);
  if (ts !== null && !(ts instanceof Date)) return reject(index, eventId, 'ts', ts);
  const envelopeFault = checkEnvelope(raw);
  if (envelopeFault !== null) return reject(index, eventId, envelopeFault[0], envelopeFault[1]);

  const payload = isObject(raw.payload) ? raw.payload : {};
  const scan = scanPayload(payload);
  if (scan !== null) {
    const field = formatPath('payload', scan.segments);
    return reject(index, eventId, field, fault(scan.code, `${field} ${SCAN_MESSAGES[scan.code]}`));
  }
  const type = raw.type as EventType;
  const checked = checkPayload(type, payload);
  if (Array.isArray(checked)) return reject(index, eventId, checked[0], checked[1]);

  const sessionId = raw.session_id;
  const event: ValidEvent = {
    event_id: eventId,
    ts,
    platform: raw.platform as string,
    game_id: raw.game_id as string,
    player_id: raw.player_id as string,
    session_id: typeof sessionId === 'string' && sessionId !== '' ? sessionId : null,
    type,
    payload: checked.out,
  };
  return { ok: true, event };
}

/** Every event on its own: invalid ones are rejected alone, the rest go on (DECISIONS §8). */
export function validateBatch(events: readonly unknown[]): ValidatedBatch {
  const batch: ValidatedBatch = { valid: [], errors: [] };
  for (let index = 0; index < events.length; index++) {
    const result = validateEvent(events[index], index);
    if (result.ok) batch.valid.push({ index, event: result.event });
    else batch.errors.push(result.error);
  }
  return batch;
}
