import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  eventOf,
  type FieldSpec,
  GUARDED,
  SPEC,
  TYPES,
  validEvent,
} from '../../test/helpers/ingest-validate-spec.js';
import { validateEvent } from './validate.js';

type Raw = Record<string, unknown>;
type Mutation = { apply: (e: Raw) => Raw; field: string; code: string };

const RUNS = { numRuns: 400 };

/** The payload the service should store: declared values, defaults, canonical countries, extras. */
function expectedPayload(type: string, sent: Raw): Raw {
  const out: Raw = { ...sent };
  for (const f of SPEC[type] ?? []) {
    if (sent[f.key] === undefined && f.default !== undefined) out[f.key] = f.default;
    if (f.kind === 'country' && typeof sent[f.key] === 'string')
      out[f.key] = (sent[f.key] as string).toUpperCase();
  }
  return out;
}

const withPayload = (e: Raw, patch: Raw): Raw => ({ ...e, payload: { ...(e.payload as Raw), ...patch } });
const without = (o: Raw, key: string): Raw =>
  Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));

/** Every single-rule break of one declared payload field, with the error it must produce. */
function fieldMutations(f: FieldSpec): Mutation[] {
  const path = `payload.${f.key}`;
  const set = (v: unknown) => (e: Raw) => withPayload(e, { [f.key]: v });
  const m = (v: unknown, code: string): Mutation => ({ apply: set(v), field: path, code });
  const out: Mutation[] = [];
  if (f.required)
    out.push({
      apply: (e) => ({ ...e, payload: without(e.payload as Raw, f.key) }),
      field: path,
      code: 'required',
    });
  if (f.kind === 'string') {
    out.push(m(42, 'wrong_type'), m(['x'], 'wrong_type'));
    if ((f.min ?? 0) > 0) out.push(m('', 'too_short'));
    if (f.max !== undefined)
      out.push(m('a'.repeat(f.max + 1), 'too_long'), m('😀'.repeat(f.max + 1), 'too_long'));
    if (f.fixedChoice)
      out.push(
        m('I love it!', 'invalid_format'),
        m('_yes', 'invalid_format'),
        m('ja nein', 'invalid_format'),
      );
  }
  if (f.kind === 'number' || f.kind === 'integer') {
    out.push(m('12', 'wrong_type'), m(true, 'wrong_type'));
    if (f.min !== undefined) out.push(m(f.min - (f.kind === 'integer' ? 1 : 0.5), 'out_of_range'));
    if (f.max !== undefined) out.push(m(f.max + (f.kind === 'integer' ? 1 : 0.5), 'out_of_range'));
  }
  if (f.kind === 'number') out.push(m(Number.NaN, 'wrong_type'), m(Number.POSITIVE_INFINITY, 'wrong_type'));
  if (f.kind === 'integer') out.push(m(1.5, 'not_integer'));
  if (f.kind === 'boolean') out.push(m('true', 'wrong_type'), m(1, 'wrong_type'));
  if (f.kind === 'enum')
    out.push(
      m('not_a_value', 'not_allowed_value'),
      m(f.values?.[0]?.toUpperCase(), 'not_allowed_value'),
      m(3, 'wrong_type'),
    );
  if (f.kind === 'country') {
    for (const bad of ['ZZ', 'XK', 'UK', 'USA', 'U1', '', 'United States'])
      out.push(m(bad, 'invalid_country'));
    out.push(m(840, 'wrong_type'));
  }
  return out;
}

const env = (key: string, v: unknown, code: string): Mutation => ({
  apply: (e) => ({ ...e, [key]: v }),
  field: key,
  code,
});
const drop = (key: string): Mutation => ({ apply: (e) => without(e, key), field: key, code: 'required' });

const ENVELOPE_MUTATIONS: Mutation[] = [
  drop('event_id'),
  env('event_id', 'short', 'too_short'),
  env('event_id', 'e'.repeat(41), 'too_long'),
  env('event_id', 12345678, 'wrong_type'),
  env('ts', '2024-13-01T00:00:00Z', 'invalid_timestamp'),
  env('ts', '2023-02-29T00:00:00Z', 'invalid_timestamp'),
  env('ts', '2024-01-01T00:00:00+02:00', 'invalid_timestamp'),
  env('ts', '2024-01-01', 'invalid_timestamp'),
  env('ts', 'yesterday', 'invalid_timestamp'),
  env('ts', 1700000000, 'wrong_type'),
  drop('platform'),
  env('platform', 'platform_5', 'not_allowed_value'),
  env('platform', 'roblox', 'not_allowed_value'),
  drop('game_id'),
  env('game_id', '', 'too_short'),
  env('game_id', 'g'.repeat(65), 'too_long'),
  env('game_id', 7, 'wrong_type'),
  drop('player_id'),
  env('player_id', 'p'.repeat(129), 'too_long'),
  env('player_id', {}, 'wrong_type'),
  env('session_id', 's'.repeat(65), 'too_long'),
  env('session_id', 1, 'wrong_type'),
  drop('type'),
  env('type', 'login', 'unknown_type'),
  env('type', 'Purchase', 'unknown_type'),
  env('type', 3, 'wrong_type'),
  env('payload', [], 'wrong_type'),
  env('payload', 'x', 'wrong_type'),
];

