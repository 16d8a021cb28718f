/**
 * The ingest queue on NATS JetStream (NATS_URL): each batch committed to the outbox is announced
 * as a small message (its outbox id and event count) on a file-backed work-queue stream, and a
 * durable pull consumer shared by every writer (serve and worker processes compete for messages)
 * hands them out. A message is acked after the writer's move committed; an unacked one is
 * redelivered (ack wait), and moving a batch twice stores nothing twice (queue.ts).
 *
 * It connects in the background (start(), retrying every few seconds): until it is connected, and
 * while the connection is down, it reports itself unhealthy and the route ingests synchronously,
 * so NATS being away never fails a request or delays start-up.
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
import type { Claim, IngestQueue, QueuedBatch } from './queue.js';

export interface JetStreamOptions {
  url: string;
  /** Stream name (default SVC_INGEST); its subject is `<stream>.events`, its consumer `<stream>_writer`. */
  stream?: string;
  /** Messages (batches) queued over which the route goes synchronous. */
  highWaterMark?: number;
  /** How long a pulled message may stay unacked before it is redelivered. */
  ackWaitMs?: number;
  /** Told of each failed connection attempt (never with the URL: it may carry credentials). */
  onConnectError?: (err: unknown) => void;
  retryMs?: number;
}

export const JETSTREAM_HIGH_WATER = 10_000;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeBatch(batch: QueuedBatch): Uint8Array {
  return encoder.encode(JSON.stringify({ outboxId: batch.outboxId, events: batch.events }));
}

export function decodeBatch(data: Uint8Array): QueuedBatch {
  const m = JSON.parse(decoder.decode(data)) as Partial<QueuedBatch>;
  return { outboxId: Number(m.outboxId), events: Number(m.events ?? 0) };
}

interface Connection {
  nc: NatsConnection;
  js: JetStreamClient;
}

export class JetStreamQueue implements IngestQueue {
  readonly kind = 'jetstream' as const;
  readonly highWaterMark: number;
  private readonly names: { stream: string; subject: string; durable: string };
  private conn: Connection | undefined;
  private up = false;
  private pending = 0;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(private readonly options: JetStreamOptions) {
    const stream = options.stream ?? 'SVC_INGEST';
    this.names = { stream, subject: `${stream}.events`, durable: `${stream}_writer` };
    this.highWaterMark = options.highWaterMark ?? JETSTREAM_HIGH_WATER;
  }

  /** Connects now (tests, tools); rejects when NATS cannot be reached. */
  static async connect(options: JetStreamOptions): Promise<JetStreamQueue> {
    const queue = new JetStreamQueue(options);
    queue.attach(await queue.open());
    return queue;
  }

  /** Starts connecting in the background (again every retryMs until it works). */
  start(): void {
    if (this.conn || this.closed || this.retry) return;
    this.open().then(
      (conn) => {
        if (this.closed) void conn.nc.close();
        else this.attach(conn);
      },
      (err: unknown) => {
        this.options.onConnectError?.(err);
        if (this.closed) return;
        this.retry = setTimeout(() => {
          this.retry = undefined;
          this.start();
        }, this.options.retryMs ?? 5_000);
        this.retry.unref();
      },
    );
  }

  /** Connects and makes sure the stream and its consumer exist (idempotent across processes). */
  private async open(): Promise<Connection> {
    const { stream, subject, durable } = this.names;
    const nc = await connect({ servers: this.options.url, maxReconnectAttempts: -1, name: 'svc-ingest' });
    try {
      const jsm = await nc.jetstreamManager();
      await jsm.streams.add({
        name: stream,
        subjects: [subject],
        storage: StorageType.File,
        retention: RetentionPolicy.Workqueue,
        discard: DiscardPolicy.New,
      });
      // Created once: adding it again would reset what an operator (or a test) set on it.
      const exists = await jsm.consumers.info(stream, durable).then(
        () => true,
        () => false,
      );
      if (!exists) {
        await jsm.consumers.add(stream, {
          durable_name: durable,
          ack_policy: AckPolicy.Explicit,
          ack_wait: (this.options.ackWaitMs ?? 30_000) * 1_000_000,
        });
      }
    } catch (err) {
      await nc.close();
      throw err;
    }
    return { nc, js: nc.jetstream() };
  }

  /** Follows the connection (healthy or not) in the background. */
  private attach(conn: Connection): void {
    this.conn = conn;
    this.up = true;
    void (async () => {
      for await (const s of conn.nc.status()) {
        if (s.type === 'disconnect') this.up = false;
        if (s.type === 'reconnect') this.up = true;
      }
    })();
  }

  /** Batches waiting or pulled but not yet acked, as the server counts them. */
  async refreshDepth(): Promise<number> {
    if (!this.conn) return this.pending;
    const c = await this.conn.js.consumers.get(this.names.stream, this.names.durable);
    const info = await c.info();
    this.pending = info.num_pending + info.num_ack_pending;
    return this.pending;
  }

  async publish(batch: QueuedBatch): Promise<void> {
    if (!this.conn) throw new Error('the ingest queue is not connected');
    // Resolves on the stream's ack: the message is on disk on the server.
    await this.conn.js.publish(this.names.subject, encodeBatch(batch));
    this.pending += 1;
  }

  /** In messages (batches of at most 500 events), as last known. */
  depth(): number {
    return this.pending;
  }

  healthy(): boolean {
    return this.up && this.conn !== undefined && !this.conn.nc.isClosed();
  }

  async next(maxEvents: number): Promise<Claim | null> {
    if (!this.conn) return null;
    const c = await this.conn.js.consumers.get(this.names.stream, this.names.durable);
    const info = await c.info();
    // Nacked messages awaiting redelivery count as ack-pending, not pending. Ack-pending ones held
    // by another writer make this fetch wait out `expires` for nothing: a 1 s cost, only then.
    const waiting = info.num_pending + info.num_ack_pending;
    if (waiting === 0) return null;
    const max = Math.min(waiting, Math.max(1, Math.floor(maxEvents / MAX_BATCH)));
    const taken: JsMsg[] = [];
    for await (const m of await c.fetch({ max_messages: max, expires: 1_000 })) {
      taken.push(m);
      if (taken.length >= max) break;
    }
    if (taken.length === 0) return null;
    return {
      selection: { ids: taken.map((m) => decodeBatch(m.data).outboxId) },
      // Waits for the server's confirmation: only then is the message gone for good.
      done: async () => {
        await Promise.all(taken.map((m) => m.ackAck()));
      },
      retry: async () => {
        for (const m of taken) m.nak(1_000);
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const nc = this.conn?.nc;
    if (nc && !nc.isClosed()) await nc.drain();
  }
}
