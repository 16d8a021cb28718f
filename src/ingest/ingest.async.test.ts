import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { bearer, login, signedIn } from '../../test/helpers/auth.js';
import { runSvc } from '../../test/helpers/cli.js';
import { migratedDataDir, testEngines } from '../../test/helpers/db.js';
import {
  eventRow,
  ingestKey,
  postEvents,
  sdkEvent,
  sdkEvents,
  storedEvents,
} from '../../test/helpers/ingest.js';
import { systemClock } from '../clock.js';
import { openPglite } from '../db/index.js';
import { insertEvents, moveOutbox } from './ingest.repo.js';
import { Partitions } from './partitions.js';
import { OutboxQueue } from './queue.js';
import { IngestWriter } from './writer.js';

describe.each(testEngines())('async ingest, countries and recent events (%s)', (engine) => {
  let t: TestApp;
  let queue: OutboxQueue;

  beforeAll(async () => {
    t = await buildTestApp({ engine });
    // The tests drive the writer themselves.
    await t.app.ingest.writer.stop();
    queue = t.app.ingest.queue as OutboxQueue;
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.app.ingest.writer.flush();
    t.app.ingest.service.mode = 'async';
    queue.highWaterMark = 50_000;
  });

  it('answers 202 with final counts, and the writer stores the events afterwards', async () => {
    const k = await ingestKey(t);
    const events = [...sdkEvents(1, 4), sdkEvent(2), sdkEvent(5, { type: 'nope' })];
    const res = await postEvents(t.app, { api_key: k.key, events });
    expect(res.statusCode).toBe(202);
    expect(res.headers['x-svc-ingest-mode']).toBe('async');
    expect(res.json()).toMatchObject({ accepted: 4, rejected: 1, deduped: 1 });
    expect(await storedEvents(t, k.teamId)).toHaveLength(0);
    expect(queue.depth()).toBe(4);
    // Dedupe was settled before the answer: a replay while the batch waits is all deduped.
    const replay = await postEvents(t.app, { api_key: k.key, events: sdkEvents(1, 4) });
    expect([replay.statusCode, replay.json().deduped, replay.json().accepted]).toEqual([202, 4, 0]);
    expect(await t.app.ingest.writer.flush()).toBe(4);
    expect(queue.depth()).toBe(0);
    expect((await storedEvents(t, k.teamId)).map((r) => r.event_id)).toEqual([
      'evt-00000001',
      'evt-00000002',
      'evt-00000003',
      'evt-00000004',
    ]);
  });

  it('keeps a batch in the outbox when its move fails, and the next move stores it once', async () => {
    const k = await ingestKey(t);
    await postEvents(t.app, { api_key: k.key, events: sdkEvents(1, 3) });
    await postEvents(t.app, { api_key: k.key, events: sdkEvents(4, 2) });
    // A writer that moved both batches, then crashed before its commit.
    await expect(
      t.testDb.db.transaction(async (tx) => {
        expect(await moveOutbox(tx, { limit: 10 })).toEqual({ batches: 2, events: 5 });
        throw new Error('the writer died');
      }),
    ).rejects.toThrow('the writer died');
    expect(queue.depth()).toBe(5);
    expect(await t.app.ingest.writer.flush()).toBe(5);
    expect(await t.app.ingest.writer.flush()).toBe(0);
    expect((await storedEvents(t, k.teamId)).map((r) => r.event_id)).toEqual(
      sdkEvents(1, 5).map((e) => e.event_id),
    );
  });

  it('keeps each accepted batch in the outbox until stored: a process started later stores it', async () => {
    const k = await ingestKey(t);
    const outbox = async () => (await t.testDb.db.query('SELECT id FROM ingest_outbox')).rowCount;
    await postEvents(t.app, { api_key: k.key, events: sdkEvents(1, 3) });
    expect(await outbox()).toBe(1);
    // This process "dies" with the batch unstored; the next one's queue finds it in the table.
    const next = new OutboxQueue(t.testDb.db);
    expect(next.depth()).toBe(0);
    expect(await next.refreshDepth()).toBe(3);
    expect(await new IngestWriter({ db: t.testDb.db, clock: systemClock, queue: next }).flush()).toBe(3);
    expect(await outbox()).toBe(0);
    expect(await storedEvents(t, k.teamId)).toHaveLength(3);
    expect(await queue.refreshDepth()).toBe(0);
  });

  it('lets several writers drain one outbox at once, each batch stored exactly once', async () => {
    const k = await ingestKey(t);
    const batches = 40;
    for (let b = 0; b < batches; b += 1) {
      await postEvents(t.app, { api_key: k.key, events: sdkEvents(b * 25 + 1, 25) });
    }
    // Four "processes", each with its queue and writer, claiming up to 10 batches at a time.
    const writers = Array.from({ length: 4 }, () => {
      const q = new OutboxQueue(t.testDb.db);
      return new IngestWriter({ db: t.testDb.db, clock: systemClock, queue: q });
    });
    const stored = await Promise.all(
      writers.map(async (w) => {
        let n = 0;
        for (let moved = await w.writeOnce(); moved !== null; moved = await w.writeOnce()) n += moved;
        return n;
      }),
    );
    expect(stored.reduce((a, b) => a + b, 0)).toBe(batches * 25);
    const rows = await storedEvents(t, k.teamId);
    expect(rows).toHaveLength(batches * 25);
    expect(new Set(rows.map((r) => r.event_id)).size).toBe(batches * 25);
    await queue.refreshDepth();
  });

  it('falls back to synchronous ingest (200) over the high-water mark or when the queue is down', async () => {
    const k = await ingestKey(t);
    queue.highWaterMark = 5;
    expect((await postEvents(t.app, { api_key: k.key, events: sdkEvents(1, 5) })).statusCode).toBe(202);
    const over = await postEvents(t.app, { api_key: k.key, events: sdkEvents(6, 2) });
    expect([over.statusCode, over.headers['x-svc-ingest-mode']]).toEqual([200, 'sync']);
    expect(over.json()).toEqual({ accepted: 2, rejected: 0, deduped: 0, errors: [] });
    expect(await storedEvents(t, k.teamId)).toHaveLength(2);
    await t.app.ingest.writer.flush();
    queue.highWaterMark = 50_000;
    const publish = queue.publish.bind(queue);
    queue.publish = async () => {
      throw new Error('queue unreachable');
    };
    try {
      const down = await postEvents(t.app, { api_key: k.key, events: sdkEvents(8, 2) });
      expect([down.statusCode, down.headers['x-svc-ingest-mode'], down.json().accepted]).toEqual([
        200,
        'sync',
        2,
      ]);
    } finally {
      queue.publish = publish;
    }
    expect(await storedEvents(t, k.teamId)).toHaveLength(9);
  });

  it("fills a player's country from their latest session_start into later events that lack one", async () => {
    const k = await ingestKey(t);
    t.app.ingest.service.mode = 'sync';
    const start = (n: number, player: string, country: string) =>
      sdkEvent(n, { type: 'session_start', player_id: player, payload: { country } });
    await postEvents(t.app, { api_key: k.key, events: [start(1, 'p-a', 'DE'), start(2, 'p-b', 'JP')] });
    const later = [
      sdkEvent(3, { player_id: 'p-a' }),
      start(4, 'p-a', 'FR'),
      sdkEvent(5, { player_id: 'p-a' }),
      sdkEvent(6, { player_id: 'p-a', type: 'purchase', payload: { sku: 's', price: 1, country: 'US' } }),
      sdkEvent(7, { player_id: 'p-b' }),
      sdkEvent(8, { player_id: 'p-c' }),
    ];
    expect((await postEvents(t.app, { api_key: k.key, events: later })).json().accepted).toBe(6);
    t.app.ingest.service.mode = 'async';
    await postEvents(t.app, { api_key: k.key, events: [sdkEvent(9, { player_id: 'p-a' })] });
    await t.app.ingest.writer.flush();
    const rows = await storedEvents(t, k.teamId);
    expect(rows.map((r) => [r.event_id.slice(-1), r.country])).toEqual([
      ['1', 'DE'],
      ['2', 'JP'],
      ['3', 'DE'],
      ['4', 'FR'],
      ['5', 'FR'],
      ['6', 'US'],
      ['7', 'JP'],
      ['8', null],
      ['9', 'FR'],
    ]);
  });

  it("GET /api/sdk/events/recent lists the caller's team's events, newest first", async () => {
    const k = await ingestKey(t);
    t.app.ingest.service.mode = 'sync';
    await postEvents(t.app, { api_key: k.key, events: sdkEvents(1, 3) }, { 'x-svc-sdk-version': 'v9' });
    await postEvents(t.app, {
      api_key: k.key,
      events: [sdkEvent(4, { type: 'custom', payload: { name: 'q' } })],
    });
    const owner = await login(t.app, k.email, k.password);
    const res = await t.app.inject({ url: '/api/sdk/events/recent?limit=2', headers: bearer(owner) });
    expect(res.statusCode).toBe(200);
    const events = res.json().events as Record<string, unknown>[];
    expect(events.map((e) => e.event_id)).toEqual([
      'evt-00000004',
      expect.stringMatching(/^evt-0000000[123]$/),
    ]);
    expect(events[0]).toMatchObject({
      type: 'custom',
      platform: 'platform_1',
      game_id: 'game-1',
      player_id: 'player-hash-0001',
      session_id: null,
      country: null,
      sdk_version: null,
      payload: { name: 'q' },
    });
    const stranger = await signedIn(t);
    const theirs = await t.app.inject({ url: '/api/sdk/events/recent', headers: bearer(stranger) });
    expect(theirs.json()).toEqual({ events: [] });
    const tooMany = await t.app.inject({ url: '/api/sdk/events/recent?limit=101', headers: bearer(owner) });
    expect([tooMany.statusCode, tooMany.json().field]).toEqual([422, 'query.limit']);
    expect((await t.app.inject({ url: '/api/sdk/events/recent' })).statusCode).toBe(401);
    const read = await ingestKey(t, { scopes: ['read'] });
    const byKey = await t.app.inject({ url: '/api/sdk/events/recent', headers: { 'x-api-key': read.key } });
    expect([byKey.statusCode, byKey.json().code]).toEqual([403, 'api_key_read_only']);
  });
});

