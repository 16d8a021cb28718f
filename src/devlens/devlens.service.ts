/**
 * Dev Lens rules: admit the request (caps per user and in total), read the upload form (exactly one CSV
 * in field `file`, an optional `genre`, before or after it, at most MAX_FILE_BYTES), have a worker thread
 * run the statistical core on the file, add advice and narrative,
 * escape anything that could run as a spreadsheet formula, and store the result only when asked.
 * The file itself is never stored nor logged: it lives only in memory while the request is served.
 */

import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import { AppError, errors } from '../errors.js';
import type { Entitlements } from '../plans.js';
import { formatValue, type NarrativeProvider, offlineNarrative, recommend } from './advice.js';
import { safeCell } from './analysis.js';
import { resolveGenre } from './benchmarks.js';
import type { AnalysisGate, AnalysisPool } from './devlens.pool.js';
import { insertReport, listReports } from './devlens.repo.js';
import { type DevLensResultT, MAX_FILE_BYTES, type ReportListT } from './devlens.schemas.js';
import { FileBytes } from './file-bytes.js';
import type { Analysis } from './types.js';

export interface DevLensDeps {
  db: Db;
  clock: Clock;
  entitlements: Entitlements;
  /** Writes ai_analysis; offline (no network) unless one is configured. */
  narrative?: NarrativeProvider;
  /** The worker threads that run the statistical core. */
  pool: AnalysisPool;
  /** Caps analyses in flight per user and in total. */
  gate: AnalysisGate;
}

export interface Caller {
  userId: number;
  teamId: number;
}

/** The parts of @fastify/multipart's parts this service reads (structural, so tests can feed their own). */
export type FormPart =
  | { type: 'field'; fieldname: string; value: unknown; valueTruncated: boolean }
  | {
      type: 'file';
      fieldname: string;
      file: AsyncIterable<Buffer> & { truncated: boolean; resume(): unknown };
    };

const MIB = MAX_FILE_BYTES / (1024 * 1024);
/** Our own benchmark labels ("+12.5%", "-3.0%") are the only strings allowed to start with a sign. */
const BENCHMARK_LABEL = /^[+-]\d+\.\d%$/;

function tooLarge(): AppError {
  return errors.payloadTooLarge(
    `The file is larger than ${MIB} MiB (${MAX_FILE_BYTES} bytes); export a shorter period or fewer columns.`,
  );
}

/** Failures of the form itself (limits, malformed multipart) become documented errors, never 500s. */
function formError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const code = (err as { code?: unknown }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge();
  if (code === 'FST_FILES_LIMIT')
    return errors.validation('body.file', 'Send exactly one file, in field "file".');
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return errors.payloadTooLarge('The form has too many fields; send only file and genre.');
  }
  return new AppError(
    400,
    'bad_request',
    'The multipart/form-data body is malformed or cut off (a part or the closing boundary is missing); send the whole form again.',
  );
}

/** Reads the file part into memory, failing as soon as it passes the limit (busboy truncates it there). */
async function readFile(file: AsyncIterable<Buffer> & { truncated: boolean }): Promise<FileBytes> {
  const bytes = FileBytes.empty();
  try {
    for await (const chunk of file) {
      if (file.truncated) throw tooLarge();
      bytes.append(chunk);
    }
  } catch (err) {
    // A body cut off inside the file ("Unexpected end of multipart data") surfaces here, on the file's stream.
    throw file.truncated ? tooLarge() : formError(err);
  }
  if (file.truncated || bytes.length > MAX_FILE_BYTES) throw tooLarge();
  return bytes;
}

function genreOf(part: Extract<FormPart, { type: 'field' }>): string | undefined {
  if (part.valueTruncated || typeof part.value !== 'string') {
    throw errors.validation('body.genre', 'body.genre must be a short genre name such as simulation or rpg.');
  }
  const genre = part.value.trim();
  return genre === '' ? undefined : genre;
}

export interface Form {
  file: FileBytes;
  genre: string | undefined;
}

/**
 * Reads the form part by part: the file (at most MAX_FILE_BYTES, held in memory, never stored) and
 * the genre, in either order (curl -F file=@… -F genre=… sends the genre last). Unknown text fields
 * are ignored. An unknown genre is refused here, before any analysis.
 */
export async function readForm(parts: AsyncIterable<FormPart>): Promise<Form> {
  const it = parts[Symbol.asyncIterator]();
  let genre: string | undefined;
  let file: FileBytes | undefined;
  for (;;) {
    let step: IteratorResult<FormPart>;
    try {
      step = await it.next();
    } catch (err) {
      throw formError(err);
    }
    if (step.done) break;
    const part = step.value;
    if (part.type === 'field') {
      if (part.fieldname === 'file') throw errors.validation('body.file', 'body.file must be a file upload.');
      if (part.fieldname === 'genre') genre = genreOf(part);
      continue;
    }
    if (part.fieldname !== 'file' || file !== undefined) {
      part.file.resume(); // discard it, so the parser can finish the request
      const detail =
        part.fieldname !== 'file'
          ? `The CSV must be sent in field "file" (got a file in "${safeCell(part.fieldname.slice(0, 40))}").`
          : 'Send exactly one file, in field "file".';
      throw errors.validation('body.file', detail);
    }
    file = await readFile(part.file);
  }
  if (!file) throw errors.validation('body.file', 'body.file is required: a CSV export as a file part.');
  if (genre !== undefined) resolveGenre(genre);
  return { file, genre };
}

