/**
 * The personal-data guard of §6 rule 2, plus the structural limits that make walking an arbitrary
 * payload safe: one pass over every key and value of the payload, at any depth (objects inside
 * arrays too). It stops at the first problem and reports its JSON path; the path names keys, never
 * values, so nothing the player typed reflects back.
 */

/** Keys that reject an event wherever they appear in its payload, compared case-insensitively. */
export const PERSONAL_DATA_KEYS: readonly string[] = [
  'email',
  'phone',
  'phone_number',
  'ssn',
  'credit_card',
  'cc_number',
];

const GUARDED = new Set(PERSONAL_DATA_KEYS);
/** Longest guarded key: longer keys skip the lower-casing entirely. */
const LONGEST_GUARDED = Math.max(...PERSONAL_DATA_KEYS.map((k) => k.length));

/** Nesting below the payload object beyond which an event is refused (no analytics event needs it). */
export const MAX_PAYLOAD_DEPTH = 32;
/** Keys plus array elements in one payload; bounds the walk even on pathological input. */
export const MAX_PAYLOAD_NODES = 10_000;

export type ScanCode = 'personal_data' | 'too_deep' | 'too_large' | 'invalid_characters';

export interface ScanFault {
  code: ScanCode;
  /** Path segments below `payload`: keys (strings) and array indexes (numbers). */
  segments: (string | number)[];
}

/** Whether Postgres text and jsonb can hold `s`: no U+0000 and no unpaired UTF-16 surrogate (jsonb
 * refuses the `\ud800` escape JSON.stringify writes for one, which would fail the whole batch). */
export function storableText(s: string): boolean {
  return !s.includes('\u0000') && (s as string & { isWellFormed(): boolean }).isWellFormed();
}

export function isPersonalDataKey(key: string): boolean {
  return key.length <= LONGEST_GUARDED && GUARDED.has(key.toLowerCase());
}

interface Walk {
  nodes: number;
}

/** Checks one value found at `depth`; returns the fault with its path built on the way back up. */
function scanValue(value: unknown, depth: number, walk: Walk): ScanFault | null {
  if (typeof value === 'string') {
    // Refuse the one event, not fail the whole batch at the insert.
    return storableText(value) ? null : { code: 'invalid_characters', segments: [] };
  }
  if (typeof value !== 'object' || value === null) return null;
  if (depth > MAX_PAYLOAD_DEPTH) return { code: 'too_deep', segments: [] };
  return Array.isArray(value) ? scanArray(value, depth, walk) : scanObject(value, depth, walk);
}

function scanArray(items: readonly unknown[], depth: number, walk: Walk): ScanFault | null {
  walk.nodes += items.length;
  if (walk.nodes > MAX_PAYLOAD_NODES) return { code: 'too_large', segments: [] };
  for (let i = 0; i < items.length; i++) {
    const fault = scanValue(items[i], depth + 1, walk);
    if (fault !== null) {
      fault.segments.push(i);
      return fault;
    }
  }
  return null;
}

function scanObject(object: object, depth: number, walk: Walk): ScanFault | null {
  const keys = Object.keys(object);
  walk.nodes += keys.length;
  if (walk.nodes > MAX_PAYLOAD_NODES) return { code: 'too_large', segments: [] };
  const record = object as Record<string, unknown>;
  for (const key of keys) {
    if (isPersonalDataKey(key)) return { code: 'personal_data', segments: [key] };
    if (!storableText(key)) return { code: 'invalid_characters', segments: [key] };
    const fault = scanValue(record[key], depth + 1, walk);
    if (fault !== null) {
      fault.segments.push(key);
      return fault;
    }
  }
  return null;
}

/**
 * The first problem in a payload object, or null. Keys are checked before the values below them,
 * in the payload's own key order, so the reported path is deterministic for a given JSON text.
 */
export function scanPayload(payload: object): ScanFault | null {
  const fault = scanObject(payload, 0, { nodes: 0 });
  // Segments were pushed innermost first, on the way back up.
  fault?.segments.reverse();
  return fault;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Longest key echoed in a path; a longer one is cut, so a huge key cannot bloat the response. */
const MAX_SEGMENT = 64;

/** "payload.profile.Email", "payload.items[2].phone", 'payload["two words"]'. */
export function formatPath(root: string, segments: readonly (string | number)[]): string {
  let path = root;
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (IDENTIFIER.test(segment) && segment.length <= MAX_SEGMENT) path += `.${segment}`;
    else
      path += `[${JSON.stringify(segment.length > MAX_SEGMENT ? `${segment.slice(0, MAX_SEGMENT)}…` : segment)}]`;
  }
  return path;
}