describe('svc events tail', () => {
  it('prints the newest events of a team without payloads or whole player ids', async () => {
    const dir = await migratedDataDir('svc-events-');
    const db = await openPglite(join(dir, 'pg'));
    try {
      const row = (n: number, team: number) =>
        eventRow(n, {
          team_id: team,
          received_at: `2026-11-2${n}T10:00:00.000Z`,
          ts: `2026-11-2${n}T09:59:00.000Z`,
          game_id: 'g1',
          player_id: 'abcdef0123456789',
          type: 'purchase',
          payload: { sku: 'secret-sku', price: 5 },
          country: n === 3 ? 'DE' : null,
        });
      await new Partitions().ensure(db, ['2026-11-21T00:00:00Z']);
      await insertEvents(db, [row(1, 7), row(2, 7), row(3, 7), row(4, 8)]);
    } finally {
      await db.close();
    }
    const res = await runSvc(['events', 'tail', '--team', '7', '--limit', '2'], { DATA_DIR: dir });
    expect(res.code).toBe(0);
    expect(res.out).toEqual([
      '2026-11-23T10:00:00.000Z  2026-11-23T09:59:00.000Z  purchase               platform_1  game=g1  event=evt-00000003  player=abcdef…  country=DE',
      '2026-11-22T10:00:00.000Z  2026-11-22T09:59:00.000Z  purchase               platform_1  game=g1  event=evt-00000002  player=abcdef…  country=-',
    ]);
    expect(res.out.join('\n')).not.toContain('secret-sku');
    expect((await runSvc(['events', 'tail', '--team', '9'], { DATA_DIR: dir })).out).toEqual([
      'no events for team 9',
    ]);
    expect(await runSvc(['events', 'tail'], { DATA_DIR: dir })).toMatchObject({
      code: 2,
      err: 'svc events: --team must be a team id (a positive whole number)\nusage: svc events tail --team <id> [--limit N]',
    });
  });
});
