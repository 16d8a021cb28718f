import fc from 'fast-check';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { validEvent } from '../../test/helpers/ingest-validate-spec.js';
import { EnvelopeSchema, PAYLOAD_SCHEMAS } from './schemas.js';
import { parseUtcTimestamp } from './timestamp.js';
import type { EventType } from './types.js';
import { PERSONAL_DATA_KEYS, validateBatch, validateEvent } from './validate.js';

const base = {
  event_id: 'evt-0000001',
  ts: '2025-03-01T12:00:00.250Z',
  platform: 'platform_1',
  game_id: '1818',
  player_id: 'a94a8fe5ccb19ba6',
  session_id: 'sess-42',
};
const ev = (type: string, payload?: unknown, extra: Record<string, unknown> = {}) => ({
  ...base,
  type,
  payload,
  ...extra,
});

function accepted(raw: unknown) {
  const r = validateEvent(raw, 0);
  if (!r.ok) throw new Error(`rejected: ${JSON.stringify(r.error)}`);
  return r.event;
}
function rejected(raw: unknown, index = 0) {
  const r = validateEvent(raw, index);
  if (r.ok) throw new Error('accepted');
  return r.error;
}

describe('the payload an accepted event stores', () => {
  it('is the one sent when no rule changes it, and a copy when a default, a null or a country does (the sent one untouched)', () => {
    const plain = { level: 3, score: 10, result: 'win' };
    expect(accepted(ev('level', plain)).payload).toBe(plain);

    const sent = { sku: 'gems_100', price: 0.99, currency: null, country: 'br' };
    const before = structuredClone(sent);
    expect(accepted(ev('purchase', sent)).payload).toEqual({
      sku: 'gems_100',
      price: 0.99,
      currency: 'USD',
      country: 'BR',
      quantity: 1,
      source: 'iap',
    });
    expect(sent).toEqual(before);

    const withNull = { level: 3, score: null };
    expect(accepted(ev('level', withNull)).payload).toEqual({ level: 3, result: 'complete' });
    expect(withNull).toEqual({ level: 3, score: null });
  });
});

describe('validateEvent: accepted events', () => {
  it('fills purchase defaults and keeps the envelope', () => {
    expect(accepted(ev('purchase', { sku: 'sword_1', price: 99 }))).toEqual({
      event_id: 'evt-0000001',
      ts: new Date('2025-03-01T12:00:00.250Z'),
      platform: 'platform_1',
      game_id: '1818',
      player_id: 'a94a8fe5ccb19ba6',
      session_id: 'sess-42',
      type: 'purchase',
      payload: { sku: 'sword_1', price: 99, currency: 'USD', quantity: 1, source: 'iap' },
    });
  });

  it('keeps sent values over defaults, stores the country upper-case', () => {
    const p = {
      sku: 'vip',
      price: 0,
      currency: 'ROBUX',
      quantity: 3,
      source: 'gamepass',
      country: 'de',
      name: 'VIP',
    };
    expect(accepted(ev('purchase', p)).payload).toEqual({ ...p, country: 'DE' });
  });

  it('defaults a level result to complete and accepts level 0', () => {
    expect(accepted(ev('level', { level: 0 })).payload).toEqual({ level: 0, result: 'complete' });
    expect(accepted(ev('level', { level: 7, score: -20, result: 'loss' })).payload).toEqual({
      level: 7,
      score: -20,
      result: 'loss',
    });
  });

  it('treats an omitted ts, session_id or payload as absent', () => {
    const e = accepted({
      event_id: 'evt-0000002',
      platform: 'platform_3',
      game_id: 'g',
      player_id: 'p',
      type: 'session_start',
    });
    expect(e).toMatchObject({ ts: null, session_id: null, payload: {} });
  });

  it('treats null optional fields as absent: defaults apply, nulls are not stored', () => {
    const e = accepted(
      ev('purchase', { sku: 's', price: 1, currency: null, country: null }, { ts: null, session_id: '' }),
    );
    expect(e.payload).toEqual({ sku: 's', price: 1, currency: 'USD', quantity: 1, source: 'iap' });
    expect([e.ts, e.session_id]).toEqual([null, null]);
  });

  it('keeps extra fields of a custom event, nested ones included', () => {
    const p = { name: 'tutorial_step', step: 2, meta: { path: ['a', { b: null }], ok: true } };
    expect(accepted(ev('custom', p)).payload).toEqual(p);
  });

  it('accepts boundary values of every bounded field', () => {
    accepted(
      ev('performance', {
        fps_avg: 1000,
        fps_p5: 0,
        frame_time_ms_p95: 10000,
        gpu: 'g'.repeat(128),
        device: 'd'.repeat(64),
      }),
    );
    accepted(ev('brand_zone_exit', { zone_id: 'z'.repeat(64), dwell_seconds: 86400, country: 'AQ' }));
    accepted(ev('crash', { stack_trace: 's'.repeat(16000), signature: 'x'.repeat(255) }));
    accepted(ev('error', { severity: 'fatal', message: '😀'.repeat(2000), source: 'Client' }));
    accepted(
      ev('share', { share_platform: 'p'.repeat(32), item_id: 'i'.repeat(64) }, { event_id: 'e'.repeat(40) }),
    );
    accepted(
      ev('brand_survey_response', {
        survey_id: 's1',
        answer: 'yes',
        favorable: false,
        cohort: 'c'.repeat(16),
      }),
    );
    accepted(
      ev('ad_impression', { format: 'rewarded', network: 'n', placement: '', revenue_usd: 0, ecpm: 0 }),
    );
  });

  it('validates a batch per event, rejecting the bad ones alone', () => {
    const batch = validateBatch([
      ev('session_end', { duration_s: 30 }),
      'nope',
      ev('level', {}),
      ev('equip', { item_id: 'hat' }),
    ]);
    expect(batch.valid.map((v) => v.index)).toEqual([0, 3]);
    expect(batch.errors).toEqual([
      {
        index: 1,
        event_id: null,
        field: 'event',
        code: 'wrong_type',
        message: 'event must be a JSON object',
      },
      {
        index: 2,
        event_id: 'evt-0000001',
        field: 'payload.level',
        code: 'required',
        message: 'payload.level is required',
      },
    ]);
  });
});

