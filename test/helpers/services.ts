/**
 * Private instances of the services the fault tests stop, kill and restart: a nats-server, a
 * redis-server and a throwaway PostgreSQL cluster on free ports, in temporary directories. The
 * shared servers CI runs (PostgreSQL on 5432, Redis on 6379, NATS on 4222) are never touched. Also: the real app on a database of the
 * private cluster, and a child process running `svc worker`'s ingest writer.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JetStreamManager } from 'nats';
import { migrate, openPostgres } from '../../src/db/index.js';
import { buildTestApp, TEST_JWT_SECRET, type TestApp } from './app.js';
import { withPgClient } from './pg-client.js';

export const NATS_SERVER = '/usr/sbin/nats-server';
const RUNUSER = ['/usr/sbin/runuser', '/sbin/runuser'].find((p) => existsSync(p));
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

// Servers still running when the test process exits (a crash, a timeout) are stopped here.
const atExit = new Set<() => void>();
process.once('exit', () => {
  for (const fn of atExit) {
    try {
      fn();
    } catch {
      // best effort
    }
  }
});

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function hasNatsServer(): boolean {
  return existsSync(NATS_SERVER);
}

/** The newest /usr/lib/postgresql/<version>/bin holding initdb and pg_ctl. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => /^\d+(\.\d+)?$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const bin = join(root, v, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'))) return bin;
  }
  return undefined;
}

/** initdb refuses root: as root the cluster belongs to the `postgres` OS user. */
function clusterOwner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

export function hasPostgresServer(): boolean {
  if (!postgresBinDir()) return false;
  if (process.getuid?.() !== 0) return true;
  if (!RUNUSER) return false;
  try {
    clusterOwner();
    return true;
  } catch {
    return false;
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = new Socket();
    const done = (open: boolean) => {
      s.destroy();
      resolve(open);
    };
    s.setTimeout(1_000, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
    s.connect(port, '127.0.0.1');
  });
}

/** Runs a command to its exit (not the close of its pipes: pg_ctl leaves a daemon behind);
 * resolves with its output (stdout and stderr), rejects on an exit other than 0. */
export function runCommand(
  cmd: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      child.stdout.destroy();
      child.stderr.destroy();
      if (code === 0) resolve(out);
      else reject(new Error(`${cmd} ${args.join(' ')} exited with ${code ?? signal}:\n${out}`));
    });
  });
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** Waits for a process's exit; SIGKILL after `ms`. */
async function waitExit(child: ChildProcess, exited: Promise<unknown>, ms: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  await exited;
  clearTimeout(timer);
}

export interface PrivateNats {
  /** nats://127.0.0.1:<port> */
  readonly url: string;
  readonly port: number;
  /** Whether the server process is running. */
  readonly running: boolean;
  /** (Re)starts the server on the same port and store; resolves once the port accepts connections. */
  start(): Promise<void>;
  /** SIGTERM (a graceful shutdown), and waits for the exit. */
  stop(): Promise<void>;
  /** SIGKILL, and waits for the exit. */
  kill(): Promise<void>;
  /** Stops the server and removes its store. */
  dispose(): Promise<void>;
  /** The end of the server's log (for failure messages). */
  log(): string;
}

