/**
 * Where Dev Lens analyses run, and how many at once. A piscina pool of worker threads runs the
 * statistical core (analysis.worker.ts), so a 10 MiB CSV never blocks the HTTP event loop; an
 * admission gate caps the analyses in flight (reading their upload, waiting for a thread, or
 * running) per user and in total, so a burst of uploads cannot pile up memory: a request over
 * either cap is refused with 503 before its body is read.
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { AppError, errors } from '../errors.js';
import type { AnalysisOutcome, AnalysisTask } from './analysis.worker.js';
import type { FileBytes } from './file-bytes.js';
import type { Analysis } from './types.js';

export interface DevLensLimits {
  /** Worker threads running analyses (each holds one file's parse state). */
  threads: number;
  /** Analyses in flight across all users: running, waiting for a thread, or still uploading. */
  total: number;
  /** Analyses in flight for one user. */
  perUser: number;
}

/** One core is left to the event loop; the total lets a few uploads stream in while threads work. */
export function defaultLimits(cores = availableParallelism()): DevLensLimits {
  const threads = Math.max(1, cores - 1);
  return { threads, total: threads * 2 + 2, perUser: 2 };
}

/** Seconds a refused caller is told to wait: about one 10 MiB analysis. */
export const RETRY_AFTER_SECONDS = 5;

/** Counts analyses in flight; `enter` answers a release function, or throws 503 when a cap is reached. */
export class AnalysisGate {
  private inFlight = 0;
  private readonly byUser = new Map<number, number>();

  constructor(private readonly limits: Pick<DevLensLimits, 'total' | 'perUser'>) {}

  enter(userId: number): () => void {
    const mine = this.byUser.get(userId) ?? 0;
    if (mine >= this.limits.perUser) {
      throw errors.unavailable(
        `You already have ${mine} Dev Lens analyses running (at most ${this.limits.perUser} at once); retry when one has finished.`,
        RETRY_AFTER_SECONDS,
      );
    }
    if (this.inFlight >= this.limits.total) {
      throw errors.unavailable(
        'Dev Lens is analysing as many files as it can right now; retry in a few seconds.',
        RETRY_AFTER_SECONDS,
      );
    }
    this.inFlight++;
    this.byUser.set(userId, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight--;
      const left = (this.byUser.get(userId) ?? 1) - 1;
      if (left === 0) this.byUser.delete(userId);
      else this.byUser.set(userId, left);
    };
  }

  /** Analyses in flight (for tests and diagnostics). */
  get size(): number {
    return this.inFlight;
  }
}

/** The worker module next to this one: compiled JS in dist/, or the TypeScript source through tsx. */
export function workerFile(moduleUrl = import.meta.url): string {
  const fromSource = moduleUrl.endsWith('.ts');
  return new URL(fromSource ? './analysis.worker.dev.mjs' : './analysis.worker.js', moduleUrl).href;
}

export interface AnalysisPool {
  /** Analyses one file on a worker thread; AppErrors for bad input, a plain Error if the worker failed. */
  analyse(file: FileBytes, genre: string | undefined, signal?: AbortSignal): Promise<Analysis>;
  close(): Promise<void>;
}

export function createAnalysisPool(options: { threads: number; filename?: string }): AnalysisPool {
  const pool = new Piscina<AnalysisTask, AnalysisOutcome>({
    filename: options.filename ?? workerFile(),
    // Threads start on the first upload and stop after a minute without one.
    minThreads: 0,
    maxThreads: options.threads,
    idleTimeout: 60_000,
    // Analyses yield the CPU to the event loop when both want it. Only Linux gives each thread its own
    // nice value; elsewhere it would lower the whole process.
    niceIncrement: process.platform === 'linux' ? 10 : 0,
    // A pathological file ends its worker (a 500 for that request), never the process.
    resourceLimits: { maxOldGenerationSizeMb: 1024 },
    // The gate bounds what waits here; close() drops waiting tasks and lets running ones finish.
    closeTimeout: 10_000,
  });
  return {
    async analyse(file, genre, signal) {
      // The blocks move to the worker (no copy): here they are detached afterwards.
      const task: AnalysisTask = { blocks: file.blocks, length: file.length, genre };
      let outcome: AnalysisOutcome;
      try {
        outcome = await pool.run(task, { transferList: [...task.blocks], ...(signal ? { signal } : {}) });
      } catch (err) {
        // A bug in the core, a worker that crashed or ran out of memory: the request gets a masked 500.
        throw new Error('The Dev Lens analysis failed in its worker thread.', { cause: err });
      }
      if (outcome.ok) return outcome.analysis;
      const { status, code, detail, field } = outcome.refusal;
      throw new AppError(status, code, detail, field === undefined ? {} : { fields: { field } });
    },
    async close() {
      await pool.close({ force: true });
    },
  };
}
