/**
 * `svc events export`: the raw-event export of GET /api/sdk/export from the command line, for the
 * operator of an installation (so no plan history limit: the whole history, at most MAX_RANGE_DAYS
 * at once). Same checks, same bytes as the API. Lives in analytics, not beside `svc events tail`
 * in ingest, because ingest must not import analytics; src/cli.ts routes `events export` here.
 */
import { createWriteStream } from 'node:fs';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { type Clock, systemClock } from '../clock.js';
import type { Db } from '../db/index.js';
import { AppError, CliUsageError } from '../errors.js';
import { PLATFORMS } from '../ingest/index.js';
import { EXPORT_FORMATS, type ExportFormat, type ExportQueryT } from './export.schemas.js';
import { ExportService } from './export.service.js';
import { isDay } from './range.js';

export const EXPORT_USAGE =
  'svc events export --team <id> --game <game_id> [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--types a,b] ' +
  '[--format ndjson|csv] [--platform P] [--cursor C] [--out file]';

export interface ExportCliDeps {
  /** One line to stdout (tests collect them); used when `stdout` is not given. */
  out: (line: string) => void;
  err: (line: string) => void;
  /** The process's stdout, written with backpressure (the svc binary passes it). */
  stdout?: Writable;
  /** Opens (and migrates) the configured database; called only once the arguments are valid. */
  open: () => Promise<Db>;
  clock?: Clock;
}

interface ExportArgs {
  team: number;
  query: ExportQueryT;
  out: string | undefined;
}

const option = { type: 'string' } as const;
const OPTIONS = {
  team: option,
  game: option,
  from: option,
  to: option,
  types: option,
  format: option,
  platform: option,
  cursor: option,
  out: option,
};

/** parseArgs, its errors (an unknown option, a missing value) as usage errors. */
function parseOptions(args: string[]) {
  try {
    return parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    if (err instanceof TypeError) throw new CliUsageError(err.message);
    throw err;
  }
}

function parseExportArgs(args: string[]): ExportArgs {
  const { values, positionals } = parseOptions(args);
  if (positionals.length !== 1 || positionals[0] !== 'export') throw new CliUsageError('expected "export"');
  const team = Number(values.team);
  if (values.team === undefined || !Number.isSafeInteger(team) || team < 1) {
    throw new CliUsageError('--team must be a team id (a positive whole number)');
  }
  if (!values.game) throw new CliUsageError('--game must be a game id');
  for (const name of ['from', 'to'] as const) {
    const day = values[name];
    if (day !== undefined && !isDay(day)) throw new CliUsageError(`--${name} must be a date (YYYY-MM-DD)`);
  }
  const format = values.format ?? 'ndjson';
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) {
    throw new CliUsageError('--format must be ndjson or csv');
  }
  const query: ExportQueryT = { game_id: values.game, format: format as ExportFormat };
  if (values.from !== undefined) query.from = values.from;
  if (values.to !== undefined) query.to = values.to;
  if (values.types !== undefined) query.types = values.types;
  if (values.cursor !== undefined) query.cursor = values.cursor;
  if (values.platform !== undefined) {
    const platform = PLATFORMS.find((p) => p === values.platform);
    if (platform === undefined) throw new CliUsageError(`--platform must be one of ${PLATFORMS.join(', ')}`);
    query.platform = platform;
  }
  return { team, query, out: values.out };
}

/** The whole command: bad arguments exit 2 before the database is opened; an unknown game exits 1. */
export async function exportCommand(args: string[], deps: ExportCliDeps): Promise<number> {
  const parsed = parseExportArgs(args);
  const db = await deps.open();
  try {
    const service = new ExportService({ db, clock: deps.clock ?? systemClock });
    let prepared: Awaited<ReturnType<ExportService['prepare']>>;
    try {
      prepared = await service.prepare({ teamId: parsed.team }, parsed.query);
    } catch (err) {
      // A range, type or cursor the service refuses is a usage error, worded by the service.
      if (err instanceof AppError && err.status === 422) throw new CliUsageError(err.message);
      throw err;
    }
    const chunks = service.chunks(prepared);
    if (parsed.out !== undefined) {
      await pipeline(Readable.from(chunks, { objectMode: false }), createWriteStream(parsed.out));
    } else if (deps.stdout) {
      await pipeline(Readable.from(chunks, { objectMode: false }), deps.stdout, { end: false });
    } else {
      // Every chunk ends a row (LF, or CRLF in CSV): `out` adds that last LF back.
      for await (const chunk of chunks) deps.out(chunk.slice(0, -1));
    }
    return 0;
  } finally {
    await db.close();
  }
}
