/**
 * Dev Lens under load, through a real listening server: analyses run off the event loop (/healthz
 * stays fast while four 10 MB files are analysed), analyses in flight are capped per user and in
 * total (503 with Retry-After before the body is read), and a client that leaves frees its slot.
 */
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { bearer, type LoggedIn, signedIn } from '../../test/helpers/auth.js';
import { csvUpload } from '../../test/helpers/multipart.js';
import { defaultLimits, RETRY_AFTER_SECONDS } from './devlens.pool.js';

const LIMITS = defaultLimits();

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => t.close());

/** A Creator Hub engagement export: per day a Total row, a Benchmark row and `segments` country rows. */
function engagementCsv(days: number, segments: number): Buffer {
  const lines = ['Breakdown,Date,Daily Active Users'];
  for (let d = 0; d < days; d++) {
    const day = new Date(Date.UTC(2024, 0, 1) + d * 86_400_000).toISOString();
    lines.push(`Total,${day},${1000 + ((d * 37) % 200) + (d % 7 >= 5 ? 300 : 0)}`);
    lines.push(`Benchmark (similar experiences),${day},${1100 + ((d * 11) % 90)}`);
    for (let s = 0; s < segments; s++) lines.push(`Country ${s},${day},${(s * 13 + d * 7) % 500}`);
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

const SMALL = engagementCsv(60, 2);

async function post(user: LoggedIn, file: Buffer) {
  const body = csvUpload(file);
  const res = await request(`${base}/api/dev-lens/analyze`, {
    method: 'POST',
    headers: { ...bearer(user), ...body.headers },
    body: body.payload,
  });
  return {
    status: res.statusCode,
    headers: res.headers,
    body: (await res.body.json()) as Record<string, unknown>,
  };
}

/**
 * The same uploads as post(), sent at once from a worker thread: this test measures the server's event
 * loop, so the client's work (writing 40 MB) must not run on it. The bodies are copied to the thread
 * before the measurement starts.
 */
function postFromAnotherThread(users: LoggedIn[], file: Buffer) {
  const uploads = users.map((u) => {
    const body = csvUpload(file);
    return { headers: { ...bearer(u), ...body.headers }, payload: body.payload };
  });
  const client = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const { request } = require('undici');
     Promise.all(workerData.uploads.map(async (u) => {
       const res = await request(workerData.url, { method: 'POST', headers: u.headers, body: Buffer.from(u.payload) });
       return { status: res.statusCode, body: await res.body.json() };
     })).then((results) => parentPort.postMessage(results));`,
    { eval: true, workerData: { url: `${base}/api/dev-lens/analyze`, uploads } },
  );
  return new Promise<{ status: number; body: Record<string, unknown> }[]>((resolve, reject) => {
    client.once('message', resolve);
    client.once('error', reject);
  }).finally(() => client.terminate());
}

/** How many analyses the server has admitted so far (it logs each, with the count in flight). */
function admitted(): number {
  return t.logs.records().filter((r) => r.msg === 'Dev Lens analysis admitted').length;
}

/**
 * An upload that sends its form up to the middle of the file and then waits, once the server has
 * admitted it and is reading its body. `finish()` sends the rest; `leave()` drops the connection.
 */
async function heldUpload(user: LoggedIn) {
  const before = admitted();
  const body = csvUpload(SMALL);
  const cut = body.payload.length - 400;
  let finish!: () => void;
  const rest = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const abort = new AbortController();
  async function* chunks() {
    yield body.payload.subarray(0, cut);
    await rest;
    yield body.payload.subarray(cut);
  }
  const response = request(`${base}/api/dev-lens/analyze`, {
    method: 'POST',
    headers: { ...bearer(user), ...body.headers, 'content-length': String(body.payload.length) },
    body: Readable.from(chunks()),
    signal: abort.signal,
  }).then(async (res) => ({
    status: res.statusCode,
    body: (await res.body.json()) as Record<string, unknown>,
  }));
  response.catch(() => undefined); // leave() rejects it on purpose
  await vi.waitFor(() => expect(admitted()).toBe(before + 1), { timeout: 10_000, interval: 10 });
  return {
    response,
    finish,
    leave: () => {
      abort.abort();
      return response.catch(() => undefined);
    },
  };
}

async function holdMany(users: LoggedIn[]) {
  const held: Awaited<ReturnType<typeof heldUpload>>[] = [];
  for (const u of users) held.push(await heldUpload(u));
  return held;
}

describe('caps on analyses in flight', () => {
  it(`refuses a user's analysis past ${LIMITS.perUser} at once with 503 and Retry-After, and serves it again once one ends`, async () => {
    const user = await signedIn(t, { plan: 'Studio' });
    const held = await holdMany(Array.from({ length: LIMITS.perUser }, () => user));
    try {
      const before = admitted();
      const res = await post(user, SMALL);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS));
      expect(res.body).toEqual({
        code: 'temporarily_unavailable',
        detail: `You already have ${LIMITS.perUser} Dev Lens analyses running (at most ${LIMITS.perUser} at once); retry when one has finished.`,
      });
      expect(admitted()).toBe(before);
      // Another user is not held back by this one.
      expect((await post(await signedIn(t, { plan: 'Studio' }), SMALL)).status).toBe(200);

      for (const h of held) h.finish();
      for (const h of held) expect((await h.response).status).toBe(200);
      expect((await post(user, SMALL)).status).toBe(200);
    } finally {
      await Promise.all(held.map((h) => h.leave()));
    }
  });

  it(`refuses everyone past ${LIMITS.total} analyses in flight in total, and serves again once they end`, async () => {
    const users = await Promise.all(
      Array.from({ length: Math.ceil(LIMITS.total / LIMITS.perUser) }, () => signedIn(t, { plan: 'Studio' })),
    );
    const held = await holdMany(Array.from({ length: LIMITS.total }, (_, i) => users[i % users.length]!));
    try {
      const newcomer = await signedIn(t, { plan: 'Enterprise' });
      const res = await post(newcomer, SMALL);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS));
      expect(res.body).toEqual({
        code: 'temporarily_unavailable',
        detail: 'Dev Lens is analysing as many files as it can right now; retry in a few seconds.',
      });

      for (const h of held) h.finish();
      for (const h of held) expect((await h.response).status).toBe(200);
      expect((await post(newcomer, SMALL)).status).toBe(200);
    } finally {
      await Promise.all(held.map((h) => h.leave()));
    }
  });

  it('frees the slot of a client that disconnects mid-upload', async () => {
    const user = await signedIn(t, { plan: 'Studio' });
    const held = await holdMany(Array.from({ length: LIMITS.perUser }, () => user));
    try {
      expect((await post(user, SMALL)).status).toBe(503);
      await held[0]!.leave();
      // The server hears the disconnect shortly after; from then on the user has a free slot.
      const served = await vi.waitFor(
        async () => {
          const res = await post(user, SMALL);
          expect(res.status).toBe(200);
          return res;
        },
        { timeout: 10_000, interval: 50 },
      );
      expect(served.body.file_type).toBe('engagement');
      held[1]!.finish();
      expect((await held[1]!.response).status).toBe(200);
    } finally {
      await Promise.all(held.map((h) => h.leave()));
    }
  });
});

