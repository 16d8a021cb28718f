import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { ingestKey, postEvents, sdkEvents, storedEvents } from '../../test/helpers/ingest.js';
import { fixedClock } from '../clock.js';
import { redisKv } from '../kv/index.js';
import { DEFAULT_ENTITLEMENTS } from '../plans.js';
import { rateLimit } from './pipeline.js';

const REDIS_URL = process.env.REDIS_URL;

describe('ingest with the NATS queue unreachable', () => {
  let t: TestApp | undefined;
  afterAll(() => t?.close());

  it('ingests synchronously (200) and never logs the NATS address', async () => {
    t = await buildTestApp({ env: { NATS_URL: 'nats://127.0.0.1:1' } });
    expect(t.app.ingest.queue.kind).toBe('jetstream');
    const k = await ingestKey(t);
    const res = await postEvents(t.app, { api_key: k.key, events: sdkEvents(1, 2) });
    expect([res.statusCode, res.headers['x-svc-ingest-mode']]).toEqual([200, 'sync']);
    expect(res.json()).toEqual({ accepted: 2, rejected: 0, deduped: 0, errors: [] });
    expect(await storedEvents(t, k.teamId)).toHaveLength(2);
    expect(t.logs.text).not.toContain('127.0.0.1:1');
  });
});

describe.skipIf(!REDIS_URL)('ingest rate limit through Redis', () => {
  it('shares one bucket per key between processes', async () => {
    const prefix = `svc-test:${randomUUID()}:`;
    const clock = fixedClock('2026-11-23T10:00:00Z');
    const kvs = [await redisKv(REDIS_URL!, prefix), await redisKv(REDIS_URL!, prefix)];
    const entitlements = { ...DEFAULT_ENTITLEMENTS, ingestBurst: 3 };
    // Two "processes": only the shared store connects them.
    const processes = kvs.map((kv) => ({ clock, kv, entitlements }));
    const key = {
      keyId: 42,
      userId: 1,
      teamId: 1,
      plan: 'Explorer' as const,
      scopes: ['sdk:ingest'],
      personalTeam: true,
    };
    try {
      const allowed = [];
      for (const i of [0, 1, 0, 1]) allowed.push((await rateLimit(processes[i]!, key)).ok);
      expect(allowed).toEqual([true, true, true, false]);
    } finally {
      for (const kv of kvs) await kv.close();
    }
  });
});
