import { randomUUID } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, LogCapture, type TestApp } from '../../test/helpers/app.js';
import { bearer, createUser, login } from '../../test/helpers/auth.js';
import { testMarket } from '../../test/helpers/market.js';
import { hasRedisServer, type PrivateRedis, privateRedis } from '../../test/helpers/services.js';
import { fixedClock } from '../clock.js';
import { createLogger } from '../main.js';
import { backfill } from '../market/backfill.js';
import { refreshViews } from '../market/views.service.js';
import { connectKv, type Kv, type RateRule, redisKv } from './index.js';
import { DEGRADED_MESSAGE, RECOVERED_MESSAGE, type ResilientKv, resilientKv } from './resilient.js';

/** A logger whose lines the test reads, and how many times each message was logged. */
function capturedLog() {
  const lines = new LogCapture();
  const log = createLogger({ logLevel: 'info' }, lines);
  const count = (msg: string) => lines.records().filter((r) => r.msg === msg).length;
  return { log, lines, count };
}

/** Opens a resilient store over `url` (probing every 100 ms), as each process of a deployment does. */
async function open(url: string, prefix: string) {
  const logged = capturedLog();
  const kv = resilientKv(await redisKv(url, prefix, { required: false }), { log: logged.log, probeMs: 100 });
  return { kv, ...logged };
}

/** One request per store in turn, `rounds` times: which were allowed. */
async function alternate(kvs: Kv[], key: string, rule: RateRule, nowMs: number, rounds: number) {
  const allowed: boolean[] = [];
  for (let i = 0; i < rounds; i += 1)
    for (const kv of kvs) allowed.push((await kv.rateLimit(key, rule, nowMs)).allowed);
  return allowed;
}

const rule: RateRule = { burst: 3, emissionMs: 60_000 };
const now = 1_800_000_000_000;

/**
 * A TCP proxy in front of Redis that can stop answering (connections stay open, what the client
 * sends waits, as with a Redis that hangs) or cut every connection and refuse new ones (Redis out of
 * this process's reach while it keeps its data and other processes still reach it).
 */
