import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { ingestKey, sdkEvent } from '../../test/helpers/ingest.js';
import { fixedClock } from '../clock.js';
import { memoryKv } from '../kv/index.js';

const BAD_IP = '203.0.113.9';
const OTHER_IP = '198.51.100.20';
const BAD_KEY = `svc_live_${'x'.repeat(43)}`;
const BLOCKED = {
  detail: 'Too many requests with an invalid API key from this address; wait before trying again.',
  code: 'rate_limited',
};

/** An app (sync ingest) whose clock the test moves, counting the API-key lookups its database sees. */
async function appAt(start: string) {
  const clock = fixedClock(start);
  const kv = memoryKv(() => clock.now().getTime());
  const t = await buildTestApp({
    clock,
    kv,
    env: { ENTITLEMENTS: JSON.stringify({ apiKeyFailuresPerMin: 20, anonymousRatePerMin: 100_000 }) },
  });
  await t.app.ingest.writer.stop();
  t.app.ingest.service.mode = 'sync';
  const lookups = { count: 0 };
  const query = t.testDb.db.query.bind(t.testDb.db);
  t.testDb.db.query = ((sql: string, params?: readonly unknown[]) => {
    if (/FROM api_keys k\s+JOIN teams/.test(sql)) lookups.count += 1;
    return query(sql, params);
  }) as typeof t.testDb.db.query;
  return { t, clock, kv, lookups };
}

function ingestFrom(t: TestApp, remoteAddress: string, apiKey: string, n = 1) {
  return t.app.inject({
    method: 'POST',
    url: '/api/sdk/events',
    remoteAddress,
    payload: { api_key: apiKey, events: [sdkEvent(n)] },
  });
}

const summary = (res: LightMyRequestResponse) => [res.statusCode, (res.json() as { code?: string }).code];

describe('failed API-key lookups per IP', () => {
  it('at ingest: after 20 unknown keys the address gets 429 without a lookup; other addresses are served', async () => {
    const { t, clock, kv, lookups } = await appAt('2026-06-01T10:00:00Z');
    try {
      const good = await ingestKey(t);
      lookups.count = 0;
      const answers: number[] = [];
      for (let i = 0; i < 150; i++) answers.push((await ingestFrom(t, BAD_IP, BAD_KEY)).statusCode);
      expect(answers.slice(0, 20)).toEqual(Array(20).fill(401));
      expect(answers.slice(20)).toEqual(Array(130).fill(429));
      expect(lookups.count).toBe(20);

      const blocked = await ingestFrom(t, BAD_IP, good.key, 1);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.headers['retry-after']).toBe('60');
      expect(blocked.json()).toEqual(BLOCKED);
      expect(summary(await ingestFrom(t, OTHER_IP, good.key, 2))).toEqual([200, undefined]);

      clock.advance(60_000);
      expect(summary(await ingestFrom(t, BAD_IP, good.key, 3))).toEqual([200, undefined]);
    } finally {
      await t.close();
      await kv.close();
    }
  });

  it('on the read API: X-API-Key failures block the address, not other addresses or anonymous reads', async () => {
    const { t, kv, lookups } = await appAt('2026-06-01T10:00:00Z');
    try {
      const reader = await ingestKey(t, { scopes: ['read'] });
      lookups.count = 0;
      const read = (remoteAddress: string, key: string) =>
        t.app.inject({ url: '/api/trending', remoteAddress, headers: { 'x-api-key': key } });
      for (let i = 0; i < 20; i++) {
        expect(summary(await read(BAD_IP, BAD_KEY))).toEqual([401, 'api_key_invalid']);
      }
      const over = await read(BAD_IP, BAD_KEY);
      expect(over.statusCode).toBe(429);
      expect(over.headers['retry-after']).toBe('60');
      expect(over.json()).toEqual(BLOCKED);
      expect((await read(BAD_IP, reader.key)).statusCode).toBe(429);
      expect(lookups.count).toBe(20);
      // Past the guard: this app has no market yet, so the handler answers 503.
      const served = [503, 'temporarily_unavailable'];
      expect(summary(await read(OTHER_IP, reader.key))).toEqual(served);
      expect(lookups.count).toBe(21);
      // Anonymous reads from the blocked address look no key up, so they are not blocked.
      expect(summary(await t.app.inject({ url: '/api/trending', remoteAddress: BAD_IP }))).toEqual(served);
    } finally {
      await t.close();
      await kv.close();
    }
  });
});
