/**
 * How an exported event is written: one NDJSON line or one RFC 4180 CSV record per event, the
 * resume cursor, the download's file name. Pure: no I/O, so every byte a client sees is tested here.
 */
import { csvCell } from '../csv.js';
import type { ExportRow } from './export.repo.js';

/** The columns of every export, in order (the NDJSON keys, the CSV header). */
export const EXPORT_COLUMNS = [
  'event_id',
  'ts',
  'received_at',
  'platform',
  'game_id',
  'player_id',
  'session_id',
  'type',
  'country',
  'sdk_version',
  'payload',
] as const;

function fields(row: ExportRow) {
  return {
    event_id: row.event_id,
    ts: row.ts.toISOString(),
    received_at: row.received_at.toISOString(),
    platform: row.platform,
    game_id: row.game_id,
    player_id: row.player_id,
    session_id: row.session_id,
    type: row.type,
    country: row.country,
    sdk_version: row.sdk_version,
    payload: row.payload,
  };
}

/** One event as a line of newline-delimited JSON (the payload stays an object). */
export function ndjsonLine(row: ExportRow): string {
  return `${JSON.stringify(fields(row))}\n`;
}

export { csvCell };

export const CSV_HEADER = `${EXPORT_COLUMNS.join(',')}\r\n`;

/** One event as a CSV record ending in CRLF; the payload is its JSON text in one cell. */
export function csvRecord(row: ExportRow): string {
  const f = fields(row);
  return `${EXPORT_COLUMNS.map((c) => csvCell(c === 'payload' ? JSON.stringify(f.payload) : f[c])).join(',')}\r\n`;
}

/** Where an export resumes: after this event in (ts, event_id) order. */
export interface ExportCursor {
  ts: Date;
  eventId: string;
}

/** base64url of "<ts> <event_id>", ts as exported (ISO 8601 UTC with milliseconds). */
export function encodeCursor(ts: string, eventId: string): string {
  return Buffer.from(`${ts} ${eventId}`, 'utf8').toString('base64url');
}

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The cursor a client sent, or null when it is not one encodeCursor could have made. */
export function decodeCursor(token: string): ExportCursor | null {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) return null;
  const text = Buffer.from(token, 'base64url').toString('utf8');
  const space = text.indexOf(' ');
  const ts = text.slice(0, space);
  const eventId = text.slice(space + 1);
  if (space < 0 || !ISO_MS.test(ts) || eventId.length < 1 || eventId.length > 40) return null;
  const t = new Date(ts);
  // Also refuses dates that do not exist (2026-02-30 rolls over to March, so it would not match).
  if (Number.isNaN(t.getTime()) || t.toISOString() !== ts) return null;
  return { ts: t, eventId };
}

/** The download's name: the game (characters a file name may hold) and the range read. */
export function exportFileName(gameId: string, from: string, to: string, format: 'ndjson' | 'csv'): string {
  return `sdk-events_${gameId.replace(/[^A-Za-z0-9._-]/g, '_')}_${from}_${to}.${format}`;
}

/** Whether an Accept-Encoding header accepts gzip (listed, or `*`, with a q above 0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let star = false;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const accepted = q === undefined || Number(q.slice(2)) > 0;
    if (name.trim() === 'gzip') return accepted;
    if (name.trim() === '*') star = accepted;
  }
  return star;
}
