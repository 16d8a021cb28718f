/**
 * Test-only: interface.md §6 restated as a table, written from the spec rather than from
 * schemas.ts, so the property tests check the implementation against an independent reading.
 * Bounds: string min/max are lengths in code points; number min/max are values.
 */
import fc from 'fast-check';

export type Kind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'country';
export interface FieldSpec {
  key: string;
  kind: Kind;
  required?: boolean;
  min?: number;
  max?: number;
  values?: readonly string[];
  default?: unknown;
  /** A string field that must be a fixed-choice key (§6: "never free text"). */
  fixedChoice?: boolean;
}

const s = (key: string, min = 0, max?: number, required = false): FieldSpec => ({
  key,
  kind: 'string',
  min,
  max,
  required,
});
const n = (key: string, min?: number, max?: number, required = false): FieldSpec => ({
  key,
  kind: 'number',
  min,
  max,
  required,
});
const country: FieldSpec = { key: 'country', kind: 'country' };

export const SPEC: Record<string, FieldSpec[]> = {
  session_start: [s('device'), s('os'), country, s('membership')],
  session_end: [n('duration_s', 0), s('reason'), country],
  purchase: [
    s('sku', 1, undefined, true),
    s('name'),
    { key: 'currency', kind: 'string', default: 'USD' },
    n('price', 0, undefined, true),
    { key: 'quantity', kind: 'integer', min: 1, default: 1 },
    {
      key: 'source',
      kind: 'enum',
      values: ['iap', 'gamepass', 'devproduct', 'subscription'],
      default: 'iap',
    },
    country,
  ],
  ad_impression: [
    { key: 'format', kind: 'enum', values: ['banner', 'interstitial', 'rewarded', 'native'], required: true },
    s('network', 1, 64, true),
    s('placement', 0, 64),
    n('revenue_usd', 0, undefined, true),
    n('ecpm', 0),
    country,
  ],
  level: [
    { key: 'level', kind: 'integer', min: 0, required: true },
    { key: 'score', kind: 'integer' },
    { key: 'result', kind: 'enum', values: ['win', 'loss', 'quit', 'complete'], default: 'complete' },
  ],
  custom: [s('name', 1, 128, true)],
  performance: [
    n('fps_avg', 0, 1000, true),
    n('fps_p5', 0, 1000),
    n('frame_time_ms_p95', 0, 10000),
    n('memory_mb', 0),
    s('gpu', 0, 128),
    s('device', 0, 64),
  ],
  crash: [s('stack_trace', 1, 16000, true), s('signature', 0, 255), s('build', 0, 64), s('os', 0, 64)],
  error: [
    { key: 'severity', kind: 'enum', values: ['warn', 'error', 'fatal'], required: true },
    s('message', 1, 2000, true),
    s('source', 0, 128),
  ],
  brand_zone_enter: [s('zone_id', 1, 64, true), country],
  brand_zone_exit: [s('zone_id', 1, 64, true), n('dwell_seconds', 0, 86400, true), country],
  equip: [s('item_id', 1, 64, true), s('item_name', 0, 128), country],
  share: [s('share_platform', 1, 32, true), s('item_id', 0, 64), country],
  brand_survey_shown: [s('survey_id', 1, 64, true), s('cohort', 0, 16), country],
  brand_survey_response: [
    s('survey_id', 1, 64, true),
    { ...s('answer', 1, 64, true), fixedChoice: true },
    { key: 'favorable', kind: 'boolean' },
    s('cohort', 0, 16),
    country,
  ],
};
export const TYPES = Object.keys(SPEC);
export const GUARDED = ['email', 'phone', 'phone_number', 'ssn', 'credit_card', 'cc_number'];

/** A few assigned codes, sent in mixed case (the service stores them upper-case). */
export const COUNTRIES = ['US', 'de', 'Gb', 'JP', 'BR', 'ph', 'ID', 'MX', 'AQ', 'ZW'];

