import type { Queryable } from '../db/index.js';

export interface JobStateRow {
  name: string;
  lease_owner: string | null;
  lease_until: Date | null;
  last_started_at: Date | null;
  last_finished_at: Date | null;
  last_status: 'ok' | 'failed' | null;
  last_error: string | null;
  runs: number;
  failures: number;
  /** Asked by the last run: not due again before this time. */
  not_before: Date | null;
}

/**
 * Claims a due job for `owner` until `leaseUntil`: succeeds only when nobody holds a live lease
 * and the last run started at or before `dueBefore` (and any pause that run asked for is over).
 * Atomic, so two processes never both win.
 */
export async function claimDueJob(
  db: Queryable,
  job: { name: string; owner: string; now: Date; leaseUntil: Date; dueBefore: Date },
): Promise<boolean> {
  const res = await db.query(
    `INSERT INTO job_state (name, lease_owner, lease_until, last_started_at, runs)
     VALUES ($1, $2, $3, $4, 1)
     ON CONFLICT (name) DO UPDATE
       SET lease_owner = EXCLUDED.lease_owner, lease_until = EXCLUDED.lease_until,
           last_started_at = EXCLUDED.last_started_at, runs = job_state.runs + 1
     WHERE (job_state.lease_until IS NULL OR job_state.lease_until < $4)
       AND (job_state.last_started_at IS NULL OR job_state.last_started_at <= $5)
       AND (job_state.not_before IS NULL OR job_state.not_before <= $4)
     RETURNING name`,
    [job.name, job.owner, job.leaseUntil, job.now, job.dueBefore],
  );
  return res.rowCount === 1;
}

/** Releases the lease and records how the run ended (only if `owner` still holds it). */
export async function finishJob(
  db: Queryable,
  run: { name: string; owner: string; finishedAt: Date; error: string | null; notBefore?: Date | null },
): Promise<void> {
  await db.query(
    `UPDATE job_state
        SET lease_owner = NULL, lease_until = NULL, last_finished_at = $3, not_before = $5,
            last_status = CASE WHEN $4::text IS NULL THEN 'ok' ELSE 'failed' END,
            last_error = $4::text,
            failures = failures + CASE WHEN $4::text IS NULL THEN 0 ELSE 1 END
      WHERE name = $1 AND lease_owner = $2`,
    [run.name, run.owner, run.finishedAt, run.error, run.notBefore ?? null],
  );
}

export async function jobStates(db: Queryable): Promise<JobStateRow[]> {
  return (await db.query<JobStateRow>('SELECT * FROM job_state ORDER BY name')).rows;
}