describe('validateEvent: rejected events', () => {
  it('rejects a personal-data key without echoing its value', () => {
    const error = rejected(
      ev('custom', { name: 'signup', profile: [{ ok: 1 }, { Email: 'alice@example.com' }] }),
      4,
    );
    expect(error).toEqual({
      index: 4,
      event_id: 'evt-0000001',
      field: 'payload.profile[1].Email',
      code: 'personal_data',
      message: 'payload.profile[1].Email is a personal-data key; send hashed or no personal data',
    });
    expect(JSON.stringify(error)).not.toContain('alice');
  });

  it('never echoes a rejected value, nor an invalid event_id', () => {
    const secret = 'hunter2-secret-value';
    for (const raw of [
      ev('error', { severity: secret, message: 'm' }),
      ev('crash', { stack_trace: secret, os: secret.repeat(10) }),
      ev('equip', { item_id: 'x', country: secret }),
      { ...ev('share', { share_platform: 'x' }), event_id: `${secret}${secret}${secret}` },
    ]) {
      expect(JSON.stringify(rejected(raw))).not.toContain(secret);
    }
  });

  it('names the first failing rule: envelope before payload, in table order', () => {
    expect(rejected({ ...ev('nope', { email: 'x' }), platform: 'x' }).field).toBe('platform');
    expect(rejected(ev('nope', { email: 'x' })).code).toBe('unknown_type');
    expect(rejected(ev('purchase', { price: -1, Phone: '1' })).field).toBe('payload.Phone');
    expect(rejected(ev('purchase', { price: -1 })).field).toBe('payload.sku');
    expect(rejected(ev('purchase')).field).toBe('payload.sku');
  });

  it('refuses reserved custom names, trimmed and in any case', () => {
    expect(rejected(ev('custom', { name: ' Session_Start ' })).code).toBe('reserved_name');
    expect(accepted(ev('custom', { name: 'custom' })).payload).toEqual({ name: 'custom' });
  });

  it('refuses payloads nested too deep without overflowing the stack', () => {
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    const error = rejected(ev('custom', { name: 'n', deep }));
    expect(error.code).toBe('too_deep');
    expect(error.field).toBe(`payload${'.d'.repeat(33)}`.replace('.d', '.deep'));
    let ok: unknown = {};
    for (let i = 0; i < 31; i++) ok = { d: ok };
    accepted(ev('custom', { name: 'n', ok }));
  });

  it('refuses huge payloads, NUL characters and unpaired surrogates', () => {
    const big = Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [`k${i}`, i]));
    expect(rejected(ev('custom', { name: 'n', big })).code).toBe('too_large');
    expect(rejected(ev('custom', { name: 'n', list: ['a', 'b\u0000'] }))).toMatchObject({
      field: 'payload.list[1]',
      code: 'invalid_characters',
    });
    expect(rejected(ev('custom', { name: 'n', 'a\u0000': 1 })).code).toBe('invalid_characters');
    expect(rejected({ ...ev('session_start', {}), game_id: 'g\u0000' })).toMatchObject({
      field: 'game_id',
      code: 'invalid_characters',
    });
    // jsonb refuses the escape JSON.stringify writes for a lone surrogate: one event, not the batch.
    expect(rejected(ev('custom', { name: 'n', note: 'a\ud800' }))).toMatchObject({
      field: 'payload.note',
      code: 'invalid_characters',
    });
    expect(rejected(ev('custom', { name: 'n', '\udc00': 1 })).code).toBe('invalid_characters');
    expect(rejected({ ...ev('level', { level: 1 }), player_id: 'p\udc00' }).field).toBe('player_id');
    accepted(ev('custom', { name: 'n', note: 'emoji \ud83c\udfae ok' }));
  });

  it('quotes odd keys in paths and cuts long ones', () => {
    expect(rejected(ev('custom', { name: 'n', 'two words': { SSN: 1 } })).field).toBe(
      'payload["two words"].SSN',
    );
    const long = 'k'.repeat(500);
    expect(rejected(ev('custom', { name: 'n', [long]: { ssn: 1 } })).field).toBe(
      `payload["${'k'.repeat(64)}…"].ssn`,
    );
  });

  it('refuses a survey answer that is free text rather than a fixed-choice key', () => {
    const answer = (a: unknown) => ev('brand_survey_response', { survey_id: 's1', answer: a });
    for (const key of ['yes', 'very_likely', '5', 'q1.a:2-b', 'a__b', 'A'.repeat(64)]) accepted(answer(key));
    for (const text of [
      'I love this brand',
      'yes!',
      'no.',
      '_hidden',
      '-1',
      'ja nein',
      'très',
      'a,b',
      'ok-',
    ]) {
      expect(rejected(answer(text))).toEqual({
        index: 0,
        event_id: 'evt-0000001',
        field: 'payload.answer',
        code: 'invalid_format',
        message: 'payload.answer must match ^[A-Za-z0-9](?:[A-Za-z0-9_.:-]*[A-Za-z0-9])?$',
      });
    }
    // Length rules come first: a 65-character key is too long, an empty one too short.
    expect(rejected(answer('a'.repeat(65))).code).toBe('too_long');
    expect(rejected(answer('')).code).toBe('too_short');
  });

  it('refuses a non-string, non-UTC or impossible ts', () => {
    for (const ts of [
      '2024-02-30T00:00:00Z',
      '2024-01-01T00:00:00.000+01:00',
      '2024-01-01T00:00:00',
      '2024-01-01T00:00:60Z',
    ]) {
      expect(rejected(ev('session_start', {}, { ts }))).toMatchObject({
        field: 'ts',
        code: 'invalid_timestamp',
      });
    }
  });
});

