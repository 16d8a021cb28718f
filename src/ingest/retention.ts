/**
 * Retention of raw SDK data (the daily sdk-retention job): drops the monthly `events` partitions
 * whose whole month lies before the retention cutoff, and forgets event ids received before the
 * dedupe horizon. The analytics rollups (sdk_* tables) are kept: dashboards outlive raw events.
 *
 * Why whole partitions only: dropping a table is instant and leaves no dead rows, where deleting
 * a month of rows would bloat the table and hold locks. A month straddling the cutoff waits until
 * all of it has aged out.
 *
 * Why ingest refuses events older than the retention (pipeline.ts, partitions.ts ageLimit): the
 * rollup job can rebuild a day from the raw events (a repair), replacing its rollups, so a rebuild
 * of a dropped day holding one late event would replace the day's kept rollups with that event.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.js';
import type { Partitions } from './partitions.js';
import {
  dropMonthPartition,
  eventPartitionNames,
  oldestOutboxBatch,
  pruneEventIdsBatch,
} from './retention.repo.js';

const DAY_MS = 24 * 3600_000;
export const DEFAULT_EVENT_RETENTION_DAYS = 400;
export const DEFAULT_DEDUPE_HORIZON_DAYS = 35;
/** Event ids deleted per statement: each is a short transaction, so ingest never waits long. */
export const PRUNE_BATCH = 50_000;
/**
 * A partition is dropped only this long after its month passed the cutoff. Ingest accepts an event
 * right at the cutoff, and a request still in flight (its batch not yet committed to the outbox,
 * so invisible to oldestOutboxBatch) could otherwise find its month gone: a sync write would fail,
 * and an async batch would fail in the writer on every attempt.
 */
export const DROP_GRACE_MS = DAY_MS;

/** SQLSTATE of a lock_timeout. */
const LOCK_NOT_AVAILABLE = '55P03';

function sqlState(err: unknown): unknown {
  return (err as { code?: unknown } | null)?.code;
}

export interface PartitionMonth {
  name: string;
  year: number;
  month: number;
}

/** events_pYYYYMM, exactly as createMonthPartition names them; anything else is not ours to drop. */
export function parsePartitionName(name: string): PartitionMonth | null {
  const m = /^events_p(\d{4})(\d{2})$/.exec(name);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  if (year < 1000 || month < 1 || month > 12) return null;
  return { name, year, month };
}

/** The first instant after the month (its partition's upper bound). */
export function monthEnd(year: number, month: number): Date {
  return new Date(Date.UTC(year, month, 1));
}

/** The partitions whose every instant lies before `cutoff`, oldest first. */
export function partitionsToDrop(names: readonly string[], cutoff: Date): PartitionMonth[] {
  return names
    .map(parsePartitionName)
    .filter((p): p is PartitionMonth => p !== null && monthEnd(p.year, p.month).getTime() <= cutoff.getTime())
    .sort((a, b) => a.year - b.year || a.month - b.month);
}

/**
 * Raw events older than this may go. Counted from the oldest batch still waiting in the outbox
 * when it is older than `now` (its events were accepted against that earlier receipt time), then
 * the grace for requests in flight.
 */
export function dropCutoff(now: Date, retentionDays: number, oldestWaiting: Date | null): Date {
  const from = oldestWaiting && oldestWaiting.getTime() < now.getTime() ? oldestWaiting : now;
  return new Date(from.getTime() - retentionDays * DAY_MS - DROP_GRACE_MS);
}

export interface RetentionDeps {
  db: Db;
  /** The process's partition cache: told about every month dropped. */
  partitions: Partitions;
  eventRetentionDays: number;
  dedupeHorizonDays: number;
  /** Event ids per delete statement (PRUNE_BATCH unless given). */
  pruneBatch?: number;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn'> | undefined;
}

export interface RetentionRun {
  /** Partition names dropped, oldest first. */
  dropped: string[];
  /** Event ids forgotten. */
  prunedEventIds: number;
}

export class Retention {
  constructor(private readonly deps: RetentionDeps) {}

  /** One pass; stops between steps when `signal` aborts (the next run resumes). */
  async run(now: Date, signal?: AbortSignal): Promise<RetentionRun> {
    const dropped = await this.dropPartitions(now, signal);
    const prunedEventIds = await this.pruneEventIds(now, signal);
    if (dropped.length > 0 || prunedEventIds > 0) {
      this.deps.log?.info({ dropped, prunedEventIds }, 'sdk raw-data retention');
    }
    return { dropped, prunedEventIds };
  }

  private async dropPartitions(now: Date, signal: AbortSignal | undefined): Promise<string[]> {
    const { db, partitions, eventRetentionDays } = this.deps;
    const cutoff = dropCutoff(now, eventRetentionDays, await oldestOutboxBatch(db));
    const dropped: string[] = [];
    for (const p of partitionsToDrop(await eventPartitionNames(db), cutoff)) {
      if (signal?.aborted) break;
      try {
        await dropMonthPartition(db, p.year, p.month);
      } catch (err) {
        // A long reader held `events`: leave the month for the next run rather than queue ingest.
        if (sqlState(err) !== LOCK_NOT_AVAILABLE) throw err;
        this.deps.log?.warn({ partition: p.name }, 'sdk retention: partition busy, left for the next run');
        continue;
      }
      partitions.forget(p.year, p.month);
      dropped.push(p.name);
    }
    return dropped;
  }

  private async pruneEventIds(now: Date, signal: AbortSignal | undefined): Promise<number> {
    const before = new Date(now.getTime() - this.deps.dedupeHorizonDays * DAY_MS);
    const batch = this.deps.pruneBatch ?? PRUNE_BATCH;
    let total = 0;
    for (;;) {
      if (signal?.aborted) return total;
      const n = await pruneEventIdsBatch(this.deps.db, before, batch);
      total += n;
      if (n < batch) return total;
    }
  }
}
