/**
 * The time budget of a collection, so a hanging Roblox API cannot stretch one collection past the
 * collector's interval. A collection opens with discover(now) (the collector's first read); every
 * read made with the same `now` belongs to it and shares one deadline, `budgetMs` of wall-clock
 * time after it opened. At the deadline its signal aborts: reads in flight, queued or waiting to
 * retry end at once, and its later reads are refused before any request. Each is a failed read (a
 * gap), as any other failure. Cut reads are counted rather than logged one by one; the count is
 * logged once, when the collection closes: at the next discover (the next collection) or close().
 * A read with a `now` no collection opened (a game looked up for tracking) has no budget: its
 * per-request timeouts and retries bound it, as before.
 */
import { setMaxListeners } from 'node:events';

export interface BudgetLog {
  warn(obj: Record<string, unknown>, msg: string): void;
}

export interface CollectionBudgets {
  /** Opens the collection of `now` and starts its clock; every earlier collection is closed. */
  open(now: Date): void;
  /** The signal of `now`'s collection (aborted once its budget ran out or it closed); undefined outside one. */
  signalFor(now: Date): AbortSignal | undefined;
  /**
   * Counts a read of `now`'s collection that the budget cut. False when that collection is already
   * closed (its count is logged): the caller then reports the read like any failed one.
   */
  noteCut(now: Date): boolean;
  /** Closes every open collection, logging the cut count of each that lost reads. */
  closeAll(): void;
}

interface Collection {
  readonly startedAt: Date;
  readonly controller: AbortController;
  readonly timer: NodeJS.Timeout;
  open: boolean;
  cut: number;
}

/** Closed collections remembered, so a late read of one is refused instead of getting a fresh budget. */
const KEEP_CLOSED = 4;
/** setTimeout's ceiling (about 24.8 days); a longer delay would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export function validateBudgetMs(budgetMs: number): number {
  if (!Number.isFinite(budgetMs) || budgetMs <= 0 || budgetMs > MAX_TIMER_MS) {
    throw new RangeError(
      `the Roblox collection time budget must be a number of milliseconds from 1 to ${MAX_TIMER_MS}; got ${budgetMs}`,
    );
  }
  return budgetMs;
}

/** The collector's interval when none is given: COLLECT_INTERVAL_SEC's default, 300 s. */
export const DEFAULT_COLLECT_INTERVAL_MS = 300_000;
/** A collection's reads get this share of the interval; the rest is for storing and the views. */
export const BUDGET_SHARE_OF_INTERVAL = 0.8;

/** A collection's budget from the source's options (throws a RangeError for a bad value). */
export function collectionBudgetMs(options: {
  collectIntervalMs?: number;
  collectionBudgetMs?: number;
}): number {
  const intervalMs = options.collectIntervalMs ?? DEFAULT_COLLECT_INTERVAL_MS;
  if (!Number.isFinite(intervalMs) || intervalMs <= 0) {
    throw new RangeError(
      `the collector interval must be a positive number of milliseconds; got ${intervalMs}`,
    );
  }
  return validateBudgetMs(options.collectionBudgetMs ?? Math.round(intervalMs * BUDGET_SHARE_OF_INTERVAL));
}

export function createCollectionBudgets(budgetMs: number, log?: BudgetLog): CollectionBudgets {
  validateBudgetMs(budgetMs);
  const collections = new Map<number, Collection>();

  function close(c: Collection): void {
    if (!c.open) return;
    c.open = false;
    clearTimeout(c.timer);
    // Aborting on close too: a straggling read of a finished collection must not run unbounded.
    c.controller.abort(new Error('the collection is closed'));
    if (c.cut > 0) {
      log?.warn(
        { collection: c.startedAt.toISOString(), budgetMs, cutReads: c.cut },
        'roblox collection ran out of its time budget; the reads it cut are gaps this cycle',
      );
    }
  }

  return {
    open(now) {
      for (const c of collections.values()) close(c);
      const controller = new AbortController();
      // Every queued or running read listens on this one signal (each removes its listener when it
      // ends), so hundreds at once are expected, not the leak Node's default cap of 10 warns of.
      setMaxListeners(0, controller.signal);
      const timer = setTimeout(
        () => controller.abort(new Error(`the collection time budget of ${budgetMs} ms ran out`)),
        budgetMs,
      );
      timer.unref(); // a budget never keeps the process alive
      const key = now.getTime();
      collections.delete(key); // the same moment collected again: a new budget, last in line
      collections.set(key, { startedAt: now, controller, timer, open: true, cut: 0 });
      for (const old of collections.keys()) {
        if (collections.size <= KEEP_CLOSED + 1) break;
        collections.delete(old); // the oldest, always closed: only the newest is open
      }
    },
    signalFor: (now) => collections.get(now.getTime())?.controller.signal,
    noteCut(now) {
      const c = collections.get(now.getTime());
      if (!c?.open) return false;
      c.cut += 1;
      return true;
    },
    closeAll() {
      for (const c of collections.values()) close(c);
    },
  };
}
