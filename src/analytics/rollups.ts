/**
 * The rollup job: keeps the analytics rollups within a minute of the raw events. Ingest queues
 * each stored batch (sdk_rollup_inbox, in the transaction that stores its events); each run folds
 * the queued batches into the rollups, a few at a time, deleting them from the queue in the same
 * transaction: every event is counted once, late and out-of-order ones in their own day, and a
 * run's work is proportional to the events new since the last one, not to the size of their days.
 * Then it rebuilds whole the days marked for it (events_touched: a repair, as after migration
 * 0030), and derives the day stats of the games folded (stats.ts). Folds and rebuilds share their
 * statements (rollup.source.ts) and run one at a time, in any process (a lock in the database).
 *
 * Pacing: after a run that worked for W, the scheduled job pauses PACE × W before the next one
 * (index.ts, through the scheduler's job_state, so every process honours it): the runs then take at
 * most 1 / (PACE + 1) of the time. A run also re-derives the day stats of its days (about a month
 * of a game's rollups read back), a cost per run, not per event, that a pause spreads over more
 * events. The price is freshness: an event that arrives just after a run began waits for that run,
 * the pause, the scheduler's next start and the next run, so the rollups lag the raw events by at
 * most (PACE + 2) × W plus the interval and the scheduler's tick: within a minute while a run takes
 * up to 4.5 s.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import {
  analyzeRollups,
  claimTouchedDays,
  foldQueued,
  lastQueued,
  rebuildDay,
  releaseTouchedDay,
  type TouchedDay,
} from './rollups.repo.js';
import { deriveDayStats } from './stats.js';

export interface RollupDeps {
  db: Db;
  clock: Clock;
  log?: Pick<FastifyBaseLogger, 'error' | 'warn'>;
}

/** Days claimed at a time. */
const CLAIM = 50;
/** Queued batch parts folded per transaction (a batch is one part per game and day it touches):
 * a fold's cost is partly per event and partly per player and session it updates, so larger folds
 * cost less per event (on the bench's ingest, 200 parts a transaction folded 41,000 events/s on
 * PostgreSQL, 1,000 parts 67,000/s; 10,000 no more). */
const FOLD_BATCHES = 1000;
/** A claim this old belongs to a run that died: it may be taken again. */
export const STALE_CLAIM_MS = 10 * 60_000;
/** Statistics are refreshed after this many days folded or rebuilt since the last refresh (sooner
 * while the job has done little: after 1, 2, 4, 8 and 16 days, as tables grow from empty and plans
 * made on an empty table's statistics pick the wrong index), or any number of days once this long
 * has passed since the last refresh. */
const ANALYZE_AFTER_DAYS = 20;
const ANALYZE_EVERY_MS = 15 * 60_000;
/** The scheduled job pauses this many times the length of a run that folded anything. */
export const PACE = 8;

export class Rollups {
  private lastAnalyzeMs = Number.NEGATIVE_INFINITY;
  private sinceAnalyze = 0;
  private analyzedDays = 0;

  constructor(private readonly deps: RollupDeps) {}

  /** Folds every queued batch and rebuilds every marked day (until none is left or `signal`
   * aborts), refreshing the planner's statistics whenever much changed (also midway through a long
   * backlog: a bulk build planned on the statistics of empty tables joins by loops), then derives
   * the day stats; returns the days folded or rebuilt (a day folded twice counts twice). */
  async run(signal?: AbortSignal): Promise<number> {
    const folded = await this.foldAll(signal);
    const rebuilt = await this.rebuildAll(signal);
    await this.derive(signal);
    await this.analyzeIfDue(0, signal);
    return folded + rebuilt;
  }

  /** Folds what was queued when the run began (a run under a steady stream of batches ends). */
  private async foldAll(signal?: AbortSignal): Promise<number> {
    let folded = 0;
    const upTo = await lastQueued(this.deps.db);
    if (upTo === 0) return 0;
    for (;;) {
      if (signal?.aborted) return folded;
      let keys: number;
      try {
        const done = await this.deps.db.transaction((tx) => foldQueued(tx, FOLD_BATCHES, upTo));
        if (done.batches === 0) return folded;
        keys = done.keys.length;
      } catch (err) {
        this.deps.log?.error(
          { code: (err as { code?: unknown } | null)?.code },
          'sdk rollup fold failed; will retry',
        );
        // The batches stay queued: the next run tries them again.
        return folded;
      }
      folded += keys;
      await this.analyzeIfDue(keys, signal);
    }
  }

  private async analyzeIfDue(rebuilt: number, signal?: AbortSignal): Promise<void> {
    this.sinceAnalyze += rebuilt;
    const now = performance.now();
    const after = Math.min(ANALYZE_AFTER_DAYS, Math.max(1, this.analyzedDays));
    const due = this.sinceAnalyze >= after || now - this.lastAnalyzeMs >= ANALYZE_EVERY_MS;
    if (this.sinceAnalyze > 0 && due && !signal?.aborted) {
      this.analyzedDays += this.sinceAnalyze;
      await analyzeRollups(this.deps.db);
      this.sinceAnalyze = 0;
      this.lastAnalyzeMs = now;
    }
  }

  private async rebuildAll(signal?: AbortSignal): Promise<number> {
    let rebuilt = 0;
    for (;;) {
      if (signal?.aborted) return rebuilt;
      const now = this.deps.clock.now();
      const keys = await claimTouchedDays(this.deps.db, now, new Date(now.getTime() - STALE_CLAIM_MS), CLAIM);
      if (keys.length === 0) return rebuilt;
      for (const key of keys) {
        if (signal?.aborted) break;
        if (await this.rebuild(key)) {
          rebuilt += 1;
          await this.analyzeIfDue(1, signal);
        }
      }
      // Keys left claimed by an abort are taken again once stale (or by the next run's claim).
    }
  }

  /** The day stats of what was rebuilt (stats.ts); a failure leaves the days due for the next run. */
  private async derive(signal?: AbortSignal): Promise<void> {
    try {
      await deriveDayStats(this.deps.db, this.deps.clock.now(), signal);
    } catch (err) {
      this.deps.log?.error(
        { code: (err as { code?: unknown } | null)?.code },
        'sdk day stats failed; will retry',
      );
    }
  }

  private async rebuild(key: TouchedDay): Promise<boolean> {
    try {
      await this.deps.db.transaction((tx) => rebuildDay(tx, key));
      await releaseTouchedDay(this.deps.db, key);
      return true;
    } catch (err) {
      this.deps.log?.error(
        { code: (err as { code?: unknown } | null)?.code, day: key.day },
        'sdk rollup rebuild failed; will retry',
      );
      // Left claimed: taken again once the claim is stale, not in a loop within this run.
      return false;
    }
  }
}
