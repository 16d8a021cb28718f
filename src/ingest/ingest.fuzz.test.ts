/**
 * Fuzzing POST /api/sdk/events on the real app (embedded PGlite): whatever the body, headers or
 * bytes, the endpoint answers below 500 — a refusal is 4xx `{detail, code}`, a batch is 200/202
 * with counts that add up. Strings reach the store from full Unicode, unpaired surrogates and NUL
 * included (Postgres text and jsonb refuse both; one such value once failed a whole batch with 500).
 *
 * The one 5xx by design, 503 quota_exceeded, depends on the team's usage and not on the body: the
 * keys here are on a plan whose quota these runs cannot use up, and the rate limit is lifted.
 *
 * A failing property prints its seed: `FC_SEED=<seed> npx vitest run src/ingest/ingest.fuzz.test.ts`
 * replays it (test/setup/fast-check.ts); FUZZ_SCALE=10 runs ten times as many cases.
 */
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { type IngestKey, ingestKey, postEvents, postGzip, sdkEvent } from '../../test/helpers/ingest.js';
import { eventOf, type FieldSpec, GUARDED, SPEC, TYPES } from '../../test/helpers/ingest-validate-spec.js';

type Raw = Record<string, unknown>;

/** fast-check's 'binary' unit leaves out surrogate halves, so units are built here: printable ASCII,
 * any code point, lone surrogates (a high and a low one side by side make a valid pair) and the
 * characters that trouble storage or JSON. */
const unit = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c)) },
  { weight: 2, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.constantFrom('\u0000', '\\', '"', '\u2028', '\ufeff', '\uffff', '😀') },
);
const wild = fc.string({ unit, maxLength: 16 });
const wildJson = fc.jsonValue({ maxDepth: 3, stringUnit: unit });

/** Characters HTTP allows in a field value (RFC 9110: HTAB, SP, VCHAR, obs-text). */
const headerChar = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
  { weight: 2, arbitrary: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.constant('\t') },
);
const headerValue = (maxLength: number) => fc.string({ unit: headerChar, maxLength });

const ENVELOPE_KEYS = ['event_id', 'ts', 'platform', 'game_id', 'player_id', 'session_id', 'type', 'payload'];

/** One change to an event: set `key` at the envelope or payload level to `value`, or drop it. */
interface Edit {
  at: 'envelope' | 'payload';
  key: string;
  value: unknown;
}
const DROP = Symbol('drop');

/**
 * Single-rule breaks of a declared payload field, read off the §6 table in test/helpers/ingest-validate-spec.ts.
 * (validate.property.test.ts keeps its exact mutation list, with expected codes, private to that
 * file; here only "invalid" matters, so the breaks are derived from the same table.)
 */
function ruleBreaks(f: FieldSpec): Edit[] {
  const set = (value: unknown): Edit => ({ at: 'payload', key: f.key, value });
  const out: Edit[] = [set('\ud800'), set('a\u0000b'), set({ nested: '\udfff' })];
  if (f.required) out.push(set(DROP));
  if (f.kind === 'string') {
    out.push(set(42), set(['x']), set(`ok\ud83d`));
    if ((f.min ?? 0) > 0) out.push(set(''));
    if (f.max !== undefined) out.push(set('a'.repeat(f.max + 1)), set('😀'.repeat(f.max + 1)));
  }
  if (f.kind === 'number' || f.kind === 'integer') {
    out.push(set('12'), set(true), set(1e308));
    if (f.min !== undefined) out.push(set(f.min - 1));
    if (f.max !== undefined) out.push(set(f.max + 1));
  }
  if (f.kind === 'integer') out.push(set(1.5));
  if (f.kind === 'boolean') out.push(set('true'), set(1));
  if (f.kind === 'enum') out.push(set('not_a_value'), set(f.values?.[0]?.toUpperCase()), set(3));
  if (f.kind === 'country') out.push(set('ZZ'), set('United States'), set(840), set('U\u0000'));
  return out;
}

const maybeDrop = fc.oneof(
  { weight: 4, arbitrary: wild as fc.Arbitrary<unknown> },
  { weight: 3, arbitrary: wildJson as fc.Arbitrary<unknown> },
  { weight: 1, arbitrary: fc.constant<unknown>(DROP) },
);

/** Edits for an event of `type`: an envelope or payload key (declared, personal-data or wild) set to a
 * wild value or dropped, or a rule break. */
