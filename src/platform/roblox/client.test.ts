import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  FIXTURES,
  hang,
  json,
  malformed,
  needsFixtures,
  type ReplayServer,
  recorded,
  sequence,
  startReplayServer,
  status,
} from '../../../test/helpers/roblox-replay.js';
import {
  createRobloxClient,
  parseRetryAfter,
  type RobloxClient,
  type RobloxClientOptions,
} from './client.js';

let server: ReplayServer;
let client: RobloxClient | undefined;
let sleeps: number[];

beforeEach(async () => {
  server = await startReplayServer();
  sleeps = [];
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  await server.close();
});

/** A client whose waits are recorded instead of slept, and whose jitter is always the midpoint. */
function makeClient(options: RobloxClientOptions = {}): RobloxClient {
  client = createRobloxClient({
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    maxAttempts: 3,
    timeoutMs: 2_000,
    ...options,
  });
  return client;
}
const get = (c: RobloxClient, path = '/x') => c.getJson(new URL(path, server.url));

describe('Roblox HTTP client', () => {
  it('returns the parsed body of a 200 answer', async () => {
    server.route('/x', json({ universeId: 13058 }));
    expect(await get(makeClient())).toEqual({ ok: true, body: { universeId: 13058 } });
  });

  it('waits exactly the Retry-After seconds of a 429, then succeeds', async () => {
    server.route('/x', sequence(status(429, { 'retry-after': '3' }), json({ ok: 1 })));
    expect(await get(makeClient())).toEqual({ ok: true, body: { ok: 1 } });
    expect(sleeps).toEqual([3000]);
    expect(server.requests).toHaveLength(2);
  });

  it('waits until the HTTP date of a Retry-After, measured on the injected clock', async () => {
    const date = 'Wed, 21 Oct 2026 07:28:05 GMT';
    server.route('/x', sequence(status(429, { 'retry-after': date }), json({ ok: 1 })));
    const now = () => Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
    expect(await get(makeClient({ now }))).toEqual({ ok: true, body: { ok: 1 } });
    expect(sleeps).toEqual([5000]);
  });

  it('backs off with jittered exponential waits after a 500, then succeeds', async () => {
    server.route('/x', sequence(status(500), status(503), json({ ok: 1 })));
    expect(await get(makeClient({ baseDelayMs: 500 }))).toEqual({ ok: true, body: { ok: 1 } });
    // step 500 then 1000; equal jitter at random 0.5 waits 3/4 of the step
    expect(sleeps).toEqual([375, 750]);
  });

  it('spreads the waits with the injected randomness and caps them at maxDelayMs', async () => {
    server.route('/x', status(500));
    let i = 0;
    const draws = [0, 1, 1, 1];
    await get(makeClient({ maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 3000, random: () => draws[i++]! }));
    expect(sleeps).toEqual([500, 2000, 3000, 3000]);
  });

  it('gives up after maxAttempts when the server answers 500 forever', async () => {
    server.route('/x', status(500));
    const r = await get(makeClient({ maxAttempts: 3 }));
    expect(r).toMatchObject({ ok: false, reason: 'retries_exhausted', status: 500 });
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
  });

  it('does not wait for a Retry-After longer than maxRetryAfterMs and fails at once', async () => {
    server.route('/x', status(429, { 'retry-after': '3600' }));
    const r = await get(makeClient({ maxRetryAfterMs: 60_000 }));
    expect(r).toMatchObject({ ok: false, reason: 'retries_exhausted', status: 429 });
    expect(sleeps).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('times out a response that never comes, retries it, and reports a timeout', async () => {
    server.route('/x', hang);
    const r = await get(makeClient({ timeoutMs: 50, maxAttempts: 2 }));
    expect(r).toMatchObject({ ok: false, reason: 'timeout' });
    expect(server.requests).toHaveLength(2);
  });

  it('reports malformed JSON in a 200 answer without retrying', async () => {
    server.route('/x', malformed);
    expect(await get(makeClient())).toMatchObject({ ok: false, reason: 'malformed_json', status: 200 });
    expect(server.requests).toHaveLength(1);
  });

  it(
    'reports the recorded 400 (error code 8) without retrying',
    needsFixtures(FIXTURES.badIds400),
    async () => {
      server.route('/x', recorded(FIXTURES.badIds400, 400));
      const r = await get(makeClient());
      expect(r).toMatchObject({ ok: false, reason: 'http_4xx', status: 400 });
      expect(r.ok ? '' : r.detail).toContain('"code":8');
      expect(server.requests).toHaveLength(1);
    },
  );

  it('reports a refused connection as a network failure after its retries', async () => {
    const url = server.url;
    await server.close();
    server = await startReplayServer(); // afterEach closes this one
    const r = await makeClient({ maxAttempts: 2 }).getJson(new URL('/x', url));
    expect(r).toMatchObject({ ok: false, reason: 'network' });
    expect(sleeps).toEqual([375]);
  });

  it('never has more requests in flight than its concurrency', async () => {
    server.route('/x', { status: 200, body: '{}', delayMs: 30 });
    const c = makeClient({ concurrency: 3 });
    const results = await Promise.all(Array.from({ length: 10 }, () => get(c)));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(server.requests).toHaveLength(10);
    expect(server.maxInFlight).toBe(3);
  });
});

describe("a caller's abort signal", () => {
  /** Resolves once the replay server has received `n` requests. */
  const received = async (n: number) => {
    while (server.requests.length < n) await new Promise((resolve) => setTimeout(resolve, 5));
  };

  it('ends a request in flight with reason aborted, and does not retry it', { timeout: 20_000 }, async () => {
    server.route('/x', hang);
    const abort = new AbortController();
    const pending = makeClient({ timeoutMs: 10_000 }).getJson(new URL('/x', server.url), {
      signal: abort.signal,
    });
    await received(1);
    abort.abort();
    expect(await pending).toMatchObject({ ok: false, reason: 'aborted' });
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('sends nothing when the signal is already aborted', async () => {
    server.route('/x', json({ ok: 1 }));
    const r = await makeClient().getJson(new URL('/x', server.url), { signal: AbortSignal.abort() });
    expect(r).toEqual({ ok: false, reason: 'aborted', detail: 'aborted by the caller before it was sent' });
    expect(server.requests).toEqual([]);
  });

  it('takes a request waiting for a slot out of the queue, and the slot goes to the next one', {
    timeout: 20_000,
  }, async () => {
    server.route('/slow', hang);
    server.route('/x', json({ ok: 1 }));
    const c = makeClient({ concurrency: 1, timeoutMs: 10_000 });
    const holder = new AbortController();
    const queued = new AbortController();
    const first = c.getJson(new URL('/slow', server.url), { signal: holder.signal });
    await received(1);
    const second = c.getJson(new URL('/x', server.url), { signal: queued.signal });
    const third = c.getJson(new URL('/x', server.url));
    queued.abort();
    expect(await second).toMatchObject({ ok: false, reason: 'aborted' });
    holder.abort(); // frees the only slot: the third request gets it, the aborted second never runs
    expect(await first).toMatchObject({ ok: false, reason: 'aborted' });
    expect(await third).toEqual({ ok: true, body: { ok: 1 } });
    expect(server.requests.map((r) => r.path)).toEqual(['/slow', '/x']);
  });

  it('cuts the wait before a retry short, even when the injected sleep never ends', async () => {
    server.route('/x', status(503));
    const abort = new AbortController();
    const c = makeClient({
      sleep: () => {
        abort.abort(); // the budget runs out while the client waits to retry
        return new Promise<void>(() => {});
      },
    });
    const r = await c.getJson(new URL('/x', server.url), { signal: abort.signal });
    expect(r).toMatchObject({ ok: false, reason: 'aborted' });
    expect(server.requests).toHaveLength(1);
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2026-10-21T07:28:00Z');
  it('reads delta-seconds, HTTP dates, dates in the past and rejects garbage', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(['7'], now)).toBe(7_000);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
