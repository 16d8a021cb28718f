/**
 * The rollup job: keeps the analytics rollups within a minute of the raw events. Ingest marks
 * each (team, platform, game, UTC day) it stores events for; each run claims the marked days and
 * rebuilds their rollups from the raw events, one day per transaction. A rebuild replaces the whole
 * day, so late and out-of-order events land in their day and nothing counts twice; a day that got
 * events during its rebuild is rebuilt again by the next run. Then the day stats of the games
 * rebuilt are derived (stats.ts).
 *
 * Pacing: a day that keeps receiving events (today) is rebuilt whole each time, so a run grows with
 * the day. After a run that worked for W, the scheduled job pauses PACE × W before the next one
 * (index.ts, through the scheduler's job_state, so every process honours it): the runs then take at
 * most 1 / (PACE + 1) of the time. PACE is 8, not 5, because a rebuild costs PostgreSQL more than
 * its own duration (the rows it replaces are vacuumed afterwards): at 5, ingest lost 22% on
 * PostgreSQL in the bench. The price is freshness: an event that arrives just after a run began
 * waits for that run, the pause, the scheduler's next start and the next run, so the rollups lag
 * the raw events by at most (PACE + 2) × W plus the interval and the scheduler's tick: within a
 * minute while a run takes up to 4.5 s (README: about 450,000 events in a day on PGlite, a million
 * on PostgreSQL). Past that the rollups lag more rather than starve ingest.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import {
  analyzeRollups,
  claimTouchedDays,
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
/** A claim this old belongs to a run that died: it may be taken again. */
export const STALE_CLAIM_MS = 10 * 60_000;
/** Statistics are refreshed after a run that rebuilt this many days, or any number of days once
 * this long has passed since the last refresh. */
const ANALYZE_AFTER_DAYS = 20;
const ANALYZE_EVERY_MS = 15 * 60_000;
/** The scheduled job pauses this many times the length of a run that rebuilt anything. */
export const PACE = 8;

export class Rollups {
  private lastAnalyzeMs = Number.NEGATIVE_INFINITY;
  private sinceAnalyze = 0;

  constructor(private readonly deps: RollupDeps) {}

  /** Rebuilds every marked day (until none is left or `signal` aborts), refreshing the planner's
   * statistics whenever much changed (also midway through a long backlog: a bulk build planned on
   * the statistics of empty tables joins by loops), then derives the day stats; returns the days
   * rebuilt. */
  async run(signal?: AbortSignal): Promise<number> {
    const rebuilt = await this.rebuildAll(signal);
    await this.derive(signal);
    await this.analyzeIfDue(0, signal);
    return rebuilt;
  }

  private async analyzeIfDue(rebuilt: number, signal?: AbortSignal): Promise<void> {
    this.sinceAnalyze += rebuilt;
    const now = performance.now();
    const due = this.sinceAnalyze >= ANALYZE_AFTER_DAYS || now - this.lastAnalyzeMs >= ANALYZE_EVERY_MS;
    if (this.sinceAnalyze > 0 && due && !signal?.aborted) {
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
      let batch = 0;
      for (const key of keys) {
        if (signal?.aborted) break;
        if (await this.rebuild(key)) batch += 1;
      }
      rebuilt += batch;
      await this.analyzeIfDue(batch, signal);
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
