/**
 * The SDK over real HTTP against the real app (app.listen on a free port), in both ingest modes:
 * every event stored exactly once (rows counted by event_id), a replay deduplicated, per-event
 * rejections reported, a bad key given up at once, and getVariant with its exposures.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AnalyticsTeam, analyticsTeam } from '../../../test/helpers/analytics.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { testEngines } from '../../../test/helpers/db.js';
import {
  type FetchInit,
  type FetchLike,
  SvcClient,
  type SvcClientOptions,
  type SvcErrorEvent,
} from '../src/index.js';
import { everyType, storedCounts } from './fixtures.js';

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await buildTestApp({ engine: testEngines().at(-1)! });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

describe.each(['sync', 'async'] as const)('the SDK against the real server (%s ingest)', (mode) => {
  let team: AnalyticsTeam;
  const answers: { status: number; mode: string | null }[] = [];

  /** The global fetch, noting each ingest answer's status and X-Svc-Ingest-Mode. */
  const fetch: FetchLike = async (url: string, init: FetchInit) => {
    const res = await globalThis.fetch(url, init);
    if (init.method === 'POST')
      answers.push({ status: res.status, mode: res.headers.get('x-svc-ingest-mode') });
    return res;
  };

  const client = (options: Partial<SvcClientOptions> = {}) => {
    const errors: SvcErrorEvent[] = [];
    const c = new SvcClient({
      apiKey: team.key,
      gameId: 'sdk-game',
      platform: 'platform_1',
      baseUrl: base,
      lifecycle: false,
      fetch,
      onError: (e) => errors.push(e),
      ...options,
    });
    return { c, errors };
  };

  /** Async mode: the answer came once the batch was queued; store it before reading rows. */
  const settle = async () => {
    if (mode === 'async') await t.app.ingest.writer.flush();
  };

  beforeAll(async () => {
    team = await analyticsTeam(t, 'Studio');
  });
  beforeEach(() => {
    t.app.ingest.service.mode = mode;
  });

  it('stores every event once, in batches of at most 500, and a replay is deduplicated', async () => {
    answers.length = 0;
    const { c, errors } = client();
    const sent: string[] = [];
    for (let i = 0; i < 1_100; i += 1) {
      const [type, payload] = everyType[i % everyType.length]!;
      // biome-ignore lint/suspicious/noExplicitAny: the fixture covers every type; each payload fits its type.
      const id = c.track(type as any, payload as any, { playerId: `p-${i % 37}`, sessionId: `s-${i % 11}` });
      sent.push(id!);
    }
    expect(await c.flush()).toBe(true);
    await settle();
    expect(errors).toEqual([]);
    expect(c.stats()).toMatchObject({ accepted: 1_100, rejected: 0, deduped: 0, failed: 0, requests: 3 });
    expect(answers).toEqual(
      Array(3).fill(mode === 'async' ? { status: 202, mode: 'async' } : { status: 200, mode: 'sync' }),
    );
    const stored = await storedCounts(t, team.teamId);
    expect(stored.size).toBe(1_100);
    expect([...stored.values()].every((n) => n === 1)).toBe(true);
    expect(new Set(sent)).toEqual(new Set(stored.keys()));
    const sdk = await t.testDb.db.query<{ sdk_version: string }>(
      'SELECT DISTINCT sdk_version FROM events WHERE team_id = $1',
      [team.teamId],
    );
    expect(sdk.rows).toEqual([{ sdk_version: 'js/0.1.0' }]);

    // The same ids again (a second process re-sending what it thinks was lost): all deduplicated.
    const again = client().c;
    for (const id of sent.slice(0, 600)) again.track('level', { level: 1 }, { playerId: 'p', eventId: id });
    await again.flush();
    expect(again.stats()).toMatchObject({ accepted: 0, deduped: 600, requests: 2 });
    await settle();
    expect((await storedCounts(t, team.teamId)).size).toBe(1_100);
    await c.close();
    await again.close();
  });

  it('reports the events the server refuses without retrying them', async () => {
    const { c, errors } = client();
    const good = c.track('purchase', { sku: 'gems', price: 4.99 }, { playerId: 'p-1' });
    const bad = c.track('purchase', { sku: 'gems', price: -1 }, { playerId: 'p-1' });
    const long = c.track('level', { level: 2 }, { playerId: 'x'.repeat(129) });
    await c.flush();
    expect(c.stats()).toMatchObject({ accepted: 1, rejected: 2, requests: 1, retries: 0 });
    expect(errors).toHaveLength(1);
    const [report] = errors;
    expect(report?.kind).toBe('rejected');
    if (report?.kind !== 'rejected') return;
    expect(report.errors.map((e) => [e.event_id, e.field])).toEqual([
      [bad, 'payload.price'],
      [long, 'player_id'],
    ]);
    await settle();
    expect((await storedCounts(t, team.teamId)).has(good!)).toBe(true);
    await c.close();
  });

  it('gives up at once on a key the server does not know (401, not retried)', async () => {
    const { c, errors } = client({ apiKey: 'svc_sdk_not_a_key_0000000000' });
    c.track('level', { level: 1 }, { playerId: 'p' });
    await c.flush();
    expect(c.stats()).toMatchObject({ failed: 1, requests: 1, retries: 0, queued: 0 });
    expect(errors).toMatchObject([{ kind: 'http', status: 401, code: 'api_key_invalid', retrying: false }]);
    await c.close();
  });

  it('gets a variant with the SDK key, as the server assigns it, and logs one exposure per player', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/sdk/experiments',
      headers: team.headers,
      payload: {
        game_id: 'sdk-game',
        key: 'shop-layout',
        variants: [
          { key: 'control', weight: 1 },
          { key: 'grid', weight: 1 },
        ],
        primary_metric: { metric: 'conversion' },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { c } = client({ playerId: 'player-1' });
    const players = ['player-1', 'player-2', 'player-6', 'player-7'];
    const variants: string[] = [];
    for (const player of players) {
      const direct = await t.app.inject({
        url: `/api/sdk/experiments/shop-layout/assignment?game_id=sdk-game&player_id=${player}`,
        headers: { 'x-api-key': team.key },
      });
      const [a, b] = await Promise.all([
        c.getVariant('shop-layout', player),
        c.getVariant('shop-layout', player),
      ]);
      expect([a, b]).toEqual([direct.json().variant, direct.json().variant]);
      expect(await c.getVariant('shop-layout', player)).toBe(a);
      variants.push(a);
    }
    expect(new Set(variants)).toEqual(new Set(['control', 'grid']));
    await expect(c.getVariant('no-such-experiment')).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
    });
    await c.flush();
    await settle();
    const exposures = await t.testDb.db.query<{ player_id: string; variant: string }>(
      `SELECT player_id, payload->>'variant' AS variant FROM events
        WHERE team_id = $1 AND type = 'custom' AND payload->>'name' = 'experiment_exposure'
          AND payload->>'experiment' = 'shop-layout' ORDER BY player_id`,
      [team.teamId],
    );
    expect(exposures.rows).toEqual(players.map((player_id, i) => ({ player_id, variant: variants[i] })));
    await c.close();
  });
});