describe('parseUtcTimestamp', () => {
  it('reads Z and +00:00, 1 to 9 fraction digits, leap days', () => {
    expect(parseUtcTimestamp('2024-02-29T23:59:59Z')?.toISOString()).toBe('2024-02-29T23:59:59.000Z');
    expect(parseUtcTimestamp('2000-01-01T00:00:00.5+00:00')?.toISOString()).toBe('2000-01-01T00:00:00.500Z');
    expect(parseUtcTimestamp('1999-12-31T23:59:59.123456789Z')?.toISOString()).toBe(
      '1999-12-31T23:59:59.123Z',
    );
    expect(parseUtcTimestamp('0050-06-01T00:00:00Z')?.toISOString()).toBe('0050-06-01T00:00:00.000Z');
    for (const bad of [
      '1900-02-29T00:00:00Z',
      '2024-01-01T24:00:00Z',
      '2024-01-01t00:00:00z',
      '2024-01-01T00:00:00.Z',
      '2024-01-01T00:00:00-00:00',
    ]) {
      expect(parseUtcTimestamp(bad)).toBeNull();
    }
  });

  it('agrees with Date on every instant it prints', () => {
    const instant = fc.date({
      min: new Date('0001-01-01T00:00:00Z'),
      max: new Date('9999-12-31T23:59:59.999Z'),
      noInvalidDate: true,
    });
    fc.assert(fc.property(instant, (d) => parseUtcTimestamp(d.toISOString())?.getTime() === d.getTime()));
  });
});

describe('schemas', () => {
  it('lists the guarded personal-data keys', () => {
    expect(PERSONAL_DATA_KEYS).toEqual(['email', 'phone', 'phone_number', 'ssn', 'credit_card', 'cc_number']);
  });

  it('agree with TypeBox: every generated valid event passes the published schemas', () => {
    fc.assert(
      fc.property(validEvent, (e) => {
        const type = e.type as EventType;
        return Value.Check(EnvelopeSchema, e) && Value.Check(PAYLOAD_SCHEMAS[type], e.payload);
      }),
      { numRuns: 300 },
    );
  });
});
