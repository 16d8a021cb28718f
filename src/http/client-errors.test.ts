/**
 * Refusals made before any route runs (Node's HTTP parser, Fastify's router) answer {detail, code}
 * like every other error. `inject` skips Node's parser, so these tests talk to a listening server
 * over a raw socket.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { clientRefusal, clientResponse } from './client-errors.js';

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});

afterAll(async () => {
  await t.close();
});

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Sends raw bytes and reads the whole answer (the server closes the connection after it). */
function raw(request: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => {}); // a reset after the answer is fine
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const i = line.indexOf(':');
        headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      const bodyText = text.slice(end + 4);
      resolve({
        status: Number(statusLine!.split(' ')[1]),
        headers,
        body: bodyText ? (JSON.parse(bodyText) as unknown) : undefined,
      });
    });
    socket.write(request);
    socket.end();
  });
}

const get = (path: string, extra = '') =>
  raw(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n${extra}Connection: close\r\n\r\n`);

describe('refusals of Node’s HTTP parser', () => {
  it('answers a 20 KB header with 431 headers_too_large', async () => {
    const res = await get('/healthz', `X-Big: ${'a'.repeat(20 * 1024)}\r\n`);
    expect(res.status).toBe(431);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers.connection).toBe('close');
    expect(res.body).toEqual({
      detail: 'The request line and headers are larger than the server accepts (16 KiB in all).',
      code: 'headers_too_large',
    });
  });

  it('answers a 17 KB URL with 431 headers_too_large', async () => {
    const res = await get(`/api/search?q=${'a'.repeat(17 * 1024)}`);
    expect(res.status).toBe(431);
    expect(res.body).toEqual({
      detail: 'The request line and headers are larger than the server accepts (16 KiB in all).',
      code: 'headers_too_large',
    });
  });

  it.each([
    ['a garbage request line', 'HELLO\r\n\r\n'],
    ['an unknown HTTP version', 'GET / HTTP/9.9\r\nHost: x\r\n\r\n'],
    ['a space in a header name', 'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n'],
    ['a control character in a header value', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\u0001b\r\n\r\n'],
    [
      'two Content-Lengths',
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n{}',
    ],
    [
      'a bad chunk size',
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    ],
  ])('answers %s with 400 bad_request', async (_what, request) => {
    const res = await raw(request);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers.connection).toBe('close');
    expect(res.body).toEqual({ detail: 'The request is not valid HTTP/1.1.', code: 'bad_request' });
  });
});

describe('refusals of the router', () => {
  it('answers an invalid percent-encoding in a path parameter with 400 {detail, code}', async () => {
    const res = await get('/api/keys/%zz');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'bad_request' });
  });

  it('answers an invalid percent-encoding elsewhere in the path with 400 {detail, code}', async () => {
    const res = await get('/api/%zz');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: "'/api/%zz' is not a valid url component", code: 'bad_request' });
  });
});

describe('the answer to a request that arrives too slowly', () => {
  it('is 408 request_timeout', () => {
    const text = clientResponse(clientRefusal('ERR_HTTP_REQUEST_TIMEOUT'));
    expect(text.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toEqual({
      detail: 'The request did not arrive in time; send it again.',
      code: 'request_timeout',
    });
  });
});

describe('a request that arrives while the server shuts down', () => {
  it('is served as usual before, even when it asks to close its connection', async () => {
    const res = await get('/healthz');
    expect([res.status, res.body]).toEqual([200, { status: 'ok' }]);
  });

  it('answers 503 temporarily_unavailable {detail, code} with Retry-After and Connection: close', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = () => {};
    const inFlight = new Promise<void>((resolve) => {
      started = resolve;
    });
    const s = await buildTestApp({
      configure(app) {
        app.get('/test/slow', async () => {
          started();
          await held;
          return { done: true };
        });
      },
    });
    await s.app.listen({ port: 0, host: '127.0.0.1' });
    const slowPort = (s.app.server.address() as { port: number }).port;
    // A second request on a connection whose first request is still in flight when closing starts.
    const socket = connect(slowPort, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => {});
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('GET /test/slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await inFlight;
    const closing = s.close();
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await new Promise((r) => setTimeout(r, 50));
    release();
    await closed;
    await closing;
    const text = Buffer.concat(chunks).toString('utf8');
    const second = text.slice(text.indexOf('HTTP/1.1', 10));
    const [head, body] = second.split('\r\n\r\n');
    expect(head!.split('\r\n')[0]).toBe('HTTP/1.1 503 Service Unavailable');
    expect(head!.toLowerCase()).toContain('retry-after: 5');
    expect(head!.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(body!)).toEqual({
      detail: 'The server is shutting down; try again shortly.',
      code: 'temporarily_unavailable',
    });
  });
});