// --- a server that fails in every way, then recovers ------------------------------------------

/**
 * What the faulty server does with one request:
 * - hang: reads the body and never answers (the client times out);
 * - stored-hang: stores the batch (the real app), then never answers: the retry must be deduplicated;
 * - 429 / 503: refuses with Retry-After: 1; 500: refuses;
 * - reset / stored-reset: destroys the connection (after storing the batch for stored-reset);
 * - pass (when the script is used up): hands the request to the real app and relays its answer.
 */
type Fault = 'hang' | 'stored-hang' | '429' | '503' | '500' | 'reset' | 'stored-reset' | 'pass';

interface Seen {
  fault: Fault;
  ids: string[];
  at: number;
}

async function faultyServer(script: Fault[]) {
  const seen: Seen[] = [];
  const forward = (body: string, version: string | undefined) =>
    t.app.inject({
      method: 'POST',
      url: '/api/sdk/events',
      payload: body,
      headers: { 'content-type': 'application/json', ...(version ? { 'x-svc-sdk-version': version } : {}) },
    });
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const fault = script.shift() ?? 'pass';
    const ids = (JSON.parse(body) as { events: { event_id: string }[] }).events.map((e) => e.event_id);
    seen.push({ fault, ids, at: Date.now() });
    const version = req.headers['x-svc-sdk-version'] as string | undefined;
    const refuse = (status: number, code: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify({ code, message: `fault ${fault}` }));
    };
    switch (fault) {
      case 'hang':
        return;
      case 'stored-hang':
        await forward(body, version);
        return;
      case '429':
        return refuse(429, 'rate_limited', { 'retry-after': '1' });
      case '503':
        return refuse(503, 'quota_exceeded', { 'retry-after': '1' });
      case '500':
        return refuse(500, 'internal');
      case 'reset':
        req.socket.destroy();
        return;
      case 'stored-reset':
        await forward(body, version);
        req.socket.destroy();
        return;
      case 'pass': {
        const answer = await forward(body, version);
        res.writeHead(answer.statusCode, {
          'content-type': 'application/json',
          ...(answer.headers['x-svc-ingest-mode']
            ? { 'x-svc-ingest-mode': String(answer.headers['x-svc-ingest-mode']) }
            : {}),
        });
        res.end(answer.body);
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { url, seen, close };
}

describe.each(['sync', 'async'] as const)('the SDK through failures (%s ingest)', (mode) => {
  let team: AnalyticsTeam;

  beforeAll(async () => {
    team = await analyticsTeam(t, 'Studio');
  });
  beforeEach(() => {
    t.app.ingest.service.mode = mode;
  });

  it('loses no event and stores none twice through timeouts, 429, 503, 500 and resets', async () => {
    // Batches of 40: the first is stored while its answer is lost, then passes (deduplicated); the
    // second passes after a 429 and a reset; the third is stored after a 503, reset, refused, then
    // passes (deduplicated); the last (30 events) passes at once.
    const faults: Fault[] = [
      ...['hang', '500', 'stored-hang', 'pass'],
      ...['429', 'reset', 'pass'],
      ...['503', 'stored-reset', '500', 'pass'],
    ] as Fault[];
    const server = await faultyServer([...faults]);
    const errors: SvcErrorEvent[] = [];
    const c = new SvcClient({
      apiKey: team.key,
      gameId: 'fault-game',
      platform: 'platform_3',
      baseUrl: server.url,
      lifecycle: false,
      batchSize: 40,
      requestTimeoutMs: 1_000,
      backoff: { baseMs: 5, maxMs: 20 },
      onError: (e) => errors.push(e),
    });
    try {
      const sent: string[] = [];
      for (let i = 0; i < 150; i += 1) {
        const [type, payload] = everyType[i % everyType.length]!;
        // biome-ignore lint/suspicious/noExplicitAny: each fixture payload fits its type.
        sent.push(c.track(type as any, payload as any, { playerId: `p-${i % 9}` })!);
      }
      expect(await c.flush()).toBe(true);
      if (mode === 'async') await t.app.ingest.writer.flush();

      // Each fault hit a request, and every retry carried exactly the ids of the batch it retried.
      expect(server.seen.slice(0, faults.length).map((s) => s.fault)).toEqual(faults);
      const batches = new Map<string, string[]>();
      for (const s of server.seen) {
        const first = s.ids[0]!;
        if (batches.has(first)) expect(s.ids).toEqual(batches.get(first));
        else batches.set(first, s.ids);
      }
      expect([...batches.values()].flat()).toEqual(sent);
      // Retry-After: 1 was waited out.
      for (const [i, s] of server.seen.entries()) {
        if (s.fault === '429' || s.fault === '503')
          expect(server.seen[i + 1]!.at - s.at).toBeGreaterThanOrEqual(990);
      }

      const stored = await storedCounts(t, team.teamId);
      expect(stored.size).toBe(150);
      expect([...stored.values()].every((n) => n === 1)).toBe(true);
      expect(new Set(stored.keys())).toEqual(new Set(sent));
      const stats = c.stats();
      // Two batches were stored while their answers were lost: their retries came back deduplicated.
      expect(stats).toMatchObject({ accepted: 150 - 80, deduped: 80, rejected: 0, failed: 0, dropped: 0 });
      expect(stats).toMatchObject({ retries: 8, requests: 8 + 4 });
      expect(errors.map((e) => (e.kind === 'http' ? String(e.status) : e.kind))).toEqual([
        'network',
        '500',
        'network',
        '429',
        'network',
        '503',
        'network',
        '500',
      ]);
    } finally {
      await c.close({ timeoutMs: 100 });
      await server.close();
    }
  });

  it('treats a 4xx other than 408/413/429 as permanent: one request, counted, then goes on', async () => {
    const server = await faultyServer([]);
    const errors: SvcErrorEvent[] = [];
    const c = new SvcClient({
      apiKey: 'svc_sdk_unknown_key_0000000',
      gameId: 'fault-game',
      platform: 'platform_3',
      baseUrl: server.url,
      lifecycle: false,
      batchSize: 2,
      onError: (e) => errors.push(e),
    });
    for (let i = 0; i < 4; i += 1) c.track('level', { level: i }, { playerId: 'p' });
    await c.flush();
    expect(server.seen).toHaveLength(2);
    expect(c.stats()).toMatchObject({ failed: 4, retries: 0, queued: 0 });
    expect(errors.every((e) => e.kind === 'http' && e.status === 401 && !e.retrying)).toBe(true);
    await c.close();
    await server.close();
  });
});
