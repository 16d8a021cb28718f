/**
 * The Dev Lens worker thread: runs the statistical core (analysis.ts) on an uploaded file, off the
 * HTTP event loop. It receives the file's bytes (transferred, not copied) and the genre, and answers
 * the Analysis, or the core's refusal (an AppError) as a value: an Error subclass does not survive
 * the trip between threads, its status and code would. Anything else it throws is a bug and reaches
 * the pool as a rejection. No I/O here either: the file is never written or logged.
 */
import { AppError } from '../errors.js';
import { analyseCsv } from './analysis.js';
import { FileBytes } from './file-bytes.js';
import type { Analysis } from './types.js';

export interface AnalysisTask {
  /** FileBytes' blocks, transferred; `length` bytes of them are the file. */
  blocks: ArrayBuffer[];
  length: number;
  genre: string | undefined;
}

export interface Refusal {
  status: number;
  code: string;
  detail: string;
  field?: string;
}

export type AnalysisOutcome = { ok: true; analysis: Analysis } | { ok: false; refusal: Refusal };

export default async function analyse(task: AnalysisTask): Promise<AnalysisOutcome> {
  try {
    const file = FileBytes.fromBlocks(task.blocks, task.length);
    const analysis = await analyseCsv(file.chunks(), task.genre === undefined ? {} : { genre: task.genre });
    return { ok: true, analysis };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return {
      ok: false,
      refusal: {
        status: err.status,
        code: err.code,
        detail: err.detail,
        ...(err.fields.field === undefined ? {} : { field: err.fields.field }),
      },
    };
  }
}
