/**
 * The queue writer: takes accepted batches off the ingest queue and inserts them into `events`,
 * many batches per COPY, in the transaction that deletes their outbox rows; a batch whose row is
 * already gone was stored before (a redelivery, a relayed copy, the request's own fallback) and is
 * skipped. A message is acked only after that commit; on failure it is nacked and retried, so
 * nothing is lost and nothing is stored twice. The relay re-publishes outbox rows whose message
 * was lost (a crash between commit and publish, or with the memory queue).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import { claimOutbox, type EventRow, insertEvents, staleOutbox } from './ingest.repo.js';
import type { Partitions } from './partitions.js';
import type { IngestQueue, QueuedBatch } from './queue.js';

export interface WriterDeps {
  db: Db;
  clock: Clock;
  queue: IngestQueue;
  partitions: Partitions;
  log?: Pick<FastifyBaseLogger, 'error' | 'warn'>;
}

/** Events per INSERT: large enough to amortise the round trip, small enough to keep one
 * statement's JSON parameter a few MB. */
export const WRITE_CHUNK = 5_000;
/** An outbox row this old is taken as lost by the queue (far above any healthy queue delay). */
export const RELAY_AFTER_MS = 5 * 60_000;
const RELAY_EVERY_MS = 60_000;

/** Only the error code: a driver message can quote row values, and payloads are never logged. */
function code(err: unknown): unknown {
  return (err as { code?: unknown } | null)?.code;
}

/**
 * Stores the batches whose outbox row this transaction deletes (all of them, unless some were
 * stored before) and returns the events stored. Used by the writer and by the request when the
 * queue refuses a batch it already put in the outbox.
 */
export async function storeBatches(
  deps: Pick<WriterDeps, 'db' | 'partitions'>,
  batches: readonly QueuedBatch[],
): Promise<number> {
  await deps.partitions.ensure(
    deps.db,
    batches.flatMap((b) => b.rows.map((r) => r.ts)),
  );
  return deps.db.transaction(async (tx) => {
    const owned = await claimOutbox(
      tx,
      batches.map((b) => b.outboxId),
    );
    const rows = batches.filter((b) => owned.has(b.outboxId)).flatMap((b) => b.rows);
    await insertEvents(tx, rows);
    return rows.length;
  });
}

export class IngestWriter {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private lastRelay = 0;
  private relaying: Promise<unknown> | undefined;

  constructor(private readonly deps: WriterDeps) {}

  /** Writes one pull's worth; returns the events written, or null when the queue was empty. */
  async writeOnce(): Promise<number | null> {
    const messages = await this.deps.queue.pull(WRITE_CHUNK);
    if (messages.length === 0) return null;
    let stored = 0;
    try {
      stored = await storeBatches(
        this.deps,
        messages.map((m) => m.batch),
      );
    } catch (err) {
      await Promise.all(messages.map((m) => m.nack()));
      throw err;
    }
    await Promise.all(messages.map((m) => m.ack()));
    return stored;
  }

  /** Writes until the queue is empty (or a write fails) and returns the events written; one run
   * at a time. */
  flush(): Promise<number> {
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.writeOnce();
      if (n === null) return total;
      total += n;
    }
  }

  /** Re-publishes batches accepted more than RELAY_AFTER_MS before `now` and still not stored. */
  async relay(now: Date): Promise<number> {
    if (!this.deps.queue.healthy()) return 0;
    const stale = await staleOutbox(this.deps.db, new Date(now.getTime() - RELAY_AFTER_MS), 100);
    for (const b of stale) {
      await this.deps.queue.publish({
        rows: JSON.parse(b.rows) as EventRow[],
        outboxId: b.id,
        encodedRows: b.rows,
      });
    }
    if (stale.length > 0)
      this.deps.log?.warn({ batches: stale.length }, 'ingest relay re-published lost batches');
    return stale.length;
  }

  private tick(): void {
    const now = this.deps.clock.now().getTime();
    if (now - this.lastRelay >= RELAY_EVERY_MS) {
      this.lastRelay = now;
      this.relaying = this.relay(new Date(now)).catch((err: unknown) =>
        this.deps.log?.error({ code: code(err) }, 'ingest relay failed; will retry'),
      );
    }
    if (this.deps.queue.depth() === 0) return;
    this.flush().catch((err: unknown) =>
      this.deps.log?.error({ code: code(err) }, 'ingest writer failed; will retry'),
    );
  }

  /** Runs the writer every `intervalMs` in this process (and the relay every minute). */
  start(intervalMs = 200): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a run in progress. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.relaying;
    await this.running?.catch(() => {});
  }

  get started(): boolean {
    return this.timer !== undefined;
  }
}
