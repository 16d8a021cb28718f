/**
 * Sending a CSV to POST /api/dev-lens/analyze with upload progress. openapi-fetch (fetch) reports no
 * upload progress, so this is an XMLHttpRequest that does what the session fetch does for the rest
 * of the app: it echoes svc_csrf in X-CSRF-Token, and on a 401 lets the session fetch refresh the
 * access token (one GET through it) and tries once more.
 */
import { ApiError, type Schemas, sessionFetch, toApiError } from '../../api/client';
import { CSRF_COOKIE, CSRF_HEADER, readCookie } from '../../api/session';
import { formatInteger } from '../../lib/format';

/** The server's cap on one file (MAX_FILE_BYTES in src/devlens/devlens.schemas.ts): 10 MiB. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** The multipart field the server reads the CSV from. */
export const FILE_FIELD = 'file';
export const ACCEPT = '.csv,.txt,text/csv,text/plain';

/** Types browsers report for a CSV (Windows with Excel installed says vnd.ms-excel). */
const CSV_TYPES = new Set([
  'text/csv',
  'text/plain',
  'application/csv',
  'application/vnd.ms-excel',
  'text/x-csv',
]);

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/** Why this file cannot be sent, in words, or null when it may be. Checked before any byte leaves. */
export function checkUpload(file: { name: string; size: number; type: string }): string | null {
  const lower = file.name.toLowerCase();
  const csvName = lower.endsWith('.csv') || lower.endsWith('.txt');
  if (!csvName && !CSV_TYPES.has(file.type)) {
    return `“${file.name}” is not a CSV file. Export the chart from Creator Hub as CSV (a .csv file) and drop that.`;
  }
  if (file.size === 0) return `“${file.name}” is empty.`;
  if (file.size > MAX_FILE_BYTES) {
    return `“${file.name}” is ${sizeText(file.size)}; Dev Lens takes files up to 10 MB (${formatInteger(MAX_FILE_BYTES)} bytes). Export a shorter date range.`;
  }
  return null;
}

export type Phase = { kind: 'uploading'; loaded: number; total: number } | { kind: 'analysing' };

export interface UploadOptions {
  genre: string;
  save: boolean;
  onPhase: (phase: Phase) => void;
  signal: AbortSignal;
}

interface Reply {
  status: number;
  body: unknown;
}

function send(file: File, { genre, save, onPhase, signal }: UploadOptions): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/dev-lens/analyze${save ? '?save=true' : ''}`);
    xhr.responseType = 'json';
    xhr.setRequestHeader('Accept', 'application/json');
    const csrf = readCookie(document.cookie, CSRF_COOKIE);
    if (csrf) xhr.setRequestHeader(CSRF_HEADER, csrf);
    xhr.upload.onprogress = (e) =>
      onPhase({ kind: 'uploading', loaded: e.loaded, total: e.lengthComputable ? e.total : file.size });
    xhr.upload.onload = () => onPhase({ kind: 'analysing' });
    xhr.onload = () => resolve({ status: xhr.status, body: xhr.response });
    xhr.onerror = () =>
      reject(
        new ApiError(
          0,
          'The upload failed: the server could not be reached. Check your connection and try again.',
          'network',
        ),
      );
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    if (genre) form.append('genre', genre);
    form.append(FILE_FIELD, file, file.name);
    onPhase({ kind: 'uploading', loaded: 0, total: file.size });
    xhr.send(form);
  });
}

/** Analyses `file`; the result, or throws ApiError with the API's detail (403 plan gate included). */
export async function analyse(file: File, options: UploadOptions): Promise<Schemas['DevLensResult']> {
  let reply = await send(file, options);
  if (reply.status === 401 && !options.signal.aborted) {
    // The access token may have expired: a GET through the session fetch refreshes it (single flight
    // with every other request), then the upload goes once more.
    const me = await sessionFetch(
      new Request(`${window.location.origin}/api/auth/me`, { credentials: 'same-origin' }),
    );
    if (me.ok) reply = await send(file, options);
  }
  if (reply.status < 200 || reply.status >= 300) throw toApiError(reply.status, reply.body);
  return reply.body as Schemas['DevLensResult'];
}