function editFor(type: string): fc.Arbitrary<Edit> {
  const fields = SPEC[type] ?? [];
  const payloadKey = fc.oneof(fc.constantFrom(...fields.map((f) => f.key), ...GUARDED), wild);
  const breaks = fields.flatMap(ruleBreaks);
  return fc.oneof(
    fc.record({
      at: fc.constant('envelope' as const),
      key: fc.oneof(fc.constantFrom(...ENVELOPE_KEYS), wild),
      value: maybeDrop,
    }),
    fc.record({ at: fc.constant('payload' as const), key: payloadKey, value: maybeDrop }),
    ...(breaks.length ? [fc.constantFrom(...breaks)] : []),
  );
}

/** A batch element: a valid event of §6 (ts kept, or dropped so it is the receipt time and the event
 * can be stored) with 0 to 3 edits, or junk. */
type Element =
  | { kind: 'event'; event: Raw; keepTs: boolean; edits: Edit[] }
  | { kind: 'junk'; value: unknown };

const eventElement: fc.Arbitrary<Element> = fc.constantFrom(...TYPES).chain((type) =>
  fc.record({
    kind: fc.constant('event' as const),
    event: eventOf(type),
    keepTs: fc.boolean(),
    edits: fc.array(editFor(type), { maxLength: 3 }),
  }),
);
const element: fc.Arbitrary<Element> = fc.oneof(
  { weight: 6, arbitrary: eventElement },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('junk' as const), value: wildJson }) },
);
const batchArb = fc.record({
  elements: fc.array(element, { minLength: 1, maxLength: 12 }),
  repeatFirst: fc.boolean(),
});

function applyEdit(event: Raw, edit: Edit): Raw {
  const target = edit.at === 'envelope' ? event : { ...(event.payload as Raw) };
  if (edit.value === DROP) delete target[edit.key];
  else target[edit.key] = edit.value;
  if (edit.at === 'payload') event.payload = target;
  return event;
}

let runSeq = 0;
/** The events to send: each event gets a fresh event_id (so it is new) before its edits. */
function buildEvents(b: { elements: Element[]; repeatFirst: boolean }): unknown[] {
  const prefix = `fz${(++runSeq).toString(36)}-${Date.now().toString(36)}`;
  const events = b.elements.map((el, i) => {
    if (el.kind === 'junk') return el.value;
    const e: Raw = { ...el.event, event_id: `${prefix}-${i}` };
    if (!el.keepTs) delete e.ts;
    return el.edits.reduce(applyEdit, e);
  });
  if (b.repeatFirst) events.push(events[0]);
  return events;
}

/**
 * Whether a body holding `value` is one the server refuses whole as 400 invalid_json (README:
 * prototype-poisoning keys), whatever else it holds: an own `__proto__` key anywhere, or a
 * `constructor` key whose value is an object with a `prototype` key (Fastify's secure-json-parse
 * rules). fast-check's JSON values and strings produce both now and then; the value is read as the
 * server reads it, after a round trip through JSON text.
 */
function poisoned(value: unknown): boolean {
  const walk = (v: unknown): boolean => {
    if (v === null || typeof v !== 'object') return false;
    if (Object.hasOwn(v, '__proto__')) return true;
    const ctor: unknown = Object.hasOwn(v, 'constructor') ? (v as Raw).constructor : undefined;
    if (ctor !== null && typeof ctor === 'object' && Object.hasOwn(ctor, 'prototype')) return true;
    return Object.values(v).some(walk);
  };
  const text = JSON.stringify(value);
  return text !== undefined && walk(JSON.parse(text));
}

