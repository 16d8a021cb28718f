/**
 * The ingest queue between the request (validated, deduped, quota charged, committed) and the
 * writer (inserts into `events`). An interface so a NATS JetStream implementation can replace the
 * in-process one; the contract is at-least-once: a message is removed only when acked, and the
 * writer stores a batch only while claiming its outbox row, so redelivery stores nothing twice.
 */
import type { EventRow } from './ingest.repo.js';

export interface QueuedBatch {
  rows: EventRow[];
  /** The batch's ingest_outbox row: the writer stores the rows in the transaction that deletes it,
   * and stores nothing when it is already gone (the batch was stored before). */
  outboxId: number;
  /** `rows` as JSON, when already encoded (the outbox's copy): saves encoding them again. */
  encodedRows?: string;
}

export interface QueueMessage {
  readonly batch: QueuedBatch;
  /** The batch is stored: remove it for good. */
  ack(): Promise<void>;
  /** The batch could not be stored: deliver it again later. */
  nack(): Promise<void>;
}

export interface IngestQueue {
  readonly kind: 'memory' | 'jetstream';
  /** Resolves once the batch is in the queue; rejects when it is full or unreachable. */
  publish(batch: QueuedBatch): Promise<void>;
  /** Events waiting or being written. */
  depth(): number;
  /** Over this depth the route stops queueing and ingests synchronously (backpressure). */
  readonly highWaterMark: number;
  /** Whether publishing can be expected to succeed (false: the route goes synchronous). */
  healthy(): boolean;
  /** Up to `maxEvents` events' worth of messages (at least one message when any is waiting). */
  pull(maxEvents: number): Promise<QueueMessage[]>;
  close(): Promise<void>;
}

export class QueueFullError extends Error {
  constructor() {
    super('the ingest queue is full');
    this.name = 'QueueFullError';
  }
}

export interface MemoryQueueOptions {
  /** Hard cap in events; publish rejects above it. */
  capacity?: number;
  highWaterMark?: number;
}

export const MEMORY_QUEUE_CAPACITY = 100_000;
export const MEMORY_QUEUE_HIGH_WATER = 50_000;

/**
 * Bounded in-process queue (embedded mode). It lives in this process's memory: a crash loses the
 * batches not yet written, which is why the server drains it on graceful shutdown and why
 * deployments that cannot accept that window use JetStream (NATS_URL).
 */
export class MemoryQueue implements IngestQueue {
  readonly kind = 'memory' as const;
  readonly capacity: number;
  highWaterMark: number;
  private readonly waiting: QueuedBatch[] = [];
  private inFlight = 0;
  private queuedEvents = 0;
  private closed = false;

  constructor(options: MemoryQueueOptions = {}) {
    this.capacity = options.capacity ?? MEMORY_QUEUE_CAPACITY;
    this.highWaterMark = options.highWaterMark ?? MEMORY_QUEUE_HIGH_WATER;
  }

  async publish(batch: QueuedBatch): Promise<void> {
    if (this.closed) throw new Error('the ingest queue is closed');
    if (this.depth() + batch.rows.length > this.capacity) throw new QueueFullError();
    this.waiting.push(batch);
    this.queuedEvents += batch.rows.length;
  }

  depth(): number {
    return this.queuedEvents + this.inFlight;
  }

  healthy(): boolean {
    return !this.closed;
  }

  async pull(maxEvents: number): Promise<QueueMessage[]> {
    const taken: QueuedBatch[] = [];
    let events = 0;
    while (this.waiting.length > 0) {
      const next = this.waiting[0]!;
      if (taken.length > 0 && events + next.rows.length > maxEvents) break;
      this.waiting.shift();
      taken.push(next);
      events += next.rows.length;
    }
    this.queuedEvents -= events;
    this.inFlight += events;
    return taken.map((batch) => this.message(batch));
  }

  private message(batch: QueuedBatch): QueueMessage {
    let settled = false;
    const settle = (requeue: boolean) => {
      if (settled) return;
      settled = true;
      this.inFlight -= batch.rows.length;
      if (requeue) {
        this.waiting.unshift(batch);
        this.queuedEvents += batch.rows.length;
      }
    };
    return {
      batch,
      ack: async () => settle(false),
      nack: async () => settle(true),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

/**
 * A queue that is connected in the background (JetStream at start-up, or after the server was
 * down): until it is, it reports itself unhealthy, so the route ingests synchronously instead of
 * failing or delaying start-up.
 */
export class DeferredQueue implements IngestQueue {
  private inner: IngestQueue | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    readonly kind: IngestQueue['kind'],
    readonly highWaterMark: number,
    private readonly open: () => Promise<IngestQueue>,
    private readonly onError: (err: unknown) => void = () => {},
    private readonly retryMs = 5_000,
  ) {}

  /** Starts connecting (again every retryMs until it works). */
  connect(): void {
    if (this.inner || this.closed || this.retry) return;
    this.open().then(
      (q) => {
        if (this.closed) void q.close();
        else this.inner = q;
      },
      (err: unknown) => {
        this.onError(err);
        if (this.closed) return;
        this.retry = setTimeout(() => {
          this.retry = undefined;
          this.connect();
        }, this.retryMs);
        this.retry.unref();
      },
    );
  }

  get connected(): boolean {
    return this.inner !== undefined;
  }

  async publish(batch: QueuedBatch): Promise<void> {
    if (!this.inner) throw new Error('the ingest queue is not connected');
    await this.inner.publish(batch);
  }

  depth(): number {
    return this.inner?.depth() ?? 0;
  }

  healthy(): boolean {
    return this.inner?.healthy() ?? false;
  }

  pull(maxEvents: number): Promise<QueueMessage[]> {
    return this.inner ? this.inner.pull(maxEvents) : Promise.resolve([]);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    await this.inner?.close();
  }
}
