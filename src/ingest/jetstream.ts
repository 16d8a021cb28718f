/**
 * The ingest queue on NATS JetStream (NATS_URL): a file-backed work-queue stream, so a batch
 * acknowledged with 202 survives a crash of any process, and a durable pull consumer shared by
 * every writer (serve and worker processes compete for messages). Messages are removed when the
 * writer acks them after its insert committed; an unacked message is redelivered (ack wait), and
 * the insert is idempotent.
 */
import {
  AckPolicy,
  connect,
  DiscardPolicy,
  type JetStreamClient,
  type JsMsg,
  type NatsConnection,
  RetentionPolicy,
  StorageType,
} from 'nats';
import { MAX_BATCH } from './ingest.schemas.js';
import type { IngestQueue, QueuedBatch, QueueMessage } from './queue.js';

export interface JetStreamOptions {
  url: string;
  /** Stream name (default SVC_INGEST); its subject is `<stream>.events`, its consumer `<stream>_writer`. */
  stream?: string;
  /** Messages (batches) queued over which the route goes synchronous. */
  highWaterMark?: number;
  /** How long a pulled message may stay unacked before it is redelivered. */
  ackWaitMs?: number;
}

export const JETSTREAM_HIGH_WATER = 10_000;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The wire form of a batch: its outbox id and rows, reusing the rows' JSON when already made. */
export function encodeBatch(batch: QueuedBatch): Uint8Array {
  const rows = batch.encodedRows ?? JSON.stringify(batch.rows);
  return encoder.encode(`{"outboxId":${batch.outboxId},"rows":${rows}}`);
}

export function decodeBatch(data: Uint8Array): QueuedBatch {
  return JSON.parse(decoder.decode(data)) as QueuedBatch;
}
const DEPTH_REFRESH_MS = 1_000;

export class JetStreamQueue implements IngestQueue {
  readonly kind = 'jetstream' as const;
  readonly highWaterMark: number;
  private connected = true;
  private pending = 0;
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly names: { stream: string; subject: string; durable: string },
    highWaterMark: number,
  ) {
    this.highWaterMark = highWaterMark;
  }

  /** Connects and makes sure the stream and its consumer exist (idempotent across processes). */
  static async connect(options: JetStreamOptions): Promise<JetStreamQueue> {
    const stream = options.stream ?? 'SVC_INGEST';
    const names = { stream, subject: `${stream}.events`, durable: `${stream}_writer` };
    const nc = await connect({ servers: options.url, maxReconnectAttempts: -1, name: 'svc-ingest' });
    try {
      const jsm = await nc.jetstreamManager();
      await jsm.streams.add({
        name: stream,
        subjects: [names.subject],
        storage: StorageType.File,
        retention: RetentionPolicy.Workqueue,
        discard: DiscardPolicy.New,
      });
      // Created once: adding it again would reset what an operator (or a test) set on it.
      const exists = await jsm.consumers.info(stream, names.durable).then(
        () => true,
        () => false,
      );
      if (!exists) {
        await jsm.consumers.add(stream, {
          durable_name: names.durable,
          ack_policy: AckPolicy.Explicit,
          ack_wait: (options.ackWaitMs ?? 30_000) * 1_000_000,
        });
      }
    } catch (err) {
      await nc.close();
      throw err;
    }
    const queue = new JetStreamQueue(
      nc,
      nc.jetstream(),
      names,
      options.highWaterMark ?? JETSTREAM_HIGH_WATER,
    );
    queue.watch();
    return queue;
  }

  /** Follows the connection (healthy or not) and the queue depth in the background. */
  private watch(): void {
    void (async () => {
      for await (const s of this.nc.status()) {
        if (s.type === 'disconnect') this.connected = false;
        if (s.type === 'reconnect') this.connected = true;
      }
    })();
    this.timer = setInterval(() => void this.refreshDepth().catch(() => {}), DEPTH_REFRESH_MS);
    this.timer.unref();
  }

  /** Batches waiting or pulled but not yet acked, as the server counts them. */
  async refreshDepth(): Promise<number> {
    const c = await this.js.consumers.get(this.names.stream, this.names.durable);
    const info = await c.info();
    this.pending = info.num_pending + info.num_ack_pending;
    return this.pending;
  }

  async publish(batch: QueuedBatch): Promise<void> {
    const data = encodeBatch(batch);
    // The service splits batches so each fits (MAX_MESSAGE_BYTES); a server configured with a
    // smaller max_payload refuses them, and the service then stores them synchronously.
    const max = this.nc.info?.max_payload ?? 1024 * 1024;
    if (data.length > max) throw new Error(`an ingest batch of ${data.length} bytes exceeds max_payload`);
    // Resolves on the stream's ack: the batch is on disk on the server.
    await this.js.publish(this.names.subject, data);
    this.pending += 1;
  }

  /** In messages (batches of at most 500 events), from the last refresh. */
  depth(): number {
    return this.pending;
  }

  healthy(): boolean {
    return this.connected && !this.nc.isClosed();
  }

  async pull(maxEvents: number): Promise<QueueMessage[]> {
    const c = await this.js.consumers.get(this.names.stream, this.names.durable);
    const info = await c.info();
    // Nacked messages awaiting redelivery count as ack-pending, not pending. Ack-pending ones held
    // by another writer make this fetch wait out `expires` for nothing: a 1 s cost, only then.
    const waiting = info.num_pending + info.num_ack_pending;
    if (waiting === 0) return [];
    const max = Math.min(waiting, Math.max(1, Math.floor(maxEvents / MAX_BATCH)));
    const taken: QueueMessage[] = [];
    for await (const m of await c.fetch({ max_messages: max, expires: 1_000 })) {
      taken.push(message(m));
      if (taken.length >= max) break;
    }
    return taken;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (!this.nc.isClosed()) await this.nc.drain();
  }
}

function message(m: JsMsg): QueueMessage {
  return {
    batch: decodeBatch(m.data),
    ack: async () => {
      // Waits for the server's confirmation: only then is the batch gone for good.
      await m.ackAck();
    },
    nack: async () => m.nak(1_000),
  };
}
