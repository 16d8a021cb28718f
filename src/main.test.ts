import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LogCapture } from '../test/helpers/app.js';
import { migratedDataDir } from '../test/helpers/db.js';
import { loadConfig } from './config.js';
import { closeOnSignals, type RunningServer, startServer } from './main.js';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'svc-main-'));
}

/** A GET on a brand-new connection (no keep-alive reuse): status code, or the error code. */
function get(url: string): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
  });
}

describe('graceful shutdown', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('finishes requests in flight, refuses new connections, then closes the database', async () => {
    let entered!: () => void;
    const inHandler = new Promise<void>((r) => {
      entered = r;
    });
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    server = await startServer(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: await migratedDataDir('svc-main-'),
        LOG_LEVEL: 'info',
      }),
      {
        logStream: new LogCapture(),
        configure(app) {
          app.get('/slow', async () => {
            entered();
            await gate;
            return { done: true };
          });
        },
      },
    );
    const url = server.url;
    expect(await get(`${url}/readyz`)).toMatchObject({ status: 200 });

    const slow = get(`${url}/slow`);
    await inHandler;
    const closing = server.close('test');
    // The listener closes at once; the request in flight is not cut off.
    let refused: unknown;
    for (let i = 0; i < 50; i++) {
      refused = await get(`${url}/healthz`);
      if ('error' in (refused as object)) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(refused).toEqual({ error: 'ECONNREFUSED' });
    expect(server.db.closed).toBe(false);
    release();
    expect(await slow).toEqual({ status: 200, body: '{"done":true}' });
    await closing;
    expect(server.db.closed).toBe(true);
    await expect(server.db.query('SELECT 1')).rejects.toThrow();
  });

  it('closes on SIGTERM and exits 0, or exits 1 when the grace period runs out', async () => {
    const exits: number[] = [];
    const closed: string[] = [];
    const log = { info() {}, warn() {}, error() {} } as never;
    const off = closeOnSignals(
      { log, close: async (reason) => void closed.push(String(reason)) },
      1000,
      (c) => exits.push(c),
    );
    process.emit('SIGTERM', 'SIGTERM');
    await new Promise((r) => setTimeout(r, 10));
    off();
    expect(closed).toEqual(['SIGTERM']);
    expect(exits).toEqual([0]);

    const stuckExits: number[] = [];
    const offStuck = closeOnSignals({ log, close: () => new Promise(() => {}) }, 100, (c) =>
      stuckExits.push(c),
    );
    process.emit('SIGINT', 'SIGINT');
    await new Promise((r) => setTimeout(r, 200));
    offStuck();
    expect(stuckExits).toEqual([1]);
  });
});

describe('the svc process', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill('SIGKILL');
  });

  it('serves, then shuts down cleanly on SIGTERM with exit code 0', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: tempDir(),
        LOG_LEVEL: 'info',
        DATABASE_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stderr?.on('data', (c: Buffer) => {
      output += c.toString();
    });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const m = /listening on (http:\/\/\S+)/.exec(output);
        if (m) {
          clearInterval(timer);
          resolve(m[1]!);
        }
      }, 50);
      child?.on('exit', () => reject(new Error(`exited early:\n${output}`)));
    });
    expect(await get(`${url}/readyz`)).toMatchObject({ status: 200 });
    // Embedded mode prints how to sign in: the demo accounts and their generated password.
    expect(output).toMatch(/Demo accounts .*\n\s+[A-Za-z0-9_-]{64}\n\s+Explorer\s+explorer@demo\.test/);
    const exited = new Promise<number | null>((r) => child?.on('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('"msg":"shutdown complete"');
  });
});
