import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngines } from '../../test/helpers/db.js';
import {
  ingestKey,
  monthUsed,
  postEvents,
  sdkEvent,
  sdkEvents,
  storedEvents,
} from '../../test/helpers/ingest.js';
import { fixedClock } from '../clock.js';

const T0 = '2026-11-23T10:00:00.000Z';

describe.each(testEngines())('ingest quota and rate limit (%s)', (engine) => {
  let t: TestApp;
  const clock = fixedClock(T0);

  beforeAll(async () => {
    t = await buildTestApp({
      engine,
      clock,
      env: {
        ENTITLEMENTS: JSON.stringify({
          anonymousRatePerMin: 100_000,
          plans: { Explorer: { monthlySdkEvents: 10 } },
        }),
      },
    });
    await t.app.ingest.writer.stop();
    t.app.ingest.service.mode = 'sync';
  });
  afterAll(() => t.close());

  it('accepts what fits in the monthly quota, rejects the rest, then answers 503 until the month turns', async () => {
    clock.set(T0);
    const k = await ingestKey(t);
    const first = await postEvents(t.app, { api_key: k.key, events: sdkEvents(1, 7) });
    expect(first.json()).toEqual({ accepted: 7, rejected: 0, deduped: 0, errors: [] });
    const straddle = await postEvents(t.app, { api_key: k.key, events: sdkEvents(8, 5) });
    expect(straddle.statusCode).toBe(200);
    const body = straddle.json();
    expect([body.accepted, body.rejected, body.deduped]).toEqual([3, 2, 0]);
    expect(body.errors).toEqual([
      {
        index: 3,
        event_id: 'evt-00000011',
        field: '',
        code: 'quota_exceeded',
        message: "The team's monthly event quota is used up; it resets on 2026-12-01 (UTC).",
      },
      expect.objectContaining({ index: 4, event_id: 'evt-00000012', code: 'quota_exceeded' }),
    ]);
    const full = await postEvents(t.app, { api_key: k.key, events: [sdkEvent(50)] });
    expect(full.statusCode).toBe(503);
    expect(full.headers['retry-after']).toBe('15');
    expect(full.json()).toEqual({
      detail: "The team's monthly quota of 10 SDK events is used up; it resets on 2026-12-01 (UTC).",
      code: 'quota_exceeded',
    });
    // Seen events are deduped, not charged, even with nothing left.
    const replay = await postEvents(t.app, { api_key: k.key, events: sdkEvents(1, 7) });
    expect([replay.statusCode, replay.json().deduped]).toEqual([200, 7]);
    expect(await monthUsed(t, k.teamId)).toBe(10);
    // Refused events were not recorded as seen: next month they are accepted.
    clock.set('2026-12-01T00:00:01Z');
    const retry = await postEvents(t.app, { api_key: k.key, events: sdkEvents(8, 5) });
    expect(retry.json()).toMatchObject({ accepted: 2, deduped: 3, rejected: 0 });
    expect(await storedEvents(t, k.teamId)).toHaveLength(12);
  });

  it('never overshoots the quota under concurrent batches', async () => {
    clock.set(T0);
    const k = await ingestKey(t);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        postEvents(t.app, { api_key: k.key, events: sdkEvents(100 + i * 3, 3) }),
      ),
    );
    const ok = answers
      .filter((a) => a.statusCode === 200)
      .map((a) => a.json() as { accepted: number; rejected: number });
    const refused = answers.filter((a) => a.statusCode === 503);
    expect(ok.reduce((s, b) => s + b.accepted, 0)).toBe(10);
    // 18 events for 10 slots: 3 batches fit, one straddles (1 in, 2 out), the last two get 503.
    expect(ok.reduce((s, b) => s + b.rejected, 0)).toBe(2);
    expect(refused).toHaveLength(2);
    expect(await monthUsed(t, k.teamId)).toBe(10);
    expect(await storedEvents(t, k.teamId)).toHaveLength(10);
  });

  it('limits each key to a burst of 100 requests refilled at 20/s, with RateLimit headers', async () => {
    clock.set(T0);
    const k = await ingestKey(t);
    const batch = { api_key: k.key, events: [sdkEvent(1, { type: 'nope' })] };
    const first = await postEvents(t.app, batch);
    expect(first.headers['ratelimit-policy']).toBe('"ingest";q=100;w=5');
    expect(first.headers.ratelimit).toBe('"ingest";r=99;t=1');
    for (let i = 1; i < 99; i += 1) await postEvents(t.app, batch);
    const last = await postEvents(t.app, batch);
    expect([last.statusCode, last.headers.ratelimit]).toEqual([200, '"ingest";r=0;t=5']);
    const refused = await postEvents(t.app, batch);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'rate_limited' });
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers['ratelimit-policy']).toBe('"ingest";q=100;w=5');
    expect(refused.headers.ratelimit).toBe('"ingest";r=0;t=5');
    // Another key has its own bucket; one second refills 20 requests.
    const other = await ingestKey(t);
    expect((await postEvents(t.app, { ...batch, api_key: other.key })).statusCode).toBe(200);
    clock.advance(1000);
    const statuses = [];
    for (let i = 0; i < 21; i += 1) statuses.push((await postEvents(t.app, batch)).statusCode);
    expect(statuses).toEqual([...Array(20).fill(200), 429]);
  });
});
