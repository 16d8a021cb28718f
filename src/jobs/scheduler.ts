import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import { claimDueJob, finishJob } from './jobs.repo.js';

/** A job is run(now, signal) on an interval; it only calls domain services. A long job checks
 * `signal` between steps, so shutdown does not wait for it to finish (it resumes next run). */
export interface Job {
  name: string;
  intervalMs: number;
  /** How long a claimed run may take before another process may take over (default 4 × interval, ≥ 1 min). */
  leaseMs?: number;
  /** May ask not to run again for `pauseMs` after this run ends (longer than its interval). */
  // biome-ignore lint/suspicious/noConfusingVoidType: most jobs are `async run() {…}`, which return void.
  run(now: Date, signal: AbortSignal): Promise<void | JobRunResult>;
}

export interface JobRunResult {
  pauseMs?: number;
}

export interface SchedulerDeps {
  db: Db;
  clock: Clock;
  log: Pick<FastifyBaseLogger, 'info' | 'error' | 'warn'>;
  /** Identifies this process in leases (tests give readable names). */
  owner?: string;
}

/**
 * Runs registered jobs when due. Due-ness and leases live in `job_state`, so runs never overlap
 * (in this process or another) and a restarted process resumes the schedule where it was.
 */
export class Scheduler {
  readonly owner: string;
  private readonly jobs: Job[] = [];
  private readonly running = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private readonly abort = new AbortController();

  constructor(private readonly deps: SchedulerDeps) {
    this.owner = deps.owner ?? `${process.pid}-${randomUUID().slice(0, 8)}`;
  }

  add(job: Job): this {
    if (this.jobs.some((j) => j.name === job.name)) throw new Error(`job ${job.name} is registered twice`);
    this.jobs.push(job);
    return this;
  }

  get jobNames(): string[] {
    return this.jobs.map((j) => j.name);
  }

  /** Starts due jobs (without waiting for them) and returns the names started. */
  async tick(): Promise<string[]> {
    const started: string[] = [];
    for (const job of this.jobs) {
      if (this.running.has(job.name)) continue;
      const now = this.deps.clock.now();
      const leaseMs = job.leaseMs ?? Math.max(60_000, job.intervalMs * 4);
      const claimed = await claimDueJob(this.deps.db, {
        name: job.name,
        owner: this.owner,
        now,
        leaseUntil: new Date(now.getTime() + leaseMs),
        dueBefore: new Date(now.getTime() - job.intervalMs),
      });
      if (!claimed) continue;
      started.push(job.name);
      const run = this.execute(job, now).finally(() => this.running.delete(job.name));
      this.running.set(job.name, run);
    }
    return started;
  }

  private async execute(job: Job, now: Date): Promise<void> {
    let error: string | null = null;
    let pauseMs = 0;
    try {
      pauseMs = (await job.run(now, this.abort.signal))?.pauseMs ?? 0;
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
      this.deps.log.error({ err, job: job.name }, 'job failed');
    }
    try {
      const finishedAt = this.deps.clock.now();
      await finishJob(this.deps.db, {
        name: job.name,
        owner: this.owner,
        finishedAt,
        error,
        notBefore: pauseMs > 0 ? new Date(finishedAt.getTime() + pauseMs) : null,
      });
    } catch (err) {
      this.deps.log.warn({ err, job: job.name }, 'could not record job result; its lease will expire');
    }
  }

  /** Waits for the runs in progress (tests; shutdown). */
  async idle(): Promise<void> {
    await Promise.all([...this.running.values()]);
  }

  start(tickMs = 5_000): void {
    if (this.timer || this.jobs.length === 0) return;
    const loop = () => {
      this.tick().catch((err: unknown) => this.deps.log.warn({ err }, 'scheduler tick failed'));
    };
    this.timer = setInterval(loop, tickMs);
    this.timer.unref();
    loop();
  }

  /** Stops starting jobs, asks the running ones to stop at their next step, and waits for them. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.abort.abort();
    await this.idle();
  }
}