async function proxyTo(port: number) {
  let mode: 'pass' | 'hang' | 'cut' = 'pass';
  const pairs = new Set<{ client: Socket; upstream: Socket; held: Buffer[] }>();
  const server: Server = createServer((client) => {
    if (mode === 'cut') {
      client.destroy();
      return;
    }
    const upstream = connect(port, '127.0.0.1');
    const pair = { client, upstream, held: [] as Buffer[] };
    pairs.add(pair);
    client.on('data', (d: Buffer) => (mode === 'pass' ? upstream.write(d) : pair.held.push(d)));
    upstream.on('data', (d: Buffer) => client.write(d));
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    for (const s of [client, upstream]) {
      s.on('close', end);
      s.on('error', end);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const proxyPort = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `redis://127.0.0.1:${proxyPort}`,
    set(next: 'pass' | 'hang' | 'cut') {
      mode = next;
      for (const pair of pairs) {
        if (next === 'cut') {
          pair.client.destroy();
          pair.upstream.destroy();
        } else if (next === 'pass') {
          for (const d of pair.held.splice(0)) pair.upstream.write(d);
        }
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const pair of pairs) pair.client.destroy();
        server.close(() => resolve());
      }),
  };
}

describe.skipIf(!hasRedisServer())('the resilient store on a Redis that dies and comes back', () => {
  let redis: PrivateRedis;
  let a: Awaited<ReturnType<typeof open>>;
  let b: Awaited<ReturnType<typeof open>>;
  /** Opened by connectKv while Redis is down. */
  let late: { kv: Kv; count: (msg: string) => number; lines: LogCapture } | undefined;
  const prefix = `svc-test:${randomUUID()}:`;

  beforeAll(async () => {
    redis = await privateRedis();
    a = await open(redis.url, prefix);
    b = await open(redis.url, prefix);
  });
  afterAll(async () => {
    await a?.kv.close();
    await b?.kv.close();
    await late?.kv.close();
    await redis?.dispose();
  });

  it('shares one rate limit between two processes while Redis is up', async () => {
    expect(await alternate([a.kv, b.kv], 'rl:up', rule, now, 3)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(a.count(DEGRADED_MESSAGE)).toBe(0);
  });

  it('answers every call from memory once Redis is killed, at once, and warns once per process', async () => {
    await redis.kill();
    const started = Date.now();
    // Each process now decides alone: both let the whole burst through.
    expect(await alternate([a.kv, b.kv], 'rl:down', rule, now, 4)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
    // The bucket Redis had spent is not there: memory starts afresh.
    expect((await a.kv.rateLimit('rl:up', rule, now)).allowed).toBe(true);
    for (let i = 0; i < 50; i += 1) {
      await a.kv.incr('signin:n', 60_000);
      await a.kv.set('signin:until', String(now + i), 60_000);
      await b.kv.get('anything');
    }
    expect(await a.kv.incr('signin:n', 60_000)).toBe(51);
    expect(await a.kv.get('signin:until')).toBe(String(now + 49));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(a.count(DEGRADED_MESSAGE)).toBe(1);
    expect(b.count(DEGRADED_MESSAGE)).toBe(1);
    expect(a.lines.records().find((r) => r.msg === DEGRADED_MESSAGE)).toMatchObject({ level: 40 });
    expect((a.kv as ResilientKv).degraded).toBe(true);
  });

  it('misses a cache while degraded, rather than serving a copy other processes cannot delete', async () => {
    await a.kv.set('auth:v2:1', '{"tokenVersion":1}', 30_000, { cache: true });
    expect(await a.kv.get('auth:v2:1')).toBeNull();
    await a.kv.set('counter', '7', 30_000);
    expect(await a.kv.get('counter')).toBe('7');
  });

  it('starts degraded, without failing, when Redis is down at start', async () => {
    const logged = capturedLog();
    const kv = await connectKv({ redisUrl: redis.url }, logged.log);
    late = { kv, count: logged.count, lines: logged.lines };
    expect((await kv.rateLimit('rl:late', rule, now)).allowed).toBe(true);
    expect(logged.count(DEGRADED_MESSAGE)).toBe(1);
    expect(logged.lines.records().find((r) => r.msg === DEGRADED_MESSAGE)).toMatchObject({
      reason: 'ECONNREFUSED',
    });
  });

  it('goes back to Redis after a probe once it is restarted, and says so once per process', async () => {
    await redis.start();
    await vi.waitFor(
      () => {
        expect(a.count(RECOVERED_MESSAGE)).toBe(1);
        expect(b.count(RECOVERED_MESSAGE)).toBe(1);
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(await alternate([a.kv, b.kv], 'rl:back', rule, now, 3)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(a.lines.records().find((r) => r.msg === RECOVERED_MESSAGE)).toMatchObject({ level: 30 });
    // The process started while Redis was down joins too (probing every second).
    await vi.waitFor(() => expect(late!.count(RECOVERED_MESSAGE)).toBe(1), { timeout: 10_000, interval: 50 });
    const onRedis = await redisKv(redis.url, 'svc:');
    try {
      await late!.kv.set('joined', 'yes', 60_000);
      expect(await onRedis.get('joined')).toBe('yes');
    } finally {
      await onRedis.close();
    }
    for (const p of [a, b, late!]) expect(p.count(DEGRADED_MESSAGE)).toBe(1);
  });
});

describe.skipIf(!hasRedisServer())('the resilient store on a Redis out of reach', () => {
  let redis: PrivateRedis;
  let proxy: Awaited<ReturnType<typeof proxyTo>>;
  let a: Awaited<ReturnType<typeof open>>;
  let other: Kv;
  const prefix = `svc-test:${randomUUID()}:`;

  beforeAll(async () => {
    redis = await privateRedis();
    proxy = await proxyTo(redis.port);
    a = await open(proxy.url, prefix);
    other = await redisKv(redis.url, prefix);
  });
  afterAll(async () => {
    await a?.kv.close();
    await other?.close();
    await proxy?.close();
    await redis?.dispose();
  });

  it('waits one command timeout at most when Redis stops answering, then answers from memory', async () => {
    proxy.set('hang');
    const started = Date.now();
    const decisions = [];
    for (let i = 0; i < 20; i += 1) decisions.push((await a.kv.rateLimit('rl:hang', rule, now)).allowed);
    expect(decisions.filter(Boolean)).toHaveLength(3);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(a.count(DEGRADED_MESSAGE)).toBe(1);
    expect(a.lines.records().find((r) => r.msg === DEGRADED_MESSAGE)).toMatchObject({
      reason: 'Command timed out',
    });
    proxy.set('pass');
    await vi.waitFor(() => expect(a.count(RECOVERED_MESSAGE)).toBe(1), { timeout: 10_000, interval: 50 });
    expect(await a.kv.incr('after-hang', 60_000)).toBe(1);
    expect(await other.get('after-hang')).toBe('1');
  });

  it('deletes from Redis, once back, a cached copy deleted while it was out of reach', async () => {
    await a.kv.set('auth:v2:7', '{"tokenVersion":1}', 30_000, { cache: true });
    expect(await other.get('auth:v2:7')).toBe('{"tokenVersion":1}');
    proxy.set('cut');
    await a.kv.del('auth:v2:7'); // a logout on this process
    expect((a.kv as ResilientKv).degraded).toBe(true);
    proxy.set('pass');
    await vi.waitFor(() => expect(a.count(RECOVERED_MESSAGE)).toBe(2), { timeout: 10_000, interval: 50 });
    expect(await other.get('auth:v2:7')).toBeNull();
    expect(a.count(DEGRADED_MESSAGE)).toBe(2);
  });
});

describe.skipIf(!hasRedisServer())('the app when Redis is lost', () => {
  let redis: PrivateRedis;
  let t: TestApp;
  let logged: ReturnType<typeof capturedLog>;
  let kv: Kv;

  beforeAll(async () => {
    redis = await privateRedis();
    logged = capturedLog();
    kv = await connectKv({ redisUrl: redis.url }, logged.log);
    const at = new Date('2026-11-22T15:05:00Z');
    t = await buildTestApp({ kv, clock: fixedClock(at) });
    const quiet = { info: () => {}, warn: () => {} };
    await backfill({ db: t.testDb.db, platform: testMarket({ games: 20 }), log: quiet }, 1, at);
    await refreshViews(t.testDb.db, at, { force: true });
  });
  afterAll(async () => {
    await t?.close();
    await kv?.close();
    await redis?.dispose();
  });

  it('keeps answering reads with an API key, signs in and out, and warns once', async () => {
    const u = await createUser(t);
    const s = await login(t.app, u.email, u.password);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/keys',
      headers: bearer(s),
      payload: { name: 'reader', scopes: ['read'] },
    });
    expect(created.statusCode).toBe(200);
    const apiKey = { 'x-api-key': created.json().key as string };
    const before = await t.app.inject({ url: '/api/trending', headers: apiKey });
    expect(before.statusCode).toBe(200);

    await redis.kill();
    for (let i = 0; i < 10; i += 1) {
      const res = await t.app.inject({ url: '/api/trending', headers: apiKey });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(before.json());
      expect(res.headers.ratelimit).toMatch(/^"api_key";r=\d+;t=\d+$/);
    }
    const again = await login(t.app, u.email, u.password);
    expect((await t.app.inject({ url: '/api/auth/me', headers: bearer(again) })).json()).toMatchObject({
      email: u.email,
    });
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(again) });
    expect(out.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/auth/me', headers: bearer(again) })).statusCode).toBe(401);
    expect(logged.count(DEGRADED_MESSAGE)).toBe(1);
  });
});
