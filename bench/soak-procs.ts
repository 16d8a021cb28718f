/**
 * The soak's processes: `svc serve` and `svc worker` as the real CLI (`node --import tsx
 * src/cli.ts …`), each incarnation's stdout and stderr in a log file of its own (a kill -9 and the
 * restart get two files), its RSS read from /proc, its memory after a full collection (through the
 * inspector, which each one opens on a loopback port of its own), and the warnings and errors of
 * its log summed up afterwards.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'undici';
import { NODE_FLAGS } from '../src/node-flags.js';
import { runCommand, SERVE_READY, WORKER_READY } from '../test/helpers/services.js';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export type SvcCommand = 'serve' | 'worker' | 'migrate' | 'user' | 'keys';

/** Runs a one-shot `svc <command> …` to its end; resolves with its output, rejects on exit ≠ 0. */
export function svcOnce(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return runCommand(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
  });
}

/** One incarnation of a long-running `svc serve` or `svc worker`. */
export class SvcProcess {
  /** serve: where it listens. */
  url = '';
  /** Soak-relative ms at which the bench killed it (kill -9), if it did. */
  killedAt: number | undefined;
  readonly exited: Promise<number | string | null>;

  private constructor(
    readonly name: string,
    readonly command: 'serve' | 'worker',
    readonly logFile: string,
    private readonly child: ChildProcess,
  ) {
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => resolve(code ?? signal));
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts `svc <command>` and waits until it is ready: serve's "listening on <url>" line,
   * worker's "worker started" log line. */
  static async start(
    name: string,
    command: 'serve' | 'worker',
    env: NodeJS.ProcessEnv,
    logFile: string,
  ): Promise<SvcProcess> {
    const fd = openSync(logFile, 'a');
    // The inspector (loopback, a free port) is how the bench asks for a full collection before it
    // reads memory; nothing is attached to it in between.
    const args = [...NODE_FLAGS, '--inspect=127.0.0.1:0', '--import', 'tsx', 'src/cli.ts', command];
    const child = spawn(process.execPath, args, {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', fd, fd],
    });
    closeSync(fd);
    const p = new SvcProcess(name, command, logFile, child);
    // SERVE_READY wants an http URL: the inspector's "Debugger listening on ws://…" is not it.
    const ready = command === 'serve' ? SERVE_READY : WORKER_READY;
    const deadline = Date.now() + 180_000;
    for (;;) {
      const m = ready.exec(readFileSync(logFile, 'utf8'));
      if (m) {
        if (command === 'serve') p.url = m[1]!;
        return p;
      }
      if (!p.running) throw new Error(`${name} exited before it was ready:\n${tail(logFile)}`);
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`${name} was not ready within 180 s:\n${tail(logFile)}`);
      }
      await sleep(100);
    }
  }

  /** Resident memory in MiB (VmRSS of /proc/<pid>/status), undefined once it has exited. */
  rssMiB(): number | undefined {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${this.pid}/status`, 'utf8'));
      return m ? Math.round((Number(m[1]) / 1024) * 10) / 10 : undefined;
    } catch {
      return undefined;
    }
  }

  /** Memory after a full collection (see {@link memoryAfterGc}); undefined once it has exited. */
  async memoryAfterGc(ms = 15_000): Promise<MemoryAfterGc | undefined> {
    if (!this.running) return undefined;
    const url = inspectorUrl(readFileSync(this.logFile, 'utf8'));
    return url ? memoryAfterGc(url, ms) : undefined;
  }

  /** kill -9, and waits for the exit. */
  async kill9(at: number): Promise<void> {
    this.killedAt = at;
    this.child.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM (a graceful shutdown); resolves with how it ended and how long it took, SIGKILL
   * after `ms`. */
  async stop(ms = 30_000): Promise<{ exit: number | string | null; ms: number; forced: boolean }> {
    const started = performance.now();
    if (!this.running) return { exit: await this.exited, ms: 0, forced: false };
    this.child.kill('SIGTERM');
    let forced = false;
    const timer = setTimeout(() => {
      forced = true;
      this.child.kill('SIGKILL');
    }, ms);
    const exit = await this.exited;
    clearTimeout(timer);
    return { exit, ms: Math.round(performance.now() - started), forced };
  }

  /** Last resort on the way out (the bench failed): no waiting. */
  killNow(): void {
    if (this.running) this.child.kill('SIGKILL');
  }
}

/** What {@link memoryAfterGc} reads, in MiB, and how long the collection took. */
export interface MemoryAfterGc {
  rssMiB: number;
  heapUsedMiB: number;
  externalMiB: number;
  gcMs: number;
}

/** The inspector's WebSocket address in a process's output (`--inspect` prints it on stderr). */
export function inspectorUrl(output: string): string | undefined {
  return /Debugger listening on (ws:\/\/\S+)/.exec(output)?.[1];
}

/**
 * A Node process's memory after a full, precise garbage collection: the inspector's
 * HeapProfiler.collectGarbage, then process.memoryUsage() in that process. RSS sampled between
 * collections rises and falls with garbage V8 has not collected yet; this reads what survives,
 * which is what a leak grows. Undefined when the inspector does not answer within `ms`.
 */
export async function memoryAfterGc(url: string, ms = 15_000): Promise<MemoryAfterGc | undefined> {
  const ws = new WebSocket(url);
  const pending = new Map<number, (result: unknown) => void>();
  let nextId = 0;
  ws.addEventListener('message', (e) => {
    const msg = JSON.parse(String(e.data)) as { id?: number; result?: unknown };
    if (msg.id !== undefined) pending.get(msg.id)?.(msg.result);
  });
  const call = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve) => {
      const id = ++nextId;
      pending.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  const exchange = async (): Promise<MemoryAfterGc> => {
    await new Promise<void>((resolve, reject) => {
      ws.addEventListener('open', () => resolve(), { once: true });
      ws.addEventListener('error', () => reject(new Error('inspector connection failed')), { once: true });
    });
    const started = performance.now();
    await call('HeapProfiler.collectGarbage');
    const gcMs = Math.round(performance.now() - started);
    const r = (await call('Runtime.evaluate', {
      expression: 'JSON.stringify(process.memoryUsage())',
      returnByValue: true,
    })) as { result: { value: string } };
    const u = JSON.parse(r.result.value) as NodeJS.MemoryUsage;
    const mib = (b: number) => Math.round((b / 1048576) * 10) / 10;
    return { rssMiB: mib(u.rss), heapUsedMiB: mib(u.heapUsed), externalMiB: mib(u.external), gcMs };
  };
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      exchange(),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), ms);
      }),
    ]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
    ws.close();
  }
}

export function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

export interface LogSummary {
  /** Warning (40) and error (50+) lines by message: how many, first and last (soak-relative s). */
  messages: { level: number; msg: string; count: number; first: number; last: number; sample: string }[];
  /** Lines that are not JSON (stack traces on stderr, the CLI's own lines). */
  other: string[];
}

/** The warnings and errors of a pino log file, grouped by level and message (with the first
 * error's message or code, which tells "connection terminated" from "timeout"). */
export function summarizeLog(logFile: string, soakStartEpochMs: number): LogSummary {
  const groups = new Map<string, LogSummary['messages'][number]>();
  const other: string[] = [];
  let text = '';
  try {
    text = readFileSync(logFile, 'utf8');
  } catch {
    return { messages: [], other };
  }
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let entry: { level?: number; time?: number; msg?: string; err?: { message?: string; code?: string } };
    try {
      entry = JSON.parse(line);
    } catch {
      if (other.length < 40) other.push(line.slice(0, 300));
      continue;
    }
    if ((entry.level ?? 0) < 40) continue;
    const why = entry.err ? ` (${entry.err.code ?? entry.err.message?.slice(0, 120) ?? ''})` : '';
    const key = `${entry.level} ${entry.msg ?? ''}${why}`;
    const t = Math.round(((entry.time ?? soakStartEpochMs) - soakStartEpochMs) / 100) / 10;
    const g = groups.get(key);
    if (g) {
      g.count += 1;
      g.last = t;
    } else {
      groups.set(key, {
        level: entry.level ?? 0,
        msg: `${entry.msg ?? ''}${why}`,
        count: 1,
        first: t,
        last: t,
        sample: line.slice(0, 600),
      });
    }
  }
  return { messages: [...groups.values()].sort((a, b) => a.first - b.first), other };
}

export function logPath(dir: string, name: string, incarnation: number): string {
  return join(dir, `${name}.${incarnation}.log`);
}