/** A nats-server with JetStream on a free port, its store in a temporary directory. */
export async function privateNats(): Promise<PrivateNats> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-nats-'));
  const port = await freePort();
  const logFile = join(dir, 'nats.log');
  let child: ChildProcess | undefined;
  let exited: Promise<unknown> = Promise.resolve();
  const killNow = () => child?.kill('SIGKILL');
  atExit.add(killNow);

  const signal = async (sig: NodeJS.Signals) => {
    const c = child;
    if (!c) return;
    child = undefined;
    c.kill(sig);
    await waitExit(c, exited, 10_000);
  };

  const handle: PrivateNats = {
    url: `nats://127.0.0.1:${port}`,
    port,
    get running() {
      return child !== undefined;
    },
    async start() {
      if (child) return;
      const args = ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', join(dir, 'store'), '-l', logFile];
      const c = spawn(NATS_SERVER, args, { stdio: 'ignore' });
      child = c;
      let failed: Error | undefined;
      exited = new Promise((r) => {
        c.once('exit', (code, sig) => {
          failed ??= new Error(`nats-server exited (${code ?? sig}):\n${tail(logFile)}`);
          if (child === c) child = undefined;
          r(undefined);
        });
        c.once('error', (err) => {
          failed = err;
          if (child === c) child = undefined;
          r(undefined);
        });
      });
      const deadline = Date.now() + 15_000;
      for (;;) {
        if (failed) throw failed;
        if (await portOpen(port)) return;
        if (Date.now() > deadline)
          throw new Error(`nats-server did not listen on ${port}:\n${tail(logFile)}`);
        await sleep(50);
      }
    },
    stop: () => signal('SIGTERM'),
    kill: () => signal('SIGKILL'),
    async dispose() {
      await signal('SIGTERM');
      atExit.delete(killNow);
      rmSync(dir, { recursive: true, force: true });
    },
    log: () => tail(logFile),
  };
  await handle.start();
  return handle;
}

export const REDIS_SERVER = '/usr/bin/redis-server';

export function hasRedisServer(): boolean {
  return existsSync(REDIS_SERVER);
}

export interface PrivateRedis {
  /** redis://127.0.0.1:<port> */
  readonly url: string;
  readonly port: number;
  readonly running: boolean;
  /** (Re)starts the server on the same port; resolves once the port accepts connections. */
  start(): Promise<void>;
  /** SIGTERM, and waits for the exit. */
  stop(): Promise<void>;
  /** SIGKILL, and waits for the exit. */
  kill(): Promise<void>;
  /** Stops the server and removes its directory. */
  dispose(): Promise<void>;
  log(): string;
}

/** A redis-server on a free port with no persistence (what the deployments use it for is
 * ephemeral), in a temporary directory. */
export async function privateRedis(): Promise<PrivateRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-redis-'));
  const port = await freePort();
  const logFile = join(dir, 'redis.log');
  let child: ChildProcess | undefined;
  let exited: Promise<unknown> = Promise.resolve();
  const killNow = () => child?.kill('SIGKILL');
  atExit.add(killNow);
  const signal = async (sig: NodeJS.Signals) => {
    const c = child;
    if (!c) return;
    child = undefined;
    c.kill(sig);
    await waitExit(c, exited, 10_000);
  };
  const handle: PrivateRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    get running() {
      return child !== undefined;
    },
    async start() {
      if (child) return;
      const args = [
        '--bind',
        '127.0.0.1',
        '--port',
        String(port),
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
        '--logfile',
        logFile,
        '--daemonize',
        'no',
      ];
      const c = spawn(REDIS_SERVER, args, { stdio: 'ignore' });
      child = c;
      let failed: Error | undefined;
      exited = new Promise((r) => {
        c.once('exit', (code, sig) => {
          failed ??= new Error(`redis-server exited (${code ?? sig}):\n${tail(logFile)}`);
          if (child === c) child = undefined;
          r(undefined);
        });
        c.once('error', (err) => {
          failed = err;
          if (child === c) child = undefined;
          r(undefined);
        });
      });
      const deadline = Date.now() + 15_000;
      for (;;) {
        if (failed) throw failed;
        if (await portOpen(port)) return;
        if (Date.now() > deadline)
          throw new Error(`redis-server did not listen on ${port}:\n${tail(logFile)}`);
        await sleep(50);
      }
    },
    stop: () => signal('SIGTERM'),
    kill: () => signal('SIGKILL'),
    async dispose() {
      await signal('SIGTERM');
      atExit.delete(killNow);
      rmSync(dir, { recursive: true, force: true });
    },
    log: () => tail(logFile),
  };
  await handle.start();
  return handle;
}

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  readonly url: string;
  readonly port: number;
  /** pg_ctl restart: 'fast' disconnects clients and shuts down cleanly; 'immediate' is a crash
   * (the server recovers from its WAL on start). Resolves once the server accepts connections. */
  restart(mode: 'fast' | 'immediate'): Promise<void>;
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** A new empty database on the cluster; returns its URL. */
  createDatabase(): Promise<string>;
  /** Stops the cluster and removes its data directory. */
  dispose(): Promise<void>;
  log(): string;
}

