/**
 * SQL of raw-data retention (retention.ts): the monthly partitions of `events` as the catalog
 * lists them, dropping one whole, the oldest outbox batch, and pruning event_ids in bounded
 * batches. Rollup tables are never touched here.
 */
import type { Db, Queryable } from '../db/index.js';

/** The names of every partition attached to `events` (whatever they are called: the caller parses
 * them strictly and leaves alone what it does not recognise). */
export async function eventPartitionNames(q: Queryable): Promise<string[]> {
  const r = await q.query<{ name: string }>(
    `SELECT c.relname AS name
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'events'::regclass
      ORDER BY c.relname`,
  );
  return r.rows.map((row) => row.name);
}

/** How long DROP waits for its lock: dropping a partition locks `events` itself, so waiting behind
 * a long reader (an export) would stall every ingest write queued behind the DROP. Giving up is
 * harmless: the next run drops it. */
const DROP_LOCK_TIMEOUT = '5s';

/** Drops the month's partition with its rows. DDL takes no parameters: the name is built from
 * integers only (year, month), never from catalog or input text (as createMonthPartition). */
export async function dropMonthPartition(db: Db, year: number, month: number): Promise<void> {
  if (!Number.isInteger(year) || !Number.isInteger(month) || month < 1 || month > 12 || year < 1000) {
    throw new RangeError('invalid partition month');
  }
  const name = `events_p${year}${String(month).padStart(2, '0')}`;
  await db.transaction(async (tx) => {
    await tx.exec(`SET LOCAL lock_timeout = '${DROP_LOCK_TIMEOUT}'`);
    await tx.exec(`DROP TABLE IF EXISTS ${name}`);
  });
}

/** When the oldest batch waiting to be written was accepted, in the outbox or (JetStream) as a
 * queued claim (null: none waits). */
export async function oldestOutboxBatch(q: Queryable): Promise<Date | null> {
  const r = await q.query<{ at: Date | null }>(
    `SELECT LEAST((SELECT min(created_at) FROM ingest_outbox),
                  (SELECT min(created_at) FROM ingest_claims WHERE state = 'queued')) AS at`,
  );
  return r.rows[0]?.at ?? null;
}

/** Deletes at most `limit` event ids received before `before`; returns how many. Each call is
 * its own short statement (row locks on that batch only), so ingest is never held up for long.
 * ctid = ANY(ARRAY(...)) makes the delete a TID scan of the rows the subquery found. */
export async function pruneEventIdsBatch(q: Queryable, before: Date, limit: number): Promise<number> {
  const r = await q.query(
    `DELETE FROM event_ids
      WHERE ctid = ANY(ARRAY(SELECT ctid FROM event_ids WHERE received_at < $1 LIMIT $2))`,
    [before, limit],
  );
  return r.rowCount;
}
