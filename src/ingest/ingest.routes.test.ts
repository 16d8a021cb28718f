import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { bearer, signedIn } from '../../test/helpers/auth.js';
import { testEngines } from '../../test/helpers/db.js';
import {
  type IngestKey,
  ingestKey,
  postEvents,
  postGzip,
  sdkEvent,
  sdkEvents,
  storedEvents,
} from '../../test/helpers/ingest.js';

describe.each(testEngines())('POST /api/sdk/events, sync mode (%s)', (engine) => {
  let t: TestApp;
  let k: IngestKey;

  beforeAll(async () => {
    t = await buildTestApp({ engine });
    await t.app.ingest.writer.stop();
    k = await ingestKey(t);
  });
  afterAll(() => t.close());
  beforeEach(() => {
    t.app.ingest.service.mode = 'sync';
  });

  it('refuses a body without api_key with 401 api_key_missing, even with an Authorization header', async () => {
    const s = await signedIn(t);
    const res = await postEvents(t.app, { events: [sdkEvent(1)] }, { ...bearer(s), 'x-api-key': k.key });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: 'The request body must carry api_key.', code: 'api_key_missing' });
    expect((await postEvents(t.app, { api_key: '', events: [sdkEvent(1)] })).json()).toMatchObject({
      code: 'api_key_missing',
    });
  });

  it('refuses an unknown or revoked key with 401 api_key_invalid', async () => {
    const unknown = await postEvents(t.app, { api_key: 'svc_nope', events: [sdkEvent(1)] });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toMatchObject({ code: 'api_key_invalid' });
    const other = await ingestKey(t);
    await t.accounts.apiKeys.revoke(other.teamId, other.keyId);
    const revoked = await postEvents(t.app, { api_key: other.key, events: [sdkEvent(1)] });
    expect([revoked.statusCode, revoked.json().code]).toEqual([401, 'api_key_invalid']);
  });

  it('refuses a read-only key with 403 insufficient_scope and accepts an ingest:telemetry key', async () => {
    const read = await ingestKey(t, { scopes: ['read'] });
    const res = await postEvents(t.app, { api_key: read.key, events: [sdkEvent(1)] });
    expect([res.statusCode, res.json().code]).toEqual([403, 'insufficient_scope']);
    const telemetry = await ingestKey(t, { scopes: ['ingest:telemetry'] });
    const ok = await postEvents(t.app, { api_key: telemetry.key, events: [sdkEvent(1)] });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ accepted: 1, rejected: 0, deduped: 0, errors: [] });
  });

  it('answers 200 with X-Svc-Ingest-Mode: sync and stores the events with key, SDK version and receipt time', async () => {
    const own = await ingestKey(t);
    const before = Date.now();
    const res = await postEvents(
      t.app,
      { api_key: own.key, events: [sdkEvent(1, { ts: '2026-01-01T00:00:00Z' }), sdkEvent(2)] },
      { 'x-svc-sdk-version': 'roblox-lua/1.4.2' },
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-svc-ingest-mode']).toBe('sync');
    expect(res.json()).toEqual({ accepted: 2, rejected: 0, deduped: 0, errors: [] });
    const rows = await storedEvents(t, own.teamId);
    expect(rows.map((r) => [r.event_id, r.sdk_version, r.key_id])).toEqual([
      ['evt-00000001', 'roblox-lua/1.4.2', own.keyId],
      ['evt-00000002', 'roblox-lua/1.4.2', own.keyId],
    ]);
    expect(rows[0]!.ts.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    // ts omitted: the time of receipt.
    expect(rows[1]!.ts.getTime()).toBe(rows[1]!.received_at.getTime());
    expect(rows[1]!.received_at.getTime()).toBeGreaterThanOrEqual(before - 1);
  });

  it('rejects invalid events alone, counting them in rejected with one error each', async () => {
    const own = await ingestKey(t);
    const events = [
      sdkEvent(1),
      sdkEvent(2, { type: 'teleport' }),
      sdkEvent(3, { type: 'custom', payload: { name: 'quest', Email: 'x@example.com' } }),
      sdkEvent(4, { ts: '2019-01-01T00:00:00Z' }),
      sdkEvent(5),
    ];
    const res = await postEvents(t.app, { api_key: own.key, events });
    const body = res.json();
    expect(res.statusCode).toBe(200);
    expect([body.accepted, body.rejected, body.deduped]).toEqual([2, 3, 0]);
    expect(body.errors.map((e: { index: number; code: string }) => [e.index, e.code])).toEqual([
      [1, 'unknown_type'],
      [2, 'personal_data'],
      [3, 'out_of_range'],
    ]);
    expect(JSON.stringify(body)).not.toContain('x@example.com');
    expect((await storedEvents(t, own.teamId)).map((r) => r.event_id)).toEqual([
      'evt-00000001',
      'evt-00000005',
    ]);
  });

  it('dedupes a replayed batch and repeats inside a batch', async () => {
    const own = await ingestKey(t);
    const events = [...sdkEvents(1, 5), sdkEvent(3)];
    const first = await postEvents(t.app, { api_key: own.key, events });
    expect(first.json()).toEqual({ accepted: 5, rejected: 0, deduped: 1, errors: [] });
    const replay = await postEvents(t.app, { api_key: own.key, events });
    expect(replay.json()).toEqual({ accepted: 0, rejected: 0, deduped: 6, errors: [] });
    expect(await storedEvents(t, own.teamId)).toHaveLength(5);
    // Idempotency is per team: another team's identical ids are new.
    const other = await ingestKey(t);
    expect((await postEvents(t.app, { api_key: other.key, events })).json().accepted).toBe(5);
  });

  it('stores each event once when 20 identical batches arrive at the same time', async () => {
    const own = await ingestKey(t);
    const events = sdkEvents(100, 25);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => postEvents(t.app, { api_key: own.key, events })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    const bodies = answers.map((a) => a.json() as { accepted: number; deduped: number });
    for (const b of bodies) expect(b.accepted + b.deduped).toBe(25);
    expect(bodies.reduce((s, b) => s + b.accepted, 0)).toBe(25);
    expect(bodies.reduce((s, b) => s + b.deduped, 0)).toBe(19 * 25);
    expect(await storedEvents(t, own.teamId)).toHaveLength(25);
  });

  it('answers more than 500 events with 413 batch_too_large and none with 422', async () => {
    const big = await postEvents(t.app, { api_key: k.key, events: sdkEvents(1, 501) });
    expect([big.statusCode, big.json().code]).toEqual([413, 'batch_too_large']);
    const none = await postEvents(t.app, { api_key: k.key, events: [] });
    expect([none.statusCode, none.json().code, none.json().field]).toEqual([
      422,
      'validation_failed',
      'body.events',
    ]);
    const notArray = await postEvents(t.app, { api_key: k.key });
    expect([notArray.statusCode, notArray.json().field]).toEqual([422, 'body.events']);
  });

  it('answers a body over 1 MiB with 413 payload_too_large', async () => {
    const res = await postEvents(t.app, {
      api_key: k.key,
      events: [sdkEvent(1)],
      pad: 'x'.repeat(1024 * 1024),
    });
    expect([res.statusCode, res.json().code]).toEqual([413, 'payload_too_large']);
  });

  it('accepts a gzip body, and refuses a zip bomb (413), broken gzip (400) and other encodings (415)', async () => {
    const own = await ingestKey(t);
    const ok = await postGzip(t.app, JSON.stringify({ api_key: own.key, events: sdkEvents(1, 3) }));
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ accepted: 3, rejected: 0, deduped: 0, errors: [] });
    const bomb = JSON.stringify({
      api_key: own.key,
      events: [sdkEvent(9)],
      pad: ' '.repeat(8 * 1024 * 1024),
    });
    const big = await postGzip(t.app, bomb);
    expect([big.statusCode, big.json().code]).toEqual([413, 'payload_too_large']);
    const broken = await t.app.inject({
      method: 'POST',
      url: '/api/sdk/events',
      payload: Buffer.from('not gzip at all'),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expect([broken.statusCode, broken.json().code]).toEqual([400, 'invalid_gzip']);
    const br = await t.app.inject({
      method: 'POST',
      url: '/api/sdk/events',
      payload: '{}',
      headers: { 'content-type': 'application/json', 'content-encoding': 'br' },
    });
    expect([br.statusCode, br.json().code]).toEqual([415, 'unsupported_media_type']);
    expect(await storedEvents(t, own.teamId)).toHaveLength(3);
  });

  it('never logs the api key or a payload', async () => {
    const own = await ingestKey(t);
    await postEvents(t.app, { api_key: own.key, events: [sdkEvent(1, { payload: { level: 424242 } })] });
    expect(t.logs.text).not.toContain(own.key);
    expect(t.logs.text).not.toContain('424242');
  });
});
