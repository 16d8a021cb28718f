/**
 * A minimal SMTP server on 127.0.0.1 (port 0) for tests: greets, answers EHLO advertising
 * AUTH PLAIN, checks the one user and password it was given, and QUIT. It records every command
 * so a test can show what a client did (and did not: MAIL, RCPT, DATA). `silent` accepts the
 * connection and never greets (a hanging server). Nothing here leaves the machine.
 */

import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';

export interface FakeSmtp {
  readonly port: number;
  /** Every command line received, in order (AUTH arguments replaced by `<credentials>`). */
  readonly commands: string[];
  close(): Promise<void>;
}

export async function startFakeSmtp(
  options: { user?: string; password?: string; silent?: boolean } = {},
): Promise<FakeSmtp> {
  const commands: string[] = [];
  const sockets = new Set<Socket>();
  const accepts = (b64: string) => {
    const [, user, password] = Buffer.from(b64, 'base64').toString('utf8').split('\0');
    return user === options.user && password === options.password;
  };
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    if (options.silent) return;
    let buffered = '';
    let awaitingAuth = false;
    const reply = (line: string) => socket.write(`${line}\r\n`);
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      for (let end = buffered.indexOf('\r\n'); end >= 0; end = buffered.indexOf('\r\n')) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (awaitingAuth) {
          awaitingAuth = false;
          commands.push('<credentials>');
          reply(accepts(line) ? '235 2.7.0 Authentication successful' : '535 5.7.8 Authentication failed');
          continue;
        }
        const verb = line.split(' ')[0]?.toUpperCase() ?? '';
        commands.push(verb === 'AUTH' ? 'AUTH PLAIN <credentials>' : line);
        if (verb === 'EHLO') reply('250-fake.test\r\n250-AUTH PLAIN\r\n250 8BITMIME');
        else if (verb === 'HELO') reply('250 fake.test');
        else if (verb === 'AUTH') {
          const initial = line.split(' ')[2];
          if (initial === undefined) {
            awaitingAuth = true;
            reply('334 ');
          } else
            reply(
              accepts(initial) ? '235 2.7.0 Authentication successful' : '535 5.7.8 Authentication failed',
            );
        } else if (verb === 'QUIT') {
          reply('221 2.0.0 Bye');
          socket.end();
        } else if (verb === 'NOOP' || verb === 'RSET') reply('250 OK');
        else reply('502 5.5.2 Command not implemented');
      }
    });
    reply('220 fake.test ESMTP');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    commands,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