const typed = (type: string): fc.Arbitrary<Raw> => eventOf(type);

/** Wraps `leaf` in `depth` levels of objects (or arrays of one object), returning the JSON path too. */
const nested = fc
  .tuple(fc.integer({ min: 1, max: 5 }), fc.constantFrom(...GUARDED), fc.boolean(), fc.emailAddress())
  .chain(([depth, key, upper, email]) => {
    const cased = [...key].map((c, i) => (i % 2 === 0 && upper ? c.toUpperCase() : c)).join('');
    return fc.array(fc.boolean(), { minLength: depth, maxLength: depth }).map((useArray) => {
      let value: unknown = { [cased]: email };
      let path = `.${cased}`;
      for (let i = depth - 1; i >= 1; i--) {
        value = useArray[i] ? [value] : { [`n${i}`]: value };
        path = useArray[i] ? `[0]${path}` : `.n${i}${path}`;
      }
      return { value, path: `payload.x_pii${path}`, email };
    });
  });

describe('validateEvent (properties)', () => {
  it('accepts every valid event, applying defaults and keeping extra payload fields', () => {
    fc.assert(
      fc.property(validEvent, (e) => {
        const r = validateEvent(e, 3);
        if (!r.ok) throw new Error(`rejected: ${JSON.stringify(r.error)}`);
        expect(r.event.event_id).toBe(e.event_id);
        expect(r.event.ts?.getTime() ?? null).toBe(e.ts === undefined ? null : new Date(e.ts).getTime());
        expect(r.event.session_id).toBe(
          e.session_id === undefined || e.session_id === '' ? null : e.session_id,
        );
        expect([r.event.platform, r.event.game_id, r.event.player_id, r.event.type]).toEqual([
          e.platform,
          e.game_id,
          e.player_id,
          e.type,
        ]);
        expect(r.event.payload).toEqual(expectedPayload(e.type, e.payload));
      }),
      RUNS,
    );
  });

  for (const type of TYPES) {
    it(`rejects each single-rule break of a ${type} event with its field and code`, () => {
      const mutations = [...ENVELOPE_MUTATIONS, ...(SPEC[type] ?? []).flatMap(fieldMutations)];
      fc.assert(
        fc.property(typed(type), fc.constantFrom(...mutations), (e, m) => {
          const r = validateEvent(m.apply(e), 9);
          expect(r.ok).toBe(false);
          if (r.ok) return;
          expect({ field: r.error.field, code: r.error.code }).toEqual({ field: m.field, code: m.code });
          expect(r.error.index).toBe(9);
          expect(r.error.event_id).toBe(m.field === 'event_id' ? null : e.event_id);
        }),
        { numRuns: 300 },
      );
    });
  }

  it('rejects a personal-data key at any depth and in any case, naming its path and never its value', () => {
    fc.assert(
      fc.property(validEvent, nested, (e, { value, path, email }) => {
        const r = validateEvent(withPayload(e, { x_pii: value }), 0);
        expect(r.ok).toBe(false);
        if (r.ok) return;
        expect({ field: r.error.field, code: r.error.code }).toEqual({ field: path, code: 'personal_data' });
        expect(JSON.stringify(r.error)).not.toContain(email);
      }),
      RUNS,
    );
  });

  it('rejects a custom event named after a standard type, in any case', () => {
    const reserved = fc
      .tuple(fc.constantFrom(...TYPES.filter((t) => t !== 'custom')), fc.boolean())
      .map(([t, up]) => (up ? t.toUpperCase() : `${t[0]?.toUpperCase()}${t.slice(1)}`));
    fc.assert(
      fc.property(typed('custom'), reserved, (e, name) => {
        const r = validateEvent(withPayload(e, { name }), 0);
        expect(r.ok ? null : [r.error.field, r.error.code]).toEqual(['payload.name', 'reserved_name']);
      }),
      { numRuns: 200 },
    );
  });

  it('never throws, whatever it is given', () => {
    const anything = fc.anything({
      withBoxedValues: true,
      withMap: true,
      withSet: true,
      withSparseArray: true,
      withNullPrototype: true,
      withBigInt: true,
      withDate: true,
      withTypedArray: true,
    });
    const slot = fc.constantFrom(
      'event_id',
      'ts',
      'platform',
      'game_id',
      'player_id',
      'session_id',
      'type',
      'payload',
    );
    fc.assert(
      fc.property(anything, (x) => typeof validateEvent(x, 0).ok === 'boolean'),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(
        validEvent,
        slot,
        anything,
        (e, key, x) => typeof validateEvent({ ...e, [key]: x }, 0).ok === 'boolean',
      ),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(
        validEvent,
        anything,
        (e, x) => typeof validateEvent(withPayload(e, { x_any: x, name: x, price: x }), 0).ok === 'boolean',
      ),
      { numRuns: 1000 },
    );
  });
});