/** A throwaway PostgreSQL cluster (initdb) on a free port, trust auth, default durability
 * settings (fsync and synchronous_commit on): what a crash-restart loses is what a real one would. */
export async function privatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql');
  const owner = clusterOwner();
  const dir = mkdtempSync(join(tmpdir(), 'svc-pg-'));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, 'data');
  const logFile = join(dir, 'postgres.log');
  const port = await freePort();
  const as = (tool: string, args: string[]) =>
    owner && RUNUSER
      ? runCommand(RUNUSER, ['-u', 'postgres', '--', join(bin, tool), ...args])
      : runCommand(join(bin, tool), args);
  const pgCtl = (args: string[]) => as('pg_ctl', ['-D', data, '-w', '-t', '60', ...args]);
  const stopNow = () => {
    const args = [join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop'];
    if (owner && RUNUSER) execFileSync(RUNUSER, ['-u', 'postgres', '--', ...args], { stdio: 'ignore' });
    else execFileSync(args[0]!, args.slice(1), { stdio: 'ignore' });
  };

  // --no-sync only skips initdb's own final flush of the template files (nothing a crash of the
  // server, as opposed to the machine, could lose); the server itself keeps fsync on.
  await as('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
  appendFileSync(
    join(data, 'postgresql.conf'),
    [
      '',
      "listen_addresses = '127.0.0.1'",
      `port = ${port}`,
      `unix_socket_directories = '${dir}'`,
      'max_connections = 50',
      'shared_buffers = 32MB',
      '',
    ].join('\n'),
  );
  await pgCtl(['-l', logFile, 'start']);
  atExit.add(stopNow);

  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const withLog = async (what: Promise<unknown>) => {
    try {
      await what;
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- postgres log ---\n${tail(logFile)}`);
    }
  };
  return {
    url,
    port,
    restart: (mode) => withLog(pgCtl(['-l', logFile, '-m', mode, 'restart'])),
    stop: (mode = 'fast') => withLog(pgCtl(['-m', mode, 'stop'])),
    start: () => withLog(pgCtl(['-l', logFile, 'start'])),
    async createDatabase() {
      const name = `svc_fault_${randomBytes(4).toString('hex')}`;
      await withPgClient(url, (client) => client.query(`CREATE DATABASE ${name}`));
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async dispose() {
      atExit.delete(stopNow);
      await pgCtl(['-m', 'immediate', 'stop']).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
    log: () => tail(logFile),
  };
}

/** The app (buildTestApp) on the database at `url`, e.g. one of a private cluster, migrated
 * first. `close()` closes the app and its pool, and leaves the database. */
export async function buildTestAppOn(url: string, env: Record<string, string> = {}): Promise<TestApp> {
  const db = await openPostgres(url, { max: 5 });
  await migrate(db);
  return buildTestApp({ env, testDb: { db, url, dispose: () => db.close() } });
}

export interface WorkerProcess {
  readonly pid: number;
  /** stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code or signal. */
  readonly exited: Promise<number | NodeJS.Signals | null>;
  /** kill -9 (no shutdown of any kind), and waits for the exit. */
  kill9(): Promise<void>;
  /** SIGTERM (graceful: the worker finishes its write and acks), and waits for the exit. */
  stop(): Promise<void>;
}

/** Starts test/fixtures/ingest-worker.ts (startWorker with no jobs: only the NATS ingest writer)
 * and resolves once it printed READY. */
export async function startIngestWorker(env: {
  DATABASE_URL: string;
  NATS_URL: string;
  [name: string]: string;
}): Promise<WorkerProcess> {
  const { process } = await startFixture('test/fixtures/ingest-worker.ts', env, /^READY$/m);
  return process;
}

export interface ServeProcess extends WorkerProcess {
  /** Where it listens (http://127.0.0.1:port). */
  readonly url: string;
}

/** Starts test/fixtures/ingest-serve.ts (startServer with no jobs: HTTP and the ingest writer) on
 * a free port and resolves once it printed READY <url>. */
export async function startIngestServe(env: {
  DATABASE_URL: string;
  NATS_URL: string;
  [name: string]: string;
}): Promise<ServeProcess> {
  const { process, match } = await startFixture('test/fixtures/ingest-serve.ts', env, /^READY (\S+)$/m);
  return { ...process, url: match[1]! };
}

export interface SvcProcess extends WorkerProcess {
  /** What `ready` matched in the output (serve: `listening on (http://…)` gives the URL). */
  readonly match: RegExpExecArray;
}

/** Matches the line `svc serve` prints once it listens; group 1 is the URL. */
export const SERVE_READY = /listening on (http:\/\/\S+)/;
/** Matches the log line `svc worker` writes once its jobs and consumers started (LOG_LEVEL info). */
export const WORKER_READY = /"msg":"worker started"/;

/**
 * Starts the real CLI, `svc <command>` (src/cli.ts under tsx, as `npm start` runs it), with `env`
 * over the defaults of startFixture (LOG_LEVEL warn, TEST_JWT_SECRET, a DATA_DIR of its own, no
 * Redis), and resolves once its output matches `ready` (SERVE_READY, WORKER_READY).
 */
export async function startSvc(
  command: 'serve' | 'worker',
  env: Record<string, string>,
  ready: RegExp,
): Promise<SvcProcess> {
  const { process, match } = await startFixture('src/cli.ts', env, ready, [command]);
  return { ...process, match };
}

/** Spawns a fixture (with `args`) under tsx and waits for `ready` in its output. */
async function startFixture(
  fixture: string,
  env: Record<string, string>,
  ready: RegExp,
  args: string[] = [],
): Promise<{ process: WorkerProcess; match: RegExpExecArray }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-worker-'));
  const name = [fixture, ...args].join(' ');
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, ...args], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      JWT_SECRET: TEST_JWT_SECRET,
      DATA_DIR: dataDir,
      REDIS_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killNow = () => child.kill('SIGKILL');
  atExit.add(killNow);
  let out = '';
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) => {
    child.once('exit', (code, signal) => {
      atExit.delete(killNow);
      rmSync(dataDir, { recursive: true, force: true });
      resolve(code ?? signal);
    });
  });
  const deadline = Date.now() + 30_000;
  let match = ready.exec(out);
  while (!match) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} exited before printing ${ready}:\n${out}`);
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not print ${ready} within 30 s:\n${out}`);
    }
    await sleep(50);
    match = ready.exec(out);
  }
  const signal = async (sig: NodeJS.Signals, ms: number) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
    await waitExit(child, exited, ms);
  };
  return {
    match,
    process: {
      pid: child.pid!,
      output: () => out,
      exited,
      kill9: () => signal('SIGKILL', 5_000),
      stop: () => signal('SIGTERM', 15_000),
    },
  };
}

/** What an ingest stream and its consumer (`<stream>_writer`) hold, as the fault tests read it. */
export interface StreamStats {
  /** Not yet delivered. */
  pending: number;
  /** Delivered, not acked (held by a writer, or awaiting redelivery). */
  ackPending: number;
  /** Deliveries so far, redeliveries included. */
  delivered: number;
  /** Messages in the stream (acked ones are removed: work-queue retention). */
  messages: number;
  /** Messages ever published. */
  published: number;
  /** The consumer's ack wait. */
  ackWaitMs: number;
}

export async function streamStats(jsm: JetStreamManager, stream: string): Promise<StreamStats> {
  const [c, s] = await Promise.all([
    jsm.consumers.info(stream, `${stream}_writer`),
    jsm.streams.info(stream),
  ]);
  return {
    pending: c.num_pending,
    ackPending: c.num_ack_pending,
    delivered: c.delivered.consumer_seq,
    messages: s.state.messages,
    published: s.state.last_seq,
    ackWaitMs: (c.config.ack_wait ?? 0) / 1_000_000,
  };
}