/** Strings of code points (astral ones included), minus NUL, which the service refuses. */
export const text = (min: number, max: number): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ minLength: min, maxLength: Math.min(max, min + 24) }),
    fc
      .string({ unit: 'binary', minLength: min, maxLength: Math.min(max, min + 24) })
      .map((v) => v.replaceAll('\u0000', 'x')),
    fc.constant('😀'.repeat(max === Number.POSITIVE_INFINITY ? min + 3 : max)),
  );

/** Fixed-choice keys as a survey would send them: letters, digits, _ . : -, starting and ending with
 * a letter or digit. */
const KEY_ENDS = 'abcXYZ019'.split('');
const KEY_MIDDLE = 'aZ5_.:-'.split('');
export const answerKey: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...KEY_ENDS),
    fc.array(fc.constantFrom(...KEY_MIDDLE), { maxLength: 62 }),
    fc.option(fc.constantFrom(...KEY_ENDS), { nil: '' }),
  )
  .map(([head, middle, end]) => (end === '' ? head : head + middle.join('') + end));

export function fieldValue(f: FieldSpec): fc.Arbitrary<unknown> {
  const lo = f.min ?? -1e9;
  const hi = f.max ?? 1e9;
  switch (f.kind) {
    case 'string': {
      if (f.fixedChoice) return answerKey;
      const v = text(f.min ?? 0, f.max ?? Number.POSITIVE_INFINITY);
      // A custom event named after a standard type is the one mutation that must fail.
      return f.key === 'name' ? v.filter((x) => !TYPES.includes(x.trim().toLowerCase())) : v;
    }
    case 'number':
      return fc.oneof(
        fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true }),
        fc.constantFrom(lo, hi),
      );
    case 'integer':
      return fc.integer({ min: Math.max(lo, -1e9), max: Math.min(hi, 1e9) });
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...(f.values ?? []));
    case 'country':
      return fc.constantFrom(...COUNTRIES);
  }
}

const hasGuardedKey = (v: unknown): boolean =>
  typeof v === 'object' &&
  v !== null &&
  Object.entries(v).some(([k, x]) => GUARDED.includes(k.toLowerCase()) || hasGuardedKey(x));

/** Extra payload fields (prefixed so they never collide with a declared one). */
export const extras = fc
  .dictionary(
    fc.string({ minLength: 1, maxLength: 8 }).map((k) => `x_${k}`),
    fc.jsonValue({ maxDepth: 3 }),
    { maxKeys: 3 },
  )
  .filter((x) => !hasGuardedKey(x));

/** A valid payload of `type`: each optional field present or absent, plus extras. */
export function payloadFor(type: string): fc.Arbitrary<Record<string, unknown>> {
  const fields = SPEC[type] ?? [];
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const f of fields) record[f.key] = fieldValue(f);
  const requiredKeys = fields.filter((f) => f.required).map((f) => f.key);
  return fc
    .tuple(fc.record(record, { requiredKeys }), extras)
    .map(([declared, extra]) => ({ ...extra, ...declared }));
}

const isoDate = fc
  .date({
    min: new Date('0001-01-01T00:00:00Z'),
    max: new Date('9999-12-31T23:59:59.999Z'),
    noInvalidDate: true,
  })
  .chain((d) =>
    fc.constantFrom(
      d.toISOString(),
      d.toISOString().replace('Z', '+00:00'),
      d.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    ),
  );

export const envelope = fc.record(
  {
    event_id: text(8, 40),
    ts: isoDate,
    platform: fc.constantFrom('platform_1', 'platform_2', 'platform_3', 'platform_4'),
    game_id: text(1, 64),
    player_id: text(1, 128),
    session_id: text(0, 64),
  },
  { requiredKeys: ['event_id', 'platform', 'game_id', 'player_id'] },
);

/** A valid event of one type. */
export const eventOf = (type: string): fc.Arbitrary<Record<string, unknown>> =>
  fc.tuple(envelope, payloadFor(type)).map(([env, payload]) => ({ ...env, type, payload }));

export const validEvent = fc
  .constantFrom(...TYPES)
  .chain((type) => fc.tuple(envelope, payloadFor(type)).map(([env, payload]) => ({ ...env, type, payload })));
