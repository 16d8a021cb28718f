/**
 * The queue writer: takes batches from the ingest queue and stores them in `events`, one
 * transaction per claim (the outbox: repo.moveOutbox, one statement; JetStream: many requests'
 * messages in one COPY). The queue is told after the commit (a JetStream message is acked then);
 * when the write fails nothing was stored and the batches are handed out again, so nothing is lost
 * and nothing is stored twice.
 *
 * With JetStream no batch waits in the outbox, except those left by the embedded queue (a
 * deployment that moved onto NATS, or a version before the stream carried the rows): every minute
 * the writer sweeps outbox rows older than SWEEP_AFTER_MS into `events` itself, and warns of claims
 * queued for over STALE_CLAIM_MS (a stream that lost messages). The outbox queue needs no sweep:
 * its writers take the oldest rows, whoever committed them.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import { moveOutbox, type OutboxSelection, staleClaims } from './ingest.repo.js';
import type { Claim, IngestQueue } from './queue.js';

export interface WriterDeps {
  db: Db;
  clock: Clock;
  queue: IngestQueue;
  log?: Pick<FastifyBaseLogger, 'error' | 'warn'>;
}

/** Events per claim: large enough to amortise the round trip and the commit, small enough to keep
 * one COPY a few MB. */
export const WRITE_CHUNK = 10_000;
/** A claim queued this long is reported: its message should have been written long before. */
export const STALE_CLAIM_MS = 60 * 60_000;
/** An outbox row this old is taken as never announced (far above any healthy queue delay). */
export const SWEEP_AFTER_MS = 5 * 60_000;
const SWEEP_EVERY_MS = 60_000;
const SWEEP_BATCHES = 100;
const DEPTH_EVERY_MS = 1_000;

/** Only the error code: a driver message can quote row values, and payloads are never logged. */
function code(err: unknown): unknown {
  return (err as { code?: unknown } | null)?.code;
}

/** Moves the selected outbox batches into `events` in one transaction. */
export function storeOutbox(
  db: Db,
  selection: OutboxSelection,
): Promise<{ batches: number; events: number }> {
  return db.transaction((tx) => moveOutbox(tx, selection));
}

export class IngestWriter {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private lastSweep = -Infinity;
  private lastDepth = -Infinity;
  private background: Promise<unknown> | undefined;

  constructor(private readonly deps: WriterDeps) {}

  /** Writes one claim's worth; returns the events written, or null when nothing waited. */
  async writeOnce(): Promise<number | null> {
    const claim = await this.deps.queue.next(WRITE_CHUNK);
    return claim ? this.write(claim) : null;
  }

  /** Stores `claim` in one transaction and tells the queue; the events written, or null when a
   * claim of the oldest outbox rows found none. */
  private async write(claim: Claim): Promise<number | null> {
    let moved: { batches: number; events: number };
    try {
      moved = await this.deps.db.transaction((tx) => claim.write(tx));
    } catch (err) {
      await claim.retry();
      throw err;
    }
    await claim.done(moved);
    // A claim of the oldest rows that found none: the outbox is empty (or held by other writers).
    if (claim.oldest && moved.batches === 0) return null;
    return moved.events;
  }

  /** Writes until the queue is empty (or a write fails) and returns the events written; one run
   * at a time. */
  flush(): Promise<number> {
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** One claim ahead: the next claim is fetched (JetStream: its messages read and their rows made)
   * while this one's transaction runs, so the process's work and the database's overlap instead of
   * taking turns. A claim fetched ahead when a write fails is handed back at once. */
  private async drain(): Promise<number> {
    const queue = this.deps.queue;
    let total = 0;
    let ahead: Promise<Claim | null> = queue.next(WRITE_CHUNK);
    for (;;) {
      const claim = await ahead;
      if (!claim) return total;
      ahead = queue.next(WRITE_CHUNK);
      // Awaited in the next round; until then a failure must not count as unhandled.
      ahead.catch(() => {});
      let n: number | null;
      try {
        n = await this.write(claim);
      } catch (err) {
        const next = await ahead.catch(() => null);
        await next?.retry();
        throw err;
      }
      if (n === null) {
        // The outbox is empty: what was fetched ahead is a claim of nothing yet; let it go.
        await (await ahead.catch(() => null))?.retry();
        return total;
      }
      total += n;
    }
  }

  /** Moves batches accepted more than SWEEP_AFTER_MS before `now` and still not stored; returns
   * how many batches it stored. */
  async sweep(now: Date): Promise<number> {
    const before = new Date(now.getTime() - SWEEP_AFTER_MS);
    let batches = 0;
    for (;;) {
      const moved = await storeOutbox(this.deps.db, { limit: SWEEP_BATCHES, before });
      batches += moved.batches;
      if (moved.batches < SWEEP_BATCHES) break;
    }
    if (batches > 0) this.deps.log?.warn({ batches }, 'ingest sweep stored batches the queue never carried');
    if (this.deps.queue.kind === 'jetstream') {
      const stale = await staleClaims(this.deps.db, new Date(now.getTime() - STALE_CLAIM_MS));
      if (stale.batches > 0) {
        this.deps.log?.warn(
          stale,
          'accepted ingest batches are still not stored an hour later: is the writer running, and does the stream still hold them?',
        );
      }
    }
    return batches;
  }

  private tick(): void {
    // Wall time paces the work (a test's fixed clock must not stop it); the clock dates the sweep.
    const wall = performance.now();
    if (!this.background && wall - this.lastDepth >= DEPTH_EVERY_MS) {
      this.lastDepth = wall;
      const sweep = this.deps.queue.kind === 'jetstream' && wall - this.lastSweep >= SWEEP_EVERY_MS;
      if (sweep) this.lastSweep = wall;
      this.background = Promise.all([
        sweep
          ? this.sweep(this.deps.clock.now()).catch((err: unknown) =>
              this.deps.log?.error({ code: code(err) }, 'ingest sweep failed; will retry'),
            )
          : undefined,
        // An estimate for backpressure: when it cannot be read, the next second tries again.
        this.deps.queue.refreshDepth().catch(() => {}),
      ]).finally(() => {
        this.background = undefined;
      });
    }
    // A run still going (a fetch waiting out a NATS that went away) reports its own failure once:
    // joining it from every tick would log that one failure once per tick.
    if (this.deps.queue.depth() === 0 || this.running) return;
    this.flush().catch((err: unknown) =>
      this.deps.log?.error({ code: code(err) }, 'ingest writer failed; will retry'),
    );
  }

  /** Runs the writer every `intervalMs` in this process (the depth refresh every second, the
   * JetStream sweep every minute). */
  start(intervalMs = 200): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a run in progress. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.background;
    await this.running?.catch(() => {});
  }

  get started(): boolean {
    return this.timer !== undefined;
  }
}
