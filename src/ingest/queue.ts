/**
 * The ingest queue between the request (validated, deduped, quota charged) and the writer (stores
 * batches in `events`). Two kinds:
 *
 * - `outbox` (embedded, no NATS_URL): the request commits the batch's rows to the `ingest_outbox`
 *   table, which is the queue. Writers claim its oldest rows with FOR UPDATE SKIP LOCKED, so any
 *   number of serve and worker processes on one database share it, and a crash loses nothing: a
 *   claim that did not commit leaves the rows. A batch is stored exactly when its outbox row is
 *   deleted (repo.moveOutbox).
 * - `jetstream` (NATS_URL, jetstream.ts): the request publishes the rows to a JetStream work queue
 *   (the durable store) before it commits, and the writers of every process share its consumer;
 *   the claims of migration 0040 store each committed batch exactly once.
 */
import type { Db, Queryable } from '../db/index.js';
import { moveOutbox, type OutboxSelection, outboxDepth } from './ingest.repo.js';
import type { Carrier } from './settle.js';

/** An accepted batch, committed to the outbox: what is announced to the outbox queue. */
export interface QueuedBatch {
  outboxId: number;
  events: number;
}

/** Batches a writer was handed: it writes them in a transaction, then says how it went. */
export interface Claim {
  /** Stores the batches in `tx`; returns what it stored. */
  write(tx: Queryable): Promise<{ batches: number; events: number }>;
  /** `write` committed (`moved` is what it stored): forget the batches for good. */
  done(moved: { batches: number; events: number }): Promise<void>;
  /** `write` failed: hand the batches out again later. */
  retry(): Promise<void>;
  /** Outbox: a claim of the oldest rows (finding none means the outbox is empty). */
  readonly oldest?: boolean;
}

/** What every queue does; IngestQueue adds what its kind does for the request. */
export interface QueueBase {
  readonly kind: 'outbox' | 'jetstream';
  /** Over this depth the route stops queueing and ingests synchronously (backpressure). */
  readonly highWaterMark: number;
  /** What waits to be written (outbox: events; JetStream: messages), as last known. */
  depth(): number;
  /** Whether batches can be queued now (false: the route goes synchronous). */
  healthy(): boolean;
  /** Up to `maxEvents` events' worth of batches to move, or null when nothing waits. */
  next(maxEvents: number): Promise<Claim | null>;
  /** Reads the depth from where the batches wait (the writer does, every second). */
  refreshDepth(): Promise<number>;
  /** Starts what runs in the background (JetStream: connecting). */
  start(): void;
  close(): Promise<void>;
}

/** The embedded queue: the request commits its batch to the outbox, then counts it here. */
export interface OutboxKind extends QueueBase {
  readonly kind: 'outbox';
  /** After the batch's outbox row committed (rejects when the queue is closed). */
  publish(batch: QueuedBatch): Promise<void>;
}

/** JetStream: the request publishes its rows before it commits (settle.ts, sink `stream`). */
export interface StreamKind extends QueueBase, Carrier {
  readonly kind: 'jetstream';
}

export type IngestQueue = OutboxKind | StreamKind;

/** Events per outbox claim, in batches (a batch carries at most 500 events). */
const EVENTS_PER_BATCH = 500;
export const OUTBOX_HIGH_WATER = 50_000;

/**
 * The outbox table as the queue. `depth()` counts the events this process queued minus those its
 * writer moved, corrected from the table by refreshDepth (other processes' batches, rows moved
 * elsewhere); a reading that raced with a local change is dropped, the next one applies.
 */
export class OutboxQueue implements OutboxKind {
  readonly kind = 'outbox' as const;
  highWaterMark = OUTBOX_HIGH_WATER;
  private events = 0;
  /** Bumped on every local change: a refresh read before it is stale. */
  private changes = 0;
  private closed = false;

  constructor(private readonly db: Db) {}

  depth(): number {
    return this.events;
  }

  healthy(): boolean {
    return !this.closed;
  }

  /** After the batch's outbox row committed: counts it (rejects when the queue is closed). */
  async publish(batch: QueuedBatch): Promise<void> {
    if (this.closed) throw new Error('the ingest queue is closed');
    this.add(batch.events);
  }

  async next(maxEvents: number): Promise<Claim | null> {
    if (this.closed) return null;
    const selection: OutboxSelection = { limit: Math.max(1, Math.floor(maxEvents / EVENTS_PER_BATCH)) };
    return {
      oldest: true,
      write: (tx) => moveOutbox(tx, selection),
      done: async (moved) => {
        // Nothing left to claim: whatever the count said is held by other writers or gone.
        this.add(moved.batches === 0 ? -this.events : -moved.events);
      },
      // The rows are still there (the transaction rolled back): nothing to hand back.
      retry: async () => {},
    };
  }

  /** Reads the depth from the table. */
  async refreshDepth(): Promise<number> {
    const seen = this.changes;
    const n = await outboxDepth(this.db);
    if (seen === this.changes) this.events = n;
    return this.events;
  }

  /** Nothing runs in the background: the writer's tick refreshes the depth. */
  start(): void {}

  async close(): Promise<void> {
    this.closed = true;
  }

  private add(n: number): void {
    this.events = Math.max(0, this.events + n);
    this.changes += 1;
  }
}
