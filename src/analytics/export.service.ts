/**
 * The raw-event export of one game (issue 15): checks the request (404 for a game the team has no
 * events for, 422 for a bad range, type or cursor, the plan's history clamp), then yields the
 * events as text chunks in (ts, event_id) order, a page at a time, so memory stays constant
 * whatever the range holds. The HTTP route and `svc events export` both stream these chunks.
 */
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import { errors } from '../errors.js';
import { EVENT_TYPES } from '../ingest/index.js';
import type { Entitlements, PlanName } from '../plans.js';
import { hasGame } from './analytics.repo.js';
import {
  CSV_HEADER,
  csvRecord,
  decodeCursor,
  type ExportCursor,
  exportFileName,
  ndjsonLine,
} from './export.format.js';
import { type ExportRow, eventsPage } from './export.repo.js';
import type { ExportFormat, ExportQueryT } from './export.schemas.js';
import { addDays, type DayRange, dayOf, resolveRange } from './range.js';

/** Rows read per round trip, shared among the types asked for (each type reads its own pages). */
const PAGE_ROWS = 5000;
const MIN_TYPE_PAGE = 500;
/** Rows written to the stream at once: small enough to keep backpressure fine-grained. */
const CHUNK_ROWS = 200;

const KNOWN_TYPES: ReadonlySet<string> = new Set(EVENT_TYPES);

/** Who exports: a team, and its plan when the plan's history limit applies (the HTTP API); the
 * operator's CLI passes none and reads the whole history. */
export interface Exporter {
  teamId: number;
  plan?: PlanName;
}

/** A checked export request, ready to stream. */
export interface PreparedExport {
  teamId: number;
  gameId: string;
  platform: string | null;
  types: string[];
  format: ExportFormat;
  range: DayRange;
  after: ExportCursor | null;
  fileName: string;
}

export class ExportService {
  constructor(private readonly deps: { db: Db; clock: Clock; entitlements?: Entitlements }) {}

  /** Everything that can refuse the request, before a byte is sent. */
  async prepare(who: Exporter, query: ExportQueryT): Promise<PreparedExport> {
    const types = parseTypes(query.types);
    let after: ExportCursor | null = null;
    if (query.cursor !== undefined) {
      after = decodeCursor(query.cursor);
      if (after === null) {
        throw errors.validation(
          'query.cursor',
          'query.cursor must be base64url of "<ts> <event_id>" of an exported row',
        );
      }
    }
    const history =
      who.plan === undefined ? null : (this.deps.entitlements?.plans[who.plan].sdkHistoryDays ?? null);
    const range = resolveRange(query, dayOf(this.deps.clock.now()), history);
    // The same rule as the dashboards: a game the team has no events for does not exist for it.
    const platform = query.platform ?? null;
    if (!(await hasGame(this.deps.db, who.teamId, query.game_id, platform))) {
      throw errors.notFound('No SDK events for this game.');
    }
    const format = query.format ?? 'ndjson';
    return {
      teamId: who.teamId,
      gameId: query.game_id,
      platform,
      types,
      format,
      range,
      after,
      fileName: exportFileName(query.game_id, range.from, range.to, format),
    };
  }

  /**
   * The export's text in chunks: the CSV header, then the rows. Pulled by the consumer, so a slow
   * reader slows the reading; `signal` (or the consumer calling return()) stops it between pages.
   */
  async *chunks(p: PreparedExport, signal?: AbortSignal): AsyncGenerator<string> {
    const write = p.format === 'csv' ? csvRecord : ndjsonLine;
    if (p.format === 'csv') yield CSV_HEADER;
    let chunk = '';
    let rows = 0;
    for await (const row of this.rows(p, signal)) {
      chunk += write(row);
      rows += 1;
      if (rows === CHUNK_ROWS) {
        yield chunk;
        chunk = '';
        rows = 0;
      }
    }
    if (chunk !== '') yield chunk;
  }

  /** Every row of the export in (ts, event_id) order: each type's pages merged as they are read. */
  private async *rows(p: PreparedExport, signal?: AbortSignal): AsyncGenerator<ExportRow> {
    const start = new Date(`${p.range.from}T00:00:00Z`);
    const end = new Date(`${addDays(p.range.to, 1)}T00:00:00Z`);
    if (end <= start) return; // the plan's history ends before the range does
    const limit = Math.max(MIN_TYPE_PAGE, Math.ceil(PAGE_ROWS / p.types.length));
    const read = (type: string, afterTs: Date, afterId: string) => {
      signal?.throwIfAborted();
      const { teamId, gameId, platform } = p;
      return eventsPage(this.deps.db, {
        teamId,
        gameId,
        type,
        platform,
        start,
        end,
        afterTs,
        afterId,
        limit,
      });
    };
    // Without a cursor: every row from the range's start (an event_id has at least 8 characters).
    const first = p.after ?? { ts: start, eventId: '' };
    const sources = await Promise.all(
      p.types.map(async (type) => ({ type, page: await read(type, first.ts, first.eventId), at: 0 })),
    );
    for (;;) {
      let next: (typeof sources)[number] | null = null;
      for (const s of sources) {
        const row = s.page[s.at];
        if (row && (next === null || before(row, next.page[next.at] as ExportRow))) next = s;
      }
      if (next === null) return;
      const row = next.page[next.at] as ExportRow;
      yield row;
      next.at += 1;
      if (next.at === next.page.length) {
        // A short page was the type's last one.
        next.page = next.page.length < limit ? [] : await read(next.type, row.ts, row.event_id);
        next.at = 0;
      }
    }
  }
}

/** (ts, event_id) order, event_id bytewise as the SQL's COLLATE "C" compares it. */
function before(a: ExportRow, b: ExportRow): boolean {
  const dt = a.ts.getTime() - b.ts.getTime();
  if (dt !== 0) return dt < 0;
  return Buffer.compare(Buffer.from(a.event_id, 'utf8'), Buffer.from(b.event_id, 'utf8')) < 0;
}

/** The `types` list: every type when absent, else each named once (422 for an unknown one). */
function parseTypes(types: string | undefined): string[] {
  if (types === undefined) return [...EVENT_TYPES];
  const list = [...new Set(types.split(',').map((t) => t.trim()))];
  const unknown = list.filter((t) => !KNOWN_TYPES.has(t));
  if (list.length === 0 || unknown.length > 0) {
    throw errors.validation(
      'query.types',
      `query.types must list event types separated by commas; unknown: ${unknown.map((t) => `"${t}"`).join(', ')}`,
    );
  }
  return list;
}