/** DECISIONS §7: no string in the answer may start like a formula, except our own benchmark labels. */
export function guardFormulas(result: DevLensResultT): DevLensResultT {
  const benchmarks = Object.fromEntries(
    Object.entries(result.benchmarks).map(([k, v]) => [k, BENCHMARK_LABEL.test(v) ? v : safeCell(v)]),
  );
  const cov = result.coverage;
  return {
    ...result,
    benchmarks,
    benchmark_source: { ...result.benchmark_source, genre: safeCell(result.benchmark_source.genre) },
    patterns: result.patterns.map(safeCell),
    ai_analysis: safeCell(result.ai_analysis),
    recommendations: result.recommendations.map(safeCell),
    coverage: {
      ...cov,
      first_day: cov.first_day === null ? null : safeCell(cov.first_day),
      last_day: cov.last_day === null ? null : safeCell(cov.last_day),
    },
  };
}

const NUMBER = /(?<![A-Za-z0-9_.])\d[\d,]*(?:\.\d+)?/g;

/** The numbers a text cites (digits inside words such as "D7" or "p50" are names, not figures). */
export function citedNumbers(text: string, a: Analysis): number[] {
  const days = [a.coverage.first_day, a.coverage.last_day].filter((d): d is string => d !== null);
  let rest = text;
  for (const d of days) rest = rest.split(d).join(' ');
  return [...rest.matchAll(NUMBER)].map((m) => Number(m[0].replace(/,/g, '')));
}

/** Every number the analysis holds, in each way a figure may be printed. */
export function traceableNumbers(a: Analysis): Set<number> {
  const out = new Set<number>();
  const add = (v: number) => {
    for (const unit of ['rate', 'count'] as const) out.add(Number(formatValue(v, unit).replace(/[,%]/g, '')));
    out.add(Math.abs(v));
  };
  for (const v of Object.values(a.metrics)) if (v !== null) add(v);
  for (const label of Object.values(a.benchmarks)) out.add(Math.abs(Number.parseFloat(label)));
  for (const p of a.patterns) {
    for (const v of Object.values(p.figures)) add(v);
    for (const m of p.text.matchAll(NUMBER)) out.add(Number(m[0].replace(/,/g, '')));
  }
  for (const v of [a.coverage.rows, a.coverage.days, a.coverage.missing_days]) add(v);
  return out;
}

/** True when every number in the text is one of the analysis's figures (how a provider's text is checked). */
export function onlyAnalysisNumbers(text: string, a: Analysis): boolean {
  const allowed = traceableNumbers(a);
  return citedNumbers(text, a).every((n) => allowed.has(n));
}

export class DevLensService {
  private readonly narrative: NarrativeProvider;

  constructor(private readonly deps: DevLensDeps) {
    this.narrative = deps.narrative ?? offlineNarrative;
  }

  /**
   * Takes a slot for the caller's analysis, or throws 503 when they or everyone already have as many
   * in flight as allowed. Call it before the form is read; the answer frees the slot (idempotent).
   */
  admit(caller: Caller): { release: () => void; inFlight: number } {
    const release = this.deps.gate.enter(caller.userId);
    return { release, inFlight: this.deps.gate.size };
  }

  /**
   * Reads the form and analyses the file on a worker thread (the caller holds a slot from admit());
   * `signal` aborts the analysis when the client goes away.
   */
  async analyze(
    caller: Caller,
    parts: AsyncIterable<FormPart>,
    save: boolean,
    signal?: AbortSignal,
  ): Promise<DevLensResultT> {
    const form = await readForm(parts);
    const analysis = await this.deps.pool.analyse(form.file, form.genre, signal);
    const recommendations = recommend(analysis);
    const result = guardFormulas({
      file_type: analysis.file_type,
      metrics: analysis.metrics,
      benchmarks: analysis.benchmarks,
      benchmark_source: analysis.benchmark_source,
      patterns: [...analysis.patterns].sort((a, b) => b.weight - a.weight).map((p) => p.text),
      ai_analysis: await this.writeNarrative(analysis, recommendations),
      recommendations,
      coverage: analysis.coverage,
    });
    if (!save) return result;
    const id = await insertReport(this.deps.db, {
      userId: caller.userId,
      teamId: caller.teamId,
      fileType: result.file_type,
      genre: result.benchmark_source.genre,
      result,
      createdAt: this.deps.clock.now(),
    });
    return { ...result, report_id: id };
  }

  /** A configured provider's text is used only if every number in it is one of the analysis's. */
  private async writeNarrative(analysis: Analysis, recommendations: string[]): Promise<string> {
    const offline = await offlineNarrative.write(analysis, recommendations);
    if (this.narrative === offlineNarrative) return offline;
    try {
      const text = await this.narrative.write(analysis, recommendations);
      return text.trim() !== '' && onlyAnalysisNumbers(text, analysis) ? text : offline;
    } catch {
      return offline;
    }
  }

  async reports(caller: Caller, limit: number): Promise<ReportListT> {
    const rows = await listReports(this.deps.db, caller.teamId, limit);
    return {
      reports: rows.map((r) => ({
        id: r.id,
        file_type: r.file_type as DevLensResultT['file_type'],
        genre: r.genre,
        created_at: r.created_at.toISOString(),
        result: r.result as Omit<DevLensResultT, 'report_id'>,
      })),
    };
  }
}
