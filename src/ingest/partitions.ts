/**
 * Monthly partitions of `events`, created on demand before a batch that needs one is written.
 * Only months inside the accepted ts window are ever created, so a client cannot make the
 * service create thousands of tables; events outside the window are rejected by the pipeline.
 */
import type { Queryable } from '../db/index.js';
import { createMonthPartition } from './ingest.repo.js';

const DAY_MS = 24 * 3600_000;
/** Accepted event times: at most 2 years back (late uploads) and 1 day ahead (client clock skew). */
export const MAX_EVENT_AGE_DAYS = 2 * 366;
export const MAX_EVENT_AGE_MS = MAX_EVENT_AGE_DAYS * DAY_MS;
export const MAX_EVENT_AHEAD_MS = DAY_MS;

/** How far back `ts` may lie. Never beyond the raw-event retention: an event of a month already
 * dropped would leave its day with that one raw event, and a rebuild of the day (a repair) would
 * replace the kept rollups with it (retention.ts). */
export interface AgeLimit {
  ms: number;
  /** As the out_of_range message says it. */
  words: string;
}

export function ageLimit(retentionDays: number | undefined): AgeLimit {
  if (retentionDays === undefined || retentionDays >= MAX_EVENT_AGE_DAYS) {
    return { ms: MAX_EVENT_AGE_MS, words: 'the last 2 years' };
  }
  return { ms: retentionDays * DAY_MS, words: `the last ${retentionDays} days` };
}

export function tsInWindow(ts: Date, receivedAt: Date, maxAgeMs: number = MAX_EVENT_AGE_MS): boolean {
  const d = ts.getTime() - receivedAt.getTime();
  return d <= MAX_EVENT_AHEAD_MS && -d <= maxAgeMs;
}

/** The first day of `t`'s UTC month, as YYYY-MM-01. */
export function monthOf(t: Date): string {
  return `${t.getUTCFullYear()}-${String(t.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

/** Postgres: a concurrent CREATE of the same table can fail with these instead of "exists". */
const RACE_CODES = new Set(['42P07', '23505']);

export class Partitions {
  private readonly known = new Set<string>();

  /** Makes sure every month of `times` has its partition (cached per process). A batch's 500 event
   * times usually fall in one or two months: each time costs a number here, only a new month a string. */
  async ensure(q: Queryable, times: Iterable<Date | string>): Promise<void> {
    const months = new Map<number, Date>();
    for (const t of times) {
      const d = typeof t === 'string' ? new Date(t) : t;
      const key = d.getUTCFullYear() * 12 + d.getUTCMonth();
      if (!months.has(key)) months.set(key, d);
    }
    for (const d of months.values()) {
      const month = monthOf(d);
      if (this.known.has(month)) continue;
      await this.create(q, month);
      this.known.add(month);
    }
  }

  /** Forgets a month whose partition was dropped (retention), so a later batch would create it
   * again instead of trusting the cache. */
  forget(year: number, month: number): void {
    this.known.delete(`${year}-${String(month).padStart(2, '0')}-01`);
  }

  private async create(q: Queryable, month: string): Promise<void> {
    const [year, mm] = month.split('-').map(Number) as [number, number];
    try {
      await createMonthPartition(q, year, mm);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      // Another process created it between our check and our CREATE: that is the goal reached.
      if (typeof code === 'string' && RACE_CODES.has(code)) return;
      throw err;
    }
  }
}
