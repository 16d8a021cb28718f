/**
 * Node's HTTP parser refuses some requests before Fastify sees them (headers over 16 KiB, a request
 * line that is not HTTP, a bad chunk size, a request that takes too long to arrive). Fastify's
 * default answer is `{error, message, statusCode}`; this one is `{detail, code}` like every other
 * error, with Connection: close (the socket cannot be reused once the parser has failed).
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

interface Refusal {
  status: number;
  code: string;
  detail: string;
}

const HEADERS_TOO_LARGE: Refusal = {
  status: 431,
  code: 'headers_too_large',
  detail: 'The request line and headers are larger than the server accepts (16 KiB in all).',
};
const TIMEOUT: Refusal = {
  status: 408,
  code: 'request_timeout',
  detail: 'The request did not arrive in time; send it again.',
};
const BAD_REQUEST: Refusal = {
  status: 400,
  code: 'bad_request',
  detail: 'The request is not valid HTTP/1.1.',
};

/** Node's error code (llhttp's HPE_* or the server's timeouts) → the answer. */
export function clientRefusal(code: unknown): Refusal {
  if (code === 'HPE_HEADER_OVERFLOW') return HEADERS_TOO_LARGE;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT' || code === 'ERR_HTTP_HEADERS_TIMEOUT') return TIMEOUT;
  return BAD_REQUEST;
}

export function clientResponse(refusal: Refusal): string {
  const body = JSON.stringify({ detail: refusal.detail, code: refusal.code });
  return [
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${randomUUID()}`,
    'X-Content-Type-Options: nosniff',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** Fastify's `clientErrorHandler` server option (called with the instance as `this`). */
export function clientErrorHandler(
  this: FastifyInstance,
  err: Error & { code?: unknown },
  socket: Socket,
): void {
  // A reset or already-closed connection has nobody left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const refusal = clientRefusal(err.code);
  // Only the codes: the error carries the raw bytes received (headers, maybe credentials).
  this.log.info(
    { status: refusal.status, code: refusal.code, parserCode: err.code },
    'request refused by the HTTP parser',
  );
  if (socket.writable) socket.end(clientResponse(refusal), () => socket.destroy());
  else socket.destroy();
}