/** For a failure report: the value with every non-ASCII code unit escaped, so surrogates show. */
const show = (v: unknown): string =>
  (JSON.stringify(v, (_k, x) => (x === DROP ? '<dropped>' : x)) ?? String(v)).replace(
    /[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/** FUZZ_SCALE=10 multiplies every run count, for a longer hunt than the default ~20 s. */
const runs = (n: number): number => Math.max(1, Math.round(n * Number(process.env.FUZZ_SCALE ?? 1)));

const SETTLE_MS = 25;
/** Two turns of the event loop, or, when `long`, until `done` or SETTLE_MS. */
async function settle(done: () => boolean, long: boolean): Promise<void> {
  for (let i = 0; i < 2; i++) await new Promise((r) => setImmediate(r));
  const until = Date.now() + (long ? SETTLE_MS : 0);
  while (!done() && Date.now() < until) await new Promise((r) => setTimeout(r, 1));
}

/** Uncaught exceptions raised while this file runs, collected so that the property fails on (and
 * shrinks) the request that left one behind. */
const uncaught: unknown[] = [];
const onUncaught = (err: unknown) => uncaught.push(err);

describe('POST /api/sdk/events never answers 5xx (fuzz)', () => {
  let t: TestApp;
  let k: IngestKey;
  let readOnly: IngestKey;

  beforeAll(async () => {
    process.on('uncaughtException', onUncaught);
    t = await buildTestApp({
      env: {
        ENTITLEMENTS: JSON.stringify({
          anonymousRatePerMin: 100_000,
          apiKeyFailuresPerMin: 1_000_000,
          ingestBurst: 1_000_000,
          ingestPerSecond: 1_000_000,
        }),
      },
    });
    // The runs drive the writer themselves (flush after each async batch).
    await t.app.ingest.writer.stop();
    t.app.ingest.service.mode = 'sync';
    k = await ingestKey(t, { plan: 'Enterprise' });
    readOnly = await ingestKey(t, { plan: 'Enterprise', scopes: ['read'] });
  });
  afterAll(async () => {
    await t.close();
    process.off('uncaughtException', onUncaught);
  });

  /** The error lines the app logged for this request (or, if none names it, the first 500 line). */
  function serverErrorLog(res: LightMyRequestResponse): string {
    const id = res.headers['x-request-id'];
    const errorsLogged = t.logs.lines.filter((l) => /"level":(5\d|60)/.test(l));
    return (
      errorsLogged.find((l) => typeof id === 'string' && l.includes(`"reqId":"${id}"`)) ??
      errorsLogged[0] ??
      '(no error log line)'
    );
  }

  /**
   * Sends one request and checks the answer: below 500, and a refusal is JSON {detail, code}. Also
   * fails when the request leaves an uncaught exception behind (e.g. a stream error nobody listens
   * to after the answer), which would end a real server's process: such errors come from zlib's
   * thread pool a few ms after the answer, so a request with a Content-Encoding refused before its
   * body was read to the end waits up to SETTLE_MS for one. Throws with the input, the answer and the
   * app's error log line for the request.
   */
  async function send(
    request: () => Promise<LightMyRequestResponse>,
    input: () => unknown,
    encoded = false,
  ): Promise<LightMyRequestResponse> {
    const seen = uncaught.length;
    const res = await request();
    const fail = (what: string): never => {
      throw new Error(`${what}\ninput: ${show(input())}\nlog: ${serverErrorLog(res)}`);
    };
    // invalid_gzip / invalid_json: the body was read to its end or its error, nothing is left running.
    const unread = encoded && res.statusCode >= 400 && !/"code":"invalid_(gzip|json)"/.test(res.body);
    await settle(() => uncaught.length > seen, unread);
    if (uncaught.length > seen) {
      const err = uncaught[seen] as Error;
      fail(
        `answered ${res.statusCode} ${res.body}, then threw an uncaught exception (a server process would ` +
          `exit): ${err?.stack ?? String(err)}`,
      );
    }
    if (res.statusCode >= 500) fail(`answered ${res.statusCode} ${res.body}`);
    if (res.statusCode >= 400) {
      const body = res.json() as { detail?: unknown; code?: unknown };
      expect(typeof body.detail, res.body).toBe('string');
      expect(typeof body.code, res.body).toBe('string');
    }
    return res;
  }

  /** Empties the outbox (the queue). */
  async function discardQueued(): Promise<void> {
    await t.testDb.db.query('DELETE FROM ingest_outbox');
    await t.app.ingest.queue.refreshDepth();
  }

  async function storedCount(): Promise<number> {
    const r = await t.testDb.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM events WHERE team_id = $1',
      [k.teamId],
    );
    return Number(r.rows[0]?.n ?? 0);
  }

  /** Counts that add up to the batch, and errors that point into it. */
  function checkCounts(res: LightMyRequestResponse, events: unknown[]): void {
    const body = res.json() as {
      accepted: number;
      rejected: number;
      deduped: number;
      errors: { index: number; code: string }[];
    };
    expect(body.accepted + body.rejected + body.deduped, res.body).toBe(events.length);
    for (const e of body.errors) expect(e.index).toBeLessThan(events.length);
  }

  const keyArb = (): fc.Arbitrary<unknown> =>
    fc.oneof(
      fc.constant(k.key),
      fc.constant(readOnly.key),
      wild,
      wild.map((s) => `svc_live_${s}`),
      wild.map((s) => `${k.key}${s}`),
      fc.constantFrom(k.key.toUpperCase(), ` ${k.key} `, `${k.key}\u0000`, `${k.key.slice(0, -1)}\ud800`),
      wildJson,
    );

  it('property 1: any JSON value, or {api_key, events} of any shape, gets < 500 and errors as {detail, code}', async () => {
    t.app.ingest.service.mode = 'sync';
    await fc.assert(
      fc.asyncProperty(wildJson, async (body) => {
        await send(
          () => postEvents(t.app, JSON.stringify(body), { 'content-type': 'application/json' }),
          () => body,
        );
      }),
      { numRuns: runs(300) },
    );
    const shaped = fc.record(
      {
        api_key: keyArb(),
        events: fc.oneof(
          wildJson,
          fc.array(wildJson, { maxLength: 8 }),
          fc.array(fc.dictionary(fc.constantFrom(...ENVELOPE_KEYS), wildJson), { maxLength: 8 }),
        ),
        extra: wildJson,
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(shaped, async (body) => {
        const res = await send(
          () => postEvents(t.app, JSON.stringify(body), { 'content-type': 'application/json' }),
          () => body,
        );
        if ((res.statusCode === 200 || res.statusCode === 202) && Array.isArray(body.events)) {
          checkCounts(res, body.events);
        }
      }),
      { numRuns: runs(400) },
    );
  }, 60_000);

  for (const mode of ['sync', 'async'] as const) {
    it(`property 2 (${mode}): a batch of valid, broken and junk events with wild strings gets 200/202 (400 invalid_json when a key poisons prototypes), counts that add up, and stores what it accepts`, async () => {
      t.app.ingest.service.mode = mode;
      await fc.assert(
        fc.asyncProperty(batchArb, async (b) => {
          const events = buildEvents(b);
          const before = await storedCount();
          const res = await send(
            () => postEvents(t.app, { api_key: k.key, events }),
            () => events,
          );
          if (poisoned(events)) {
            // A forbidden key anywhere refuses the whole body, before any event is read.
            expect([res.statusCode, (res.json() as { code: string }).code], res.body).toEqual([
              400,
              'invalid_json',
            ]);
            expect(await storedCount()).toBe(before);
            return;
          }
          expect(mode === 'sync' ? [200] : [200, 202], res.body).toContain(res.statusCode);
          checkCounts(res, events);
          if (mode === 'async') {
            try {
              await t.app.ingest.writer.flush();
            } catch (err) {
              // Drop the batch the writer could not store, so it does not fail the later (shrinking) runs.
              await discardQueued();
              throw new Error(
                `writer.flush() threw ${(err as Error)?.stack ?? String(err)}\ninput: ${show(events)}`,
              );
            }
          }
          expect(await storedCount()).toBe(before + (res.json() as { accepted: number }).accepted);
        }),
        { numRuns: runs(250) },
      );
    }, 60_000);
  }

  /** A valid batch as JSON text, with a fresh event_id. */
  const validBody = (payload: Raw = { level: 1 }) =>
    JSON.stringify({
      api_key: k.key,
      events: [
        sdkEvent(0, { event_id: `fzv${(++runSeq).toString(36)}-${Date.now().toString(36)}`, payload }),
      ],
    });

  /** Byte-level damage to a buffer: overwrite, insert or cut at positions given as fractions. */
  const damage = fc.array(
    fc.record({
      op: fc.constantFrom('set', 'insert', 'cut'),
      at: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
      byte: fc.integer({ min: 0, max: 255 }),
    }),
    { minLength: 1, maxLength: 4 },
  );
  function damaged(buf: Buffer, edits: { op: string; at: number; byte: number }[]): Buffer {
    let out = buf;
    for (const e of edits) {
      const i = Math.floor(e.at * out.length);
      if (e.op === 'set') out = Buffer.concat([out.subarray(0, i), Buffer.of(e.byte), out.subarray(i + 1)]);
      else if (e.op === 'insert')
        out = Buffer.concat([out.subarray(0, i), Buffer.of(e.byte), out.subarray(i)]);
      else out = out.subarray(0, i);
    }
    return out;
  }

  const rawPost = (payload: Buffer, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/api/sdk/events', payload, headers });

  it('property 3: raw bytes as JSON, and gzip bodies (arbitrary, truncated, of invalid JSON), get < 500', async () => {
    t.app.ingest.service.mode = 'sync';
    const json = { 'content-type': 'application/json' };
    const gzip = { ...json, 'content-encoding': 'gzip' };
    // Bytes: arbitrary, or a valid batch damaged (so the JSON parser and the handler both get reached).
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
      damage.map((d) => damaged(Buffer.from(validBody()), d)),
      // A valid batch with raw bytes (invalid UTF-8, CESU-8 surrogates, NUL) inside a payload string.
      fc.uint8Array({ minLength: 1, maxLength: 8 }).map((a) => {
        const [head, tail] = validBody({ level: 1, x_raw: '@@' }).split('@@');
        return Buffer.concat([Buffer.from(head ?? ''), Buffer.from(a), Buffer.from(tail ?? '')]);
      }),
      fc.constantFrom(
        Buffer.from([0xed, 0xa0, 0x80]),
        Buffer.from('{"api_key":"x","events":[1]}\u0000'),
        Buffer.from([0xfe, 0xff, 0x00, 0x7b, 0x00, 0x7d]),
        Buffer.from('\ufeff{}'),
      ),
    );
    await fc.assert(
      fc.asyncProperty(bytes, async (buf) => {
        await send(
          () => rawPost(buf, json),
          () => buf.toString('hex'),
        );
      }),
      { numRuns: runs(300) },
    );
    const gz = fc.oneof(
      // gzip of arbitrary bytes, of damaged JSON, or of a JSON body with raw surrogate escapes.
      bytes.map((b) => ({ gzipped: false, body: b })),
      // A valid gzip body, truncated or damaged.
      damage.map((d) => ({ gzipped: true, body: damaged(gzipSync(validBody()), d) })),
      // Arbitrary bytes, with or without the gzip magic, sent as gzip.
      fc.tuple(fc.boolean(), fc.uint8Array({ maxLength: 200 })).map(([magic, a]) => ({
        gzipped: true,
        body: Buffer.concat([
          magic ? Buffer.from([0x1f, 0x8b, 0x08, 0x00]) : Buffer.alloc(0),
          Buffer.from(a),
        ]),
      })),
      // Two gzip members, or one with trailing garbage.
      fc.uint8Array({ maxLength: 20 }).map((a) => ({
        gzipped: true,
        body: Buffer.concat([gzipSync(validBody()), a.length % 2 ? gzipSync('{}') : Buffer.from(a)]),
      })),
    );
    await fc.assert(
      fc.asyncProperty(gz, async ({ gzipped, body }) => {
        await send(
          () => (gzipped ? rawPost(body, gzip) : postGzip(t.app, body)),
          () => ({ gzipped, body: body.toString('hex') }),
          true,
        );
      }),
      { numRuns: runs(300) },
    );
  }, 60_000);

  it('property 4: odd X-Svc-SDK-Version, Content-Type, Content-Encoding and Accept headers get < 500', async () => {
    t.app.ingest.service.mode = 'sync';
    const contentType = fc.oneof(
      fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'application/json; charset=UTF-16',
        'application/json; charset=latin1',
        'application/json; charset=',
        'APPLICATION/JSON',
        'application/json;',
        'application/json;;',
        'application/json; foo=bar; foo=baz',
        'application/json, text/plain',
        'application/vnd.api+json',
        'application/*',
        '*/*',
        'text/json',
        'text/plain',
        'text/plain; charset=utf-8',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'multipart/form-data',
        'application/octet-stream',
        'application',
        ';',
        '',
      ),
      headerValue(40),
    );
    const contentEncoding = fc.oneof(
      fc.constantFrom(
        undefined,
        'gzip',
        'GZIP',
        ' gzip ',
        'x-gzip',
        'identity',
        '',
        'br',
        'deflate',
        'gzip, identity',
        'gzip, gzip',
      ),
      headerValue(20),
    );
    const headers = fc.record({
      sdkVersion: fc.option(headerValue(100), { nil: undefined }),
      contentType,
      contentEncoding,
      accept: fc.option(
        fc.oneof(fc.constantFrom('text/html', 'application/xml', '*/*', ''), headerValue(30)),
        {
          nil: undefined,
        },
      ),
      gzipBody: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(headers, async (h) => {
        const text = validBody();
        const sent: Record<string, string> = { 'content-type': h.contentType };
        if (h.sdkVersion !== undefined) sent['x-svc-sdk-version'] = h.sdkVersion;
        if (h.contentEncoding !== undefined) sent['content-encoding'] = h.contentEncoding;
        if (h.accept !== undefined) sent.accept = h.accept;
        const res = await send(
          () => rawPost(h.gzipBody ? gzipSync(text) : Buffer.from(text), sent),
          () => h,
          h.contentEncoding !== undefined,
        );
        if (res.statusCode === 200) checkCounts(res, [null]);
      }),
      { numRuns: runs(300) },
    );
  }, 60_000);
});
