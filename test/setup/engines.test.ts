import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/services.js';
import { type EngineProbe, LOCAL_ENGINES, unusable } from './engines.js';

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A TCP server on 127.0.0.1 that does `onConnection` with each client; resolves with its port. */
async function fakeServer(onConnection: (socket: Socket) => void): Promise<number> {
  const server = createServer((socket) => {
    socket.on('error', () => {});
    sockets.push(socket);
    onConnection(socket);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  return typeof addr === 'object' && addr ? addr.port : 0;
}

/** The usual probe of `name`, pointed at another port. */
function probeAt(name: string, port: number): EngineProbe {
  const probe = LOCAL_ENGINES.find((p) => p.name === name)!;
  return { ...probe, port, url: probe.url.replace(`:${probe.port}`, `:${port}`) };
}

describe('the engine probes of the test global setup', () => {
  it.each(['PostgreSQL', 'Redis', 'NATS'])('name a closed port of %s as not reachable', async (name) => {
    const port = await freePort();
    expect(await unusable(probeAt(name, port))).toBe(`not reachable at 127.0.0.1:${port} (ECONNREFUSED)`);
  });

  it('do not count a PostgreSQL port that answers but refuses the connection', async () => {
    // An ErrorResponse (severity FATAL, code 28P01) to the startup message, as a server asking for
    // a password the tests do not have would send.
    const fields = 'SFATAL\0C28P01\0Mpassword authentication failed for user "postgres"\0\0';
    const error = Buffer.concat([Buffer.from('E'), Buffer.alloc(4), Buffer.from(fields)]);
    error.writeUInt32BE(error.length - 1, 1);
    const port = await fakeServer((socket) => socket.once('data', () => socket.end(error)));
    expect(await unusable(probeAt('PostgreSQL', port))).toBe(
      `at 127.0.0.1:${port} refused postgres://postgres@127.0.0.1:${port}/test ` +
        '(password authentication failed for user "postgres")',
    );
  });

  it('do not count a Redis that wants a password', async () => {
    const port = await fakeServer((socket) =>
      socket.once('data', () => socket.write('-NOAUTH Authentication required.\r\n')),
    );
    expect(await unusable(probeAt('Redis', port))).toBe(
      `at 127.0.0.1:${port} answered PING with "-NOAUTH Authentication required."`,
    );
  });

  it('count a Redis that answers PONG', async () => {
    const port = await fakeServer((socket) => socket.once('data', () => socket.write('+PONG\r\n')));
    expect(await unusable(probeAt('Redis', port))).toBeUndefined();
  });

  it('count a NATS server only with JetStream, and nothing else on its port', async () => {
    const info = (js: boolean) =>
      `INFO {"server_id":"x","version":"2.10.0","jetstream":${js},"max_payload":1048576}\r\n`;
    const withJs = await fakeServer((socket) => socket.write(info(true)));
    const withoutJs = await fakeServer((socket) => socket.write(info(false)));
    const other = await fakeServer((socket) => socket.write('220 smtp.example ESMTP\r\n'));
    expect(await unusable(probeAt('NATS', withJs))).toBeUndefined();
    expect(await unusable(probeAt('NATS', withoutJs))).toBe(
      `at 127.0.0.1:${withoutJs} runs without JetStream (-js)`,
    );
    expect(await unusable(probeAt('NATS', other))).toBe(`at 127.0.0.1:${other} is not a NATS server`);
  });

  it('name a server that accepts and never answers', async () => {
    const port = await fakeServer(() => {});
    expect(await unusable(probeAt('Redis', port))).toBe(`at 127.0.0.1:${port} sent no reply within 2000 ms`);
  });
});
