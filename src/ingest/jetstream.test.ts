import { randomBytes } from 'node:crypto';
import { connect } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { migratedDb, type TestDb } from '../../test/helpers/db.js';
import { eventRow, ingestKey, postEvents, sdkEvents, storedEvents } from '../../test/helpers/ingest.js';
import { systemClock } from '../clock.js';
import { type EventRow, insertOutbox } from './ingest.repo.js';
import { decodeBatch, encodeBatch, JetStreamQueue } from './jetstream.js';
import { Partitions } from './partitions.js';
import type { QueuedBatch } from './queue.js';
import { IngestWriter, storeOutbox } from './writer.js';

const NATS_URL = process.env.NATS_URL;

async function withJsm<T>(
  fn: (jsm: Awaited<ReturnType<Awaited<ReturnType<typeof connect>>['jetstreamManager']>>) => Promise<T>,
) {
  const nc = await connect({ servers: NATS_URL });
  try {
    return await fn(await nc.jetstreamManager());
  } finally {
    await nc.close();
  }
}

describe.skipIf(!NATS_URL)('JetStream ingest queue', () => {
  const stream = `SVC_INGEST_T${randomBytes(4).toString('hex').toUpperCase()}`;
  let queue: JetStreamQueue;
  let t: TestDb;

  beforeAll(async () => {
    queue = await JetStreamQueue.connect({ url: NATS_URL!, stream, ackWaitMs: 2_000 });
    t = await migratedDb('pglite');
  });
  afterAll(async () => {
    await queue.close();
    await t.dispose();
    await withJsm((jsm) => jsm.streams.delete(stream));
  });

  /** Batches in the outbox (as the request leaves them), ready to publish. */
  async function outboxed(...batches: EventRow[][]): Promise<QueuedBatch[]> {
    await new Partitions().ensure(
      t.db,
      batches.flat().map((r) => r.ts),
    );
    const out: QueuedBatch[] = [];
    for (const rows of batches) {
      const outboxId = await insertOutbox(t.db, JSON.stringify(rows), rows.length, new Date());
      out.push({ outboxId, events: rows.length });
    }
    return out;
  }

  it('redelivers a batch whose move failed, and a batch moved before is not stored again', async () => {
    const [b1, b2] = await outboxed([eventRow(1), eventRow(2)], [eventRow(3)]);
    await queue.publish(b1!);
    await queue.publish(b2!);
    expect(await queue.refreshDepth()).toBe(2);
    const claim = await queue.next(5_000);
    expect(claim!.selection).toEqual({ ids: [b1!.outboxId, b2!.outboxId] });
    // A writer that moved the first batch, then died before acking either.
    expect(await storeOutbox(t.db, { ids: [b1!.outboxId] })).toEqual({ batches: 1, events: 2 });
    await claim!.retry();
    expect(await queue.refreshDepth()).toBe(2);
    const writer = new IngestWriter({ db: t.db, clock: systemClock, queue });
    // The retry asked for redelivery after 1 s; the first batch's outbox row is gone: skipped.
    await new Promise((r) => setTimeout(r, 1_200));
    expect(await writer.flush()).toBe(1);
    expect(await queue.refreshDepth()).toBe(0);
    const stored = await t.db.query<{ event_id: string }>('SELECT event_id FROM events ORDER BY event_id');
    expect(stored.rows.map((r) => r.event_id)).toEqual(['evt-00000001', 'evt-00000002', 'evt-00000003']);
    expect((await t.db.query('SELECT 1 FROM ingest_outbox')).rowCount).toBe(0);
  });

  it('announces a batch with its outbox id and event count only: the rows stay in the outbox', () => {
    const wire = encodeBatch({ outboxId: 123_456_789, events: 500 });
    expect(new TextDecoder().decode(wire)).toBe('{"outboxId":123456789,"events":500}');
    expect(decodeBatch(wire)).toEqual({ outboxId: 123_456_789, events: 500 });
  });
});

describe.skipIf(!NATS_URL)('POST /api/sdk/events with NATS_URL', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp({ env: { NATS_URL: NATS_URL! } });
    await t.app.ingest.writer.stop();
    const queue = t.app.ingest.queue;
    for (let i = 0; i < 50 && !queue.healthy(); i += 1) await new Promise((r) => setTimeout(r, 100));
    // The tests' NATS is a test server: drop batches other runs left in the default stream.
    await withJsm((jsm) => jsm.streams.purge('SVC_INGEST'));
  });
  afterAll(() => t?.close());

  it('answers 202 once the batch is in the stream, and the writer stores it', async () => {
    expect(t.app.ingest.queue.kind).toBe('jetstream');
    const k = await ingestKey(t);
    const res = await postEvents(t.app, { api_key: k.key, events: sdkEvents(1, 3) });
    expect([res.statusCode, res.headers['x-svc-ingest-mode']]).toEqual([202, 'async']);
    expect(res.json()).toEqual({ accepted: 3, rejected: 0, deduped: 0, errors: [] });
    expect(await storedEvents(t, k.teamId)).toHaveLength(0);
    expect(await t.app.ingest.writer.flush()).toBe(3);
    expect(await storedEvents(t, k.teamId)).toHaveLength(3);
  });
});
