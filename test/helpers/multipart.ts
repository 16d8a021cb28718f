/**
 * Builds multipart/form-data bodies by hand (RFC 7578), so route tests control every byte: part
 * order, field names, file names, binary content and malformed shapes a library would refuse to make.
 */
import { randomBytes } from 'node:crypto';

export interface FilePart {
  name: string;
  filename: string;
  content: Buffer | string;
  contentType?: string;
}

export interface FieldPart {
  name: string;
  value: string;
}

export type Part = FilePart | FieldPart;

export interface MultipartBody {
  payload: Buffer;
  headers: { 'content-type': string };
}

function partHead(part: Part): string {
  if ('filename' in part) {
    return (
      `Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n` +
      `Content-Type: ${part.contentType ?? 'text/csv'}\r\n\r\n`
    );
  }
  return `Content-Disposition: form-data; name="${part.name}"\r\n\r\n`;
}

/** The body and its content-type header (with the boundary), parts in the order given. */
export function multipart(parts: Part[]): MultipartBody {
  const boundary = `----svctest${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n${partHead(part)}`, 'utf8'));
    const content = 'filename' in part ? part.content : part.value;
    chunks.push(typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
    chunks.push(Buffer.from('\r\n', 'utf8'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** The usual upload: an optional genre first, then the CSV in field `file`. */
export function csvUpload(content: Buffer | string, options: { genre?: string; filename?: string } = {}) {
  const parts: Part[] = [];
  if (options.genre !== undefined) parts.push({ name: 'genre', value: options.genre });
  parts.push({ name: 'file', filename: options.filename ?? 'export.csv', content });
  return multipart(parts);
}
