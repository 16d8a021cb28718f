/**
 * The ingest queue between the request (validated, deduped, quota charged, its batch committed to
 * the `ingest_outbox` table) and the writer (moves batches into `events`). Two kinds:
 *
 * - `outbox` (embedded, no NATS_URL): the outbox table itself is the queue. Writers claim its
 *   oldest rows with FOR UPDATE SKIP LOCKED, so any number of serve and worker processes on one
 *   database share it, and a crash loses nothing: a claim that did not commit leaves the rows.
 * - `jetstream` (NATS_URL, jetstream.ts): each committed batch is also announced on a JetStream
 *   work queue, which spreads the batches over the writers of many processes.
 *
 * Either way a batch is stored exactly when its outbox row is deleted (repo.moveOutbox), so a
 * message delivered twice, or a batch stored by another path first, stores nothing twice.
 */
import type { Db } from '../db/index.js';
import { type OutboxSelection, outboxDepth } from './ingest.repo.js';

/** An accepted batch, committed to the outbox: what is announced to the writers. */
export interface QueuedBatch {
  outboxId: number;
  events: number;
}

/** Batches a writer was handed: it moves `selection` in a transaction, then says how it went. */
export interface Claim {
  readonly selection: OutboxSelection;
  /** The move committed (`moved` is what it stored): forget the batches for good. */
  done(moved: { batches: number; events: number }): Promise<void>;
  /** The move failed: hand the batches out again later. */
  retry(): Promise<void>;
}

export interface IngestQueue {
  readonly kind: 'outbox' | 'jetstream';
  /** Over this depth the route stops queueing and ingests synchronously (backpressure). */
  readonly highWaterMark: number;
  /** What waits to be written (outbox: events; JetStream: messages), as last known. */
  depth(): number;
  /** Whether batches can be queued now (false: the route goes synchronous). */
  healthy(): boolean;
  /** After the batch's outbox row committed: tells the writers (rejects when the queue is down). */
  publish(batch: QueuedBatch): Promise<void>;
  /** Up to `maxEvents` events' worth of batches to move, or null when nothing waits. */
  next(maxEvents: number): Promise<Claim | null>;
  /** Reads the depth from where the batches wait (the writer does, every second). */
  refreshDepth(): Promise<number>;
  /** Starts what runs in the background (JetStream: connecting). */
  start(): void;
  close(): Promise<void>;
}

/** Events per outbox claim, in batches (a batch carries at most 500 events). */
const EVENTS_PER_BATCH = 500;
export const OUTBOX_HIGH_WATER = 50_000;

/**
 * The outbox table as the queue. `depth()` counts the events this process queued minus those its
 * writer moved, corrected from the table by refreshDepth (other processes' batches, rows moved
 * elsewhere); a reading that raced with a local change is dropped, the next one applies.
 */
export class OutboxQueue implements IngestQueue {
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

  async publish(batch: QueuedBatch): Promise<void> {
    if (this.closed) throw new Error('the ingest queue is closed');
    this.add(batch.events);
  }

  async next(maxEvents: number): Promise<Claim | null> {
    if (this.closed) return null;
    return {
      selection: { limit: Math.max(1, Math.floor(maxEvents / EVENTS_PER_BATCH)) },
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
