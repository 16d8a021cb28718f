/**
 * The SDK on its own: backoff and Retry-After, the bounded queue, and the client against a scripted
 * fetch on Vitest's fake clock (batching, retries with the same event ids, permanent errors,
 * timeouts, page-hide keepalive, close, getVariant's cache and exposures).
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BoundedQueue,
  backoffCeiling,
  backoffDelay,
  type FetchInit,
  type FetchResponse,
  parseRetryAfter,
  SDK_VERSION,
  SvcClient,
  type SvcClientOptions,
  type SvcErrorEvent,
  SvcRequestError,
  type WireEvent,
} from '../src/index.js';

describe('backoff', () => {
  it('draws each wait uniformly below base·2^(n-1), capped (full jitter)', () => {
    const opts = { baseMs: 100, maxMs: 5_000 };
    expect([1, 2, 3, 6, 7, 60].map((n) => backoffCeiling(n, opts))).toEqual([
      100, 200, 400, 3_200, 5_000, 5_000,
    ]);
    for (let attempt = 1; attempt <= 40; attempt += 1) {
      const ceiling = backoffCeiling(attempt, opts);
      expect(backoffDelay(attempt, opts, () => 0)).toBe(0);
      expect(backoffDelay(attempt, opts, () => 0.999_999)).toBeLessThan(ceiling);
      const draws = Array.from({ length: 400 }, () => backoffDelay(attempt, opts));
      expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...draws)).toBeLessThan(ceiling);
      // Spread over the whole range, not bunched at the top (that would be "equal jitter").
      const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
      expect(mean / ceiling).toBeGreaterThan(0.35);
      expect(mean / ceiling).toBeLessThan(0.65);
    }
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-20T12:00:00Z');
    expect(parseRetryAfter('15', now)).toBe(15_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Fri, 20 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Fri, 20 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-3', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});

describe('BoundedQueue', () => {
  const entry = (n: number, bytes = 10) => ({ item: n, bytes });

  it('drops the oldest when full and counts them', () => {
    const q = new BoundedQueue<number>(3);
    for (let n = 1; n <= 5; n += 1) q.push(entry(n));
    expect(q.dropped).toBe(2);
    expect(q.take(10, 1_000).map((e) => e.item)).toEqual([3, 4, 5]);
    // A batch put back in front of newer items trims from the front too.
    q.push(entry(6));
    q.push(entry(7));
    expect(q.unshift([entry(1), entry(2)]).map((e) => e.item)).toEqual([1]);
    expect(q.dropped).toBe(3);
    expect(q.take(10, 1_000).map((e) => e.item)).toEqual([2, 6, 7]);
  });

  it('takes up to a count and a byte budget, at least one item', () => {
    const q = new BoundedQueue<number>(100);
    for (let n = 1; n <= 6; n += 1) q.push(entry(n, 40));
    expect(q.take(10, 100).map((e) => e.item)).toEqual([1, 2]);
    expect(q.take(1, 1_000).map((e) => e.item)).toEqual([3]);
    expect(q.take(10, 5).map((e) => e.item)).toEqual([4]);
    expect(q.length).toBe(2);
  });
});

// --- the client against a scripted fetch ------------------------------------------------------

interface Call {
  url: string;
  init: FetchInit;
  at: number;
  events: WireEvent[];
}

type Reply = { status: number; body?: unknown; headers?: Record<string, string> };
type Answer = Reply | 'hang' | 'network';

function response(status: number, body: unknown, headers: Record<string, string> = {}): FetchResponse {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    status,
    headers: { get: (name) => lower[name.toLowerCase()] ?? null },
    text: async () => (typeof body === 'string' ? body : JSON.stringify(body)),
  };
}

const ok = (events: WireEvent[]): Reply => ({
  status: 200,
  body: { accepted: events.length, rejected: 0, deduped: 0, errors: [] },
});

/** A fetch answering each request with the next scripted answer (then 200 with everything accepted). */
function scriptedFetch(script: Answer[] = []) {
  const calls: Call[] = [];
  const fetch = async (url: string, init: FetchInit): Promise<FetchResponse> => {
    const events = init.body ? (JSON.parse(init.body) as { events: WireEvent[] }).events : [];
    calls.push({ url, init, at: Date.now(), events });
    const answer = script.shift() ?? ok(events);
    if (answer === 'network') throw new TypeError('fetch failed');
    if (answer === 'hang') {
      return new Promise((_, reject) => {
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    }
    return response(answer.status, answer.body ?? ok(events).body, answer.headers);
  };
  return { fetch, calls };
}

function client(
  fetch: SvcClientOptions['fetch'],
  options: Partial<SvcClientOptions> = {},
): { c: SvcClient; errors: SvcErrorEvent[] } {
  const errors: SvcErrorEvent[] = [];
  const c = new SvcClient({
    apiKey: 'svc_test_key',
    gameId: 'game-1',
    platform: 'platform_2',
    baseUrl: 'http://svc.test/',
    playerId: 'player-1',
    lifecycle: false,
    fetch,
    onError: (e) => errors.push(e),
    random: () => 0.5,
    ...options,
  });
  return { c, errors };
}

const ids = (calls: Call[]) => calls.map((call) => call.events.map((e) => e.event_id));

describe('SvcClient', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.parse('2026-11-20T12:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('builds the envelope: uuid event ids, UTC ts, game, platform, player, session, payload', async () => {
    const { fetch, calls } = scriptedFetch();
    const { c } = client(fetch, { sessionId: 's-1' });
    const id = c.track('purchase', { sku: 'gems', price: 4.99 });
    c.track('session_start', undefined, { playerId: 'player-2', sessionId: 's-2', ts: 0 });
    c.track('level', { level: 3 }, { eventId: 'my-own-id-1' });
    expect(await c.flush()).toBe(true);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('http://svc.test/api/sdk/events');
    expect(calls[0]!.init.headers['x-svc-sdk-version']).toBe(`js/${SDK_VERSION}`);
    expect(JSON.parse(calls[0]!.init.body!).api_key).toBe('svc_test_key');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(calls[0]!.events).toEqual([
      {
        event_id: id,
        ts: '2026-11-20T12:00:00.000Z',
        platform: 'platform_2',
        game_id: 'game-1',
        player_id: 'player-1',
        session_id: 's-1',
        type: 'purchase',
        payload: { sku: 'gems', price: 4.99 },
      },
      expect.objectContaining({ player_id: 'player-2', session_id: 's-2', ts: '1970-01-01T00:00:00.000Z' }),
      expect.objectContaining({ event_id: 'my-own-id-1', payload: { level: 3 } }),
    ]);
    expect(() => c.track('level', { level: 1 }, { eventId: 'short' })).toThrow(RangeError);
    expect(c.stats()).toMatchObject({ accepted: 3, queued: 0, requests: 1, retries: 0 });
  });

  it('sends a full batch at once and the rest after flushIntervalMs', async () => {
    const { fetch, calls } = scriptedFetch();
    const { c } = client(fetch, { batchSize: 3, flushIntervalMs: 10_000 });
    for (let i = 0; i < 7; i += 1) c.track('level', { level: i });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.map((call) => call.events.length)).toEqual([3, 3]);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.map((call) => call.events.length)).toEqual([3, 3, 1]);
    expect(c.stats()).toMatchObject({ accepted: 7, queued: 0, inFlight: 0 });
  });

  it('splits batches by bytes as well as by count', async () => {
    const { fetch, calls } = scriptedFetch();
    const { c } = client(fetch, { maxBatchBytes: 2_000 });
    for (let i = 0; i < 10; i += 1) c.track('custom', { name: 'x', blob: 'y'.repeat(400) });
    await c.flush();
    expect(calls.length).toBeGreaterThan(2);
    for (const call of calls) expect(call.init.body!.length).toBeLessThanOrEqual(2_000);
    expect(c.stats().accepted).toBe(10);
    // One event larger than any request is given up at once.
    expect(c.track('custom', { name: 'x', blob: 'z'.repeat(3_000) })).toBeNull();
    expect(c.stats().failed).toBe(1);
  });

  it('retries 5xx, network errors and timeouts with the same event ids, waiting the jittered backoff', async () => {
    const { fetch, calls } = scriptedFetch([{ status: 500 }, 'network', 'hang', { status: 502 }]);
    const { c, errors } = client(fetch, {
      backoff: { baseMs: 1_000, maxMs: 60_000 },
      requestTimeoutMs: 5_000,
    });
    c.track('level', { level: 1 });
    c.track('level', { level: 2 });
    const flushed = c.flush();
    await vi.runAllTimersAsync();
    expect(await flushed).toBe(true);
    expect(calls).toHaveLength(5);
    const first = ids(calls)[0]!;
    expect(ids(calls)).toEqual([first, first, first, first, first]);
    // random() = 0.5: half of 1 s, 2 s, 4 s, 8 s; the hang adds the 5 s timeout.
    const gaps = calls.slice(1).map((call, i) => call.at - calls[i]!.at);
    expect(gaps).toEqual([500, 1_000, 2_000 + 5_000, 4_000]);
    expect(errors.map((e) => (e.kind === 'http' ? e.status : e.kind))).toEqual([
      500,
      'network',
      'network',
      502,
    ]);
    expect(errors[2]).toMatchObject({ message: 'no answer within 5000 ms', retrying: true });
    expect(c.stats()).toMatchObject({ accepted: 2, failed: 0, requests: 5, retries: 4 });
  });

  it('honours Retry-After on 429 and 503', async () => {
    const { fetch, calls } = scriptedFetch([
      { status: 429, body: { code: 'rate_limited' }, headers: { 'Retry-After': '7' } },
      { status: 503, body: { code: 'quota_exceeded' }, headers: { 'Retry-After': '15' } },
    ]);
    const { c, errors } = client(fetch);
    c.track('level', { level: 1 });
    const flushed = c.flush();
    await vi.runAllTimersAsync();
    await flushed;
    expect(calls.slice(1).map((call, i) => call.at - calls[i]!.at)).toEqual([7_000, 15_000]);
    expect(errors).toMatchObject([
      { kind: 'http', status: 429, code: 'rate_limited', retrying: true, delayMs: 7_000 },
      { kind: 'http', status: 503, code: 'quota_exceeded', retrying: true, delayMs: 15_000 },
    ]);
    expect(new Set(ids(calls).flat()).size).toBe(1);
  });

  it('drops a batch on a permanent 4xx (counted, reported, not retried)', async () => {
    const { fetch, calls } = scriptedFetch([
      { status: 401, body: { code: 'api_key_invalid', message: 'Invalid API key.' } },
      { status: 403, body: { code: 'insufficient_scope', message: 'no' } },
    ]);
    const { c, errors } = client(fetch, { batchSize: 2 });
    for (let i = 0; i < 4; i += 1) c.track('level', { level: i });
    await c.flush();
    await vi.runAllTimersAsync();
    expect(calls).toHaveLength(2);
    expect(c.stats()).toMatchObject({ failed: 4, accepted: 0, retries: 0, queued: 0 });
    expect(errors).toEqual([
      {
        kind: 'http',
        status: 401,
        code: 'api_key_invalid',
        message: 'Invalid API key.',
        events: 2,
        retrying: false,
      },
      { kind: 'http', status: 403, code: 'insufficient_scope', message: 'no', events: 2, retrying: false },
    ]);
  });

  it('reports per-event rejections of a 200 and does not retry them', async () => {
    const rejection = { index: 1, event_id: 'x', field: 'payload.price', code: 'out_of_range', message: 'm' };
    const { fetch, calls } = scriptedFetch([
      { status: 202, body: { accepted: 1, rejected: 1, deduped: 0, errors: [rejection] } },
    ]);
    const { c, errors } = client(fetch);
    c.track('purchase', { sku: 'a', price: 1 });
    c.track('purchase', { sku: 'b', price: -1 });
    await c.flush();
    await vi.runAllTimersAsync();
    expect(calls).toHaveLength(1);
    expect(errors).toEqual([{ kind: 'rejected', errors: [rejection] }]);
    expect(c.stats()).toMatchObject({ accepted: 1, rejected: 1, failed: 0 });
  });

  it('halves a batch the server finds too large (413)', async () => {
    const { fetch, calls } = scriptedFetch([{ status: 413, body: { code: 'payload_too_large' } }]);
    const { c } = client(fetch);
    for (let i = 0; i < 5; i += 1) c.track('level', { level: i });
    await c.flush();
    expect(calls.map((call) => call.events.length)).toEqual([5, 3, 2]);
    expect(c.stats()).toMatchObject({ accepted: 5, failed: 0 });
  });

  it('keeps at most maxQueueSize events waiting, dropping the oldest and counting them', async () => {
    const { fetch, calls } = scriptedFetch();
    const { c, errors } = client(fetch, { maxQueueSize: 5 });
    const sent = Array.from({ length: 8 }, (_, i) => c.track('level', { level: i }));
    expect(c.stats()).toMatchObject({ queued: 5, dropped: 3 });
    expect(errors).toEqual(Array(3).fill({ kind: 'dropped', reason: 'queue_full', events: 1 }));
    await c.flush();
    expect(ids(calls)).toEqual([sent.slice(3)]);
  });

  it('gives a batch up after maxAttempts', async () => {
    const { fetch, calls } = scriptedFetch(Array(10).fill({ status: 500 }));
    const { c, errors } = client(fetch, { maxAttempts: 3 });
    c.track('level', { level: 1 });
    const flushed = c.flush();
    await vi.runAllTimersAsync();
    await flushed;
    expect(calls).toHaveLength(3);
    expect(c.stats()).toMatchObject({ failed: 1, retries: 2, queued: 0 });
    expect(errors.at(-1)).toEqual({ kind: 'dropped', reason: 'attempts_exhausted', events: 1 });
  });

  it('close() flushes, then refuses events; on its timeout it aborts and keeps the batch queued', async () => {
    const { fetch, calls } = scriptedFetch();
    const { c } = client(fetch);
    c.track('level', { level: 1 });
    expect(await c.close()).toMatchObject({ accepted: 1, queued: 0 });
    expect(c.track('level', { level: 2 })).toBeNull();
    expect(c.stats().dropped).toBe(1);
    expect(calls).toHaveLength(1);

    const down = scriptedFetch(Array(100).fill({ status: 503 }));
    const { c: c2 } = client(down.fetch);
    c2.track('level', { level: 1 });
    c2.track('level', { level: 2 });
    const closing = c2.close({ timeoutMs: 3_000 });
    await vi.advanceTimersByTimeAsync(3_000);
    expect(await closing).toMatchObject({ queued: 2, inFlight: 0, accepted: 0, failed: 0 });
  });

  it('sends one keepalive batch under 64 KiB when the page is hidden', async () => {
    const { fetch, calls } = scriptedFetch();
    const { c } = client(fetch);
    for (let i = 0; i < 400; i += 1) c.track('custom', { name: 'scroll', note: 'n'.repeat(200) });
    c.flushOnHide();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.init.keepalive).toBe(true);
    expect(calls[0]!.init.body!.length).toBeLessThan(60_000);
    expect(c.stats().queued).toBe(400 - calls[0]!.events.length);
    await c.flush();
    expect(c.stats()).toMatchObject({ accepted: 400, queued: 0 });
    expect(calls.slice(1).every((call) => call.init.keepalive === undefined)).toBe(true);
  });

  it('flushes on visibilitychange to hidden and on pagehide in a browser', async () => {
    const listeners = new Map<string, () => void>();
    const doc = {
      visibilityState: 'visible',
      addEventListener: (type: string, fn: () => void) => listeners.set(type, fn),
      removeEventListener: (type: string) => listeners.delete(type),
    };
    vi.stubGlobal('document', doc);
    vi.stubGlobal('addEventListener', (type: string, fn: () => void) => listeners.set(type, fn));
    vi.stubGlobal('removeEventListener', (type: string) => listeners.delete(type));
    try {
      const { fetch, calls } = scriptedFetch();
      const { c } = client(fetch, { lifecycle: true });
      c.track('level', { level: 1 });
      listeners.get('visibilitychange')!();
      expect(calls).toHaveLength(0);
      doc.visibilityState = 'hidden';
      listeners.get('visibilitychange')!();
      c.track('level', { level: 2 });
      listeners.get('pagehide')!();
      await vi.advanceTimersByTimeAsync(0);
      expect(calls.map((call) => [call.init.keepalive, call.events.length])).toEqual([
        [true, 1],
        [true, 1],
      ]);
      await c.close();
      expect(listeners.size).toBe(0);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('flushes on beforeExit in Node', async () => {
    const { fetch, calls } = scriptedFetch();
    const before = process.listenerCount('beforeExit');
    const { c } = client(fetch, { lifecycle: true });
    expect(process.listenerCount('beforeExit')).toBe(before + 1);
    c.track('level', { level: 1 });
    process.emit('beforeExit', 0);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    await c.close();
    expect(process.listenerCount('beforeExit')).toBe(before);
  });

  describe('getVariant', () => {
    const assignment = (url: string) => {
      const u = new URL(url);
      return {
        experiment: decodeURIComponent(u.pathname.split('/')[4]!),
        experiment_id: 7,
        game_id: u.searchParams.get('game_id'),
        player_id: u.searchParams.get('player_id'),
        variant: u.searchParams.get('player_id') === 'player-1' ? 'grid' : 'control',
        status: 'running',
      };
    };

    function assignmentFetch() {
      const gets: string[] = [];
      const events = scriptedFetch();
      const fetch = async (url: string, init: FetchInit): Promise<FetchResponse> => {
        if (init.method !== 'GET') return events.fetch(url, init);
        gets.push(url);
        expect(init.headers['x-api-key']).toBe('svc_test_key');
        if (url.includes('/nope/'))
          return response(404, { code: 'not_found', message: 'No such experiment.' });
        await new Promise((r) => setTimeout(r, 50));
        return response(200, assignment(url));
      };
      return { fetch, gets, posts: events.calls };
    }

    it('asks once for concurrent calls, caches for assignmentTtlMs, logs one exposure per player', async () => {
      const { fetch, gets, posts } = assignmentFetch();
      const { c } = client(fetch, { assignmentTtlMs: 60_000 });
      const both = Promise.all([
        c.getVariant('shop layout', 'player-1'),
        c.getVariant('shop layout', 'player-1'),
      ]);
      await vi.advanceTimersByTimeAsync(50);
      expect(await both).toEqual(['grid', 'grid']);
      expect(gets).toEqual([
        'http://svc.test/api/sdk/experiments/shop%20layout/assignment?game_id=game-1&player_id=player-1',
      ]);
      expect(await c.getVariant('shop layout', 'player-1')).toBe('grid');
      expect(gets).toHaveLength(1);
      const other = c.getVariant('shop layout', 'player-2');
      await vi.advanceTimersByTimeAsync(50);
      expect(await other).toBe('control');
      expect(gets).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(60_000);
      const again = c.getVariant('shop layout', 'player-1');
      await vi.advanceTimersByTimeAsync(50);
      expect(await again).toBe('grid');
      expect(gets).toHaveLength(3);
      await c.flush();
      const exposures = posts.flatMap((call) => call.events);
      expect(exposures.map((e) => [e.type, e.player_id, e.payload])).toEqual([
        ['custom', 'player-1', { name: 'experiment_exposure', experiment: 'shop layout', variant: 'grid' }],
        [
          'custom',
          'player-2',
          { name: 'experiment_exposure', experiment: 'shop layout', variant: 'control' },
        ],
      ]);
    });

    it('logs no exposure with expose: false, and logExposure logs once', async () => {
      const { fetch, posts } = assignmentFetch();
      const { c } = client(fetch);
      const v = c.getVariant('exp', 'player-1', { expose: false });
      await vi.advanceTimersByTimeAsync(50);
      expect(await v).toBe('grid');
      expect(c.stats().queued).toBe(0);
      expect(c.logExposure('exp', 'grid', { playerId: 'player-1', sessionId: 's' })).toBe(true);
      expect(c.logExposure('exp', 'grid', { playerId: 'player-1' })).toBe(false);
      await c.flush();
      expect(posts.flatMap((call) => call.events)).toMatchObject([{ session_id: 's' }]);
    });

    it('rejects with SvcRequestError and caches no failure', async () => {
      const { fetch, gets } = assignmentFetch();
      const { c } = client(fetch);
      const failure = await c.getVariant('nope', 'player-1').catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(SvcRequestError);
      expect(failure).toMatchObject({ status: 404, code: 'not_found', message: 'No such experiment.' });
      await c.getVariant('nope', 'player-1').catch(() => {});
      expect(gets).toHaveLength(2);
      expect(c.stats().queued).toBe(0);
    });
  });

  it('types track() by the generated payloads', () => {
    const { c } = client(scriptedFetch().fetch);
    // @ts-expect-error price is required for purchase
    c.track('purchase', { sku: 'gems' });
    // @ts-expect-error not an event type
    c.track('purchased', {});
    // @ts-expect-error the payload of level is required
    c.track('level');
    // @ts-expect-error source is one of iap, gamepass, devproduct, subscription
    c.track('purchase', { sku: 'gems', price: 1, source: 'store' });
    c.track('session_start');
    c.track('custom', { name: 'tutorial_done', step: 3 });
    expect(c.stats().queued).toBe(6);
  });
});

describe('package', () => {
  it('sends the version package.json has', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
      dependencies?: unknown;
    };
    expect(SDK_VERSION).toBe(pkg.version);
    expect(pkg.dependencies).toBeUndefined();
  });
});