describe('analyses run off the event loop', () => {
  it('keeps answering /healthz while four 10 MB files are analysed', { timeout: 60_000 }, async () => {
    const big = engagementCsv(365, 700);
    expect(big.length).toBeGreaterThan(9.5 * 1024 * 1024);
    expect(big.length).toBeLessThan(10 * 1024 * 1024);
    const users = await Promise.all([1, 2, 3, 4].map(() => signedIn(t, { plan: 'Studio' })));
    // The pool starts its thread on first use (from TypeScript sources here, compiled on the way):
    // a one-off cost, not the load this test is about.
    expect((await post(users[0]!, SMALL)).status).toBe(200);

    let running = true;
    const began = performance.now();
    const uploads = postFromAnotherThread(users, big).finally(() => {
      running = false;
    });
    const health: number[] = [];
    while (running) {
      const started = performance.now();
      const res = await request(`${base}/healthz`);
      await res.body.dump();
      health.push(performance.now() - started);
      expect(res.statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const results = await uploads;
    const totalMs = performance.now() - began;

    // Four at once is within the default caps (at least 4 in total, 2 per user): every one is served.
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    for (const r of results) expect(r.body.coverage).toMatchObject({ days: 365, rows: 365 * 702 });
    expect(health.length).toBeGreaterThan(10);
    // Relative, not a fixed number of ms (the machine is shared): an analysis on the event loop
    // would hold some /healthz for at least one whole analysis, a quarter of the total or more.
    expect(Math.max(...health)).toBeLessThan(totalMs / 8);
  });
});
