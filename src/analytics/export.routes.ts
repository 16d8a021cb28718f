/**
 * GET /api/sdk/export: a game's raw SDK events for a warehouse, streamed as NDJSON or CSV (gzip on
 * request). Signed-in users of the team only. The body is produced while it is sent: the reply
 * pulls the next chunk only when the socket has taken the last (backpressure), and a client that
 * goes away destroys the stream, which stops the reading.
 */
import { pipeline, Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { Type } from 'typebox';
import { type App, errorResponses } from '../http/index.js';
import { acceptsGzip, EXPORT_COLUMNS } from './export.format.js';
import { CONTENT_TYPES, ExportQuery } from './export.schemas.js';
import type { ExportService } from './export.service.js';
import { MAX_RANGE_DAYS } from './range.js';
import { reader } from './reader.js';

const DESCRIPTION = [
  'Streams the raw events of one game of the caller’s team, in (ts, event_id) order: `format=ndjson` (default) ' +
    'writes one JSON object a line, `format=csv` an RFC 4180 file with a header row and CRLF line ends, the payload ' +
    'as its JSON text in one cell, null as an empty cell, and any cell starting with = + - @ prefixed with an ' +
    `apostrophe (formula-injection guard). Columns: ${EXPORT_COLUMNS.join(', ')}; ts and received_at are ISO 8601 ` +
    'UTC with milliseconds. With `Accept-Encoding: gzip` the body is gzip-compressed (`Content-Encoding: gzip`).',
  'A game the team has no events for answers 404 not_found. from and to are UTC dates, both included (default: ' +
    `the 30 days ending today); to before from, or more than ${MAX_RANGE_DAYS} days → 422. The plan reads ` +
    'Explorer 30 days back, Builder 90, Studio 365, Enterprise unlimited: an earlier from is moved to the first ' +
    'day it may read, and the X-Svc-History-Limited-From header says so. types is a comma-separated list of event ' +
    'types (default: all); an unknown one → 422 naming query.types.',
  'Resuming: a response has no end marker a cut connection would deliver, so the resume point is the last ' +
    'complete row the client received (an NDJSON line ending in a newline, a CSV record ending in CRLF): ' +
    'pass cursor = base64url of its ts, one space and its event_id (e.g. base64url("2026-11-18T10:00:00.000Z ' +
    'ov-000001")) with the same other parameters, and the export continues with the row after it. The client ' +
    'needs nothing but the rows themselves, and there is no limit to choose.',
].join('\n\n');

// The body is text, produced as a stream: Unsafe keeps the text schema for the document and types
// the reply as the stream the handler sends.
const body = (description: string) => ({ schema: Type.Unsafe<Readable>(Type.String({ description })) });

export function registerExportRoute(app: App, service: ExportService): void {
  app.get(
    '/api/sdk/export',
    {
      config: { access: { auth: 'user' as const, team: 'content' as const } },
      schema: {
        tags: ['sdk analytics'],
        summary: "Export a game's raw SDK events (NDJSON or CSV, streamed)",
        description: DESCRIPTION,
        querystring: ExportQuery,
        response: {
          200: {
            description: 'The events, streamed; sent as an attachment named after the game and the range.',
            headers: {
              'content-disposition': Type.String({
                description: 'attachment; filename="sdk-events_<game>_<from>_<to>.<format>"',
              }),
              'x-svc-history-limited-from': Type.String({
                format: 'date',
                description: 'Set when the plan’s history limit moved `from` later: the earliest day read.',
              }),
            },
            content: {
              'application/x-ndjson': body('One event a line (format=ndjson).'),
              'text/csv': body('A header row, then one event a record (format=csv).'),
            },
          },
          ...errorResponses(404, 422),
        },
      },
    },
    async (request, reply) => {
      const prepared = await service.prepare(reader(request), request.query);
      const { range } = prepared;
      reply
        .header('content-type', CONTENT_TYPES[prepared.format])
        .header('content-disposition', `attachment; filename="${prepared.fileName}"`)
        .header('cache-control', 'no-store')
        .header('vary', 'Accept-Encoding');
      if (range.history_limited_from !== null) {
        reply.header('x-svc-history-limited-from', range.history_limited_from);
      }
      const source = Readable.from(service.chunks(prepared), { objectMode: false });
      if (!acceptsGzip(request.headers['accept-encoding'])) return reply.send(source);
      reply.header('content-encoding', 'gzip');
      // pipeline destroys the source when the reply destroys the gzip stream (client gone); a read
      // error mid-stream cuts the response, which the client resumes with its last row's cursor.
      return reply.send(pipeline(source, createGzip(), () => {}));
    },
  );
}
