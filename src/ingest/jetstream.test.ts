import { randomBytes } from 'node:crypto';
import { connect } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { migratedDb, type TestDb } from '../../test/helpers/db.js';
import { eventRow, ingestKey, postEvents, sdkEvents, storedEvents } from '../../test/helpers/ingest.js';
import { systemClock } from '../clock.js';
import { type EventRow, insertOutbox } from './ingest.repo.js';
import { outboxParts } from './ingest.service.js';
import { JetStreamQueue } from './jetstream.js';
import { Partitions } from './partitions.js';
import type { DeferredQueue, QueuedBatch } from './queue.js';
import { IngestWriter, storeBatches } from './writer.js';

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
    const ids = await insertOutbox(
      t.db,
      batches.map((rows) => JSON.stringify(rows)),
      new Date(),
    );
    return batches.map((rows, i) => ({ rows, outboxId: ids[i]! }));
  }

  it('redelivers a nacked batch, and the writer stores it once even when it was stored before', async () => {
    const [b1, b2] = await outboxed([eventRow(1), eventRow(2)], [eventRow(3)]);
    await queue.publish(b1!);
    await queue.publish(b2!);
    expect(await queue.refreshDepth()).toBe(2);
    const [first, second] = await queue.pull(5_000);
    expect(first!.batch).toEqual(b1);
    // A writer that stored the first batch, then died before acking either.
    const partitions = new Partitions();
    expect(await storeBatches({ db: t.db, partitions }, [first!.batch])).toBe(2);
    await first!.nack();
    await second!.nack();
    expect(await queue.refreshDepth()).toBe(2);
    const writer = new IngestWriter({ db: t.db, clock: systemClock, queue, partitions });
    // The nacks asked for redelivery after 1 s; the first batch's outbox row is gone: skipped.
    await new Promise((r) => setTimeout(r, 1_200));
    expect(await writer.flush()).toBe(1);
    expect(await queue.refreshDepth()).toBe(0);
    const stored = await t.db.query<{ event_id: string }>('SELECT event_id FROM events ORDER BY event_id');
    expect(stored.rows.map((r) => r.event_id)).toEqual(['evt-00000001', 'evt-00000002', 'evt-00000003']);
    expect((await t.db.query('SELECT 1 FROM ingest_outbox')).rowCount).toBe(0);
  });

  it('carries batches split to fit the server, and refuses a message over its max_payload', async () => {
    const big = (n: number) => ({ ...eventRow(n), payload: { level: n, blob: 'x'.repeat(600_000) } });
    const parts = outboxParts([big(10), big(11), big(12)]);
    expect(parts.map((p) => p.rows.map((r) => r.event_id))).toEqual([
      ['evt-00000010'],
      ['evt-00000011'],
      ['evt-00000012'],
    ]);
    for (const [i, p] of parts.entries())
      await queue.publish({ rows: p.rows, outboxId: 100 + i, encodedRows: p.json });
    const messages = await queue.pull(5_000);
    expect(messages.map((m) => [m.batch.outboxId, m.batch.rows[0]!.payload])).toEqual(
      parts.map((p, i) => [100 + i, p.rows[0]!.payload]),
    );
    for (const m of messages) await m.ack();
    await expect(queue.publish({ rows: [big(13), big(14)], outboxId: 200 })).rejects.toThrow(/max_payload/);
  });
});

describe.skipIf(!NATS_URL)('POST /api/sdk/events with NATS_URL', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp({ env: { NATS_URL: NATS_URL! } });
    await t.app.ingest.writer.stop();
    const queue = t.app.ingest.queue as DeferredQueue;
    for (let i = 0; i < 50 && !queue.connected; i += 1) await new Promise((r) => setTimeout(r, 100));
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
