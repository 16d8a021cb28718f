/**
 * Benchmark plumbing. Every figure is a ratio against a floor measured in the same run on the same
 * machine, because these machines are shared and noisy: absolute numbers are printed for context,
 * ratios are what we track.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import autocannon from 'autocannon';
import { NODE_FLAGS } from '../src/node-flags.js';

/** The account `bench/server.ts app` creates for authenticated figures. */
export const BENCH_USER = { email: 'bench@example.com', password: 'bench password 0123' };
/** Audit entries `bench/server.ts teams` writes into the bench team. */
export const TEAM_AUDIT_ROWS = 100_000;

export interface Figure {
  suite: string;
  name: string;
  value: number;
  unit: string;
  /** The floor this figure is compared with, measured in the same run. */
  floor?: { name: string; value: number };
  ratio?: number;
  /** The goal for the ratio, when an issue sets one. */
  goal?: string;
}

export interface BenchOptions {
  durationSec: number;
  connections: number;
}

export interface Suite {
  name: string;
  description: string;
  run(options: BenchOptions): Promise<Figure[]>;
}

export interface RunningTarget {
  url: string;
  /** The second word of the READY line, when the server prints one (an API key). */
  key?: string;
  /** The third word, when the server prints one (a signed-in user's access token). */
  token?: string;
  /** The server's process. */
  pid: number | undefined;
  stop(): Promise<void>;
}

/**
 * On a machine with two or more CPUs, a server started by startTarget runs on the last CPU and the
 * load generator (autocannon, in this process) on the others while compare() measures: sharing
 * one CPU, the two take turns unevenly and a ratio moved by ±0.15 from run to run (pinned, by
 * ±0.03). Both floor and subject are measured the same way. BENCH_PIN=0 leaves scheduling to the
 * system; without `taskset` (util-linux) nothing is pinned.
 */
const PIN = pinning();
let pinnedServers = 0;

function pinning(): { server: string; load: string } | undefined {
  const cpus = availableParallelism();
  if (cpus < 2 || process.env.BENCH_PIN === '0') return undefined;
  if (spawnSync('taskset', ['-p', String(process.pid)]).status !== 0) return undefined;
  return { server: String(cpus - 1), load: cpus === 2 ? '0' : `0-${cpus - 2}` };
}

/** Runs `fn` with this process (the load generator) on the load CPUs, when servers are pinned. */
async function withLoadPinned<T>(fn: () => Promise<T>): Promise<T> {
  if (!PIN || pinnedServers === 0) return fn();
  const before = /:\s*([0-9a-f]+)\s*$/i.exec(
    spawnSync('taskset', ['-p', String(process.pid)]).stdout.toString(),
  );
  spawnSync('taskset', ['-a', '-p', '-c', PIN.load, String(process.pid)]);
  try {
    return await fn();
  } finally {
    if (before) spawnSync('taskset', ['-a', '-p', before[1]!, String(process.pid)]);
  }
}

/** Starts `tsx bench/server.ts <kind>` (or `tsx <script> <kind>`) with `env` added, and waits for
 * its `READY <url> [key [token]]` line. */
export async function startTarget(
  kind: string,
  options: { script?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<RunningTarget> {
  // Started as production starts svc (NODE_FLAGS), floors and subjects alike.
  const command = [
    process.execPath,
    ...NODE_FLAGS,
    '--import',
    'tsx',
    options.script ?? 'bench/server.ts',
    kind,
  ];
  // taskset execs the server: the child is the server's own process (kill reaches it).
  const pinned = PIN ? ['taskset', '-c', PIN.server, ...command] : command;
  const child: ChildProcess = spawn(pinned[0]!, pinned.slice(1), {
    stdio: ['ignore', 'pipe', 'inherit'],
    ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
  });
  const ready = await new Promise<{ url: string; key?: string }>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /READY (\S+)(?: (\S+))?(?: (\S+))?\n/.exec(out);
      if (m) resolve({ url: m[1]!, ...(m[2] ? { key: m[2] } : {}), ...(m[3] ? { token: m[3] } : {}) });
    });
    child.on('exit', (code) => reject(new Error(`bench server "${kind}" exited with ${code}`)));
  });
  if (PIN) {
    if (pinnedServers === 0) {
      console.log(
        `bench: servers run on CPU ${PIN.server}, the load generator on CPU ${PIN.load} (BENCH_PIN=0: unpinned)`,
      );
    }
    pinnedServers += 1;
  }
  return {
    ...ready,
    pid: child.pid,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => {
          if (PIN) pinnedServers -= 1;
          resolve();
        });
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** Loads one URL with autocannon; requests/s is the mean over the run. */
export async function load(
  url: string,
  options: BenchOptions,
  request: { method?: 'GET' | 'POST'; body?: string; headers?: Record<string, string> } = {},
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.durationSec,
    method: request.method ?? 'GET',
    ...(request.body ? { body: request.body } : {}),
    ...(request.headers ? { headers: request.headers } : {}),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/**
 * Measures floor and subject back to back `rounds` times and keeps the pair whose subject/floor
 * ratio is the median. The machine is shared: a floor measured a minute apart from its subject can
 * differ by half, so each ratio comes from two runs seconds apart, and the median of several such
 * pairs is neither a lucky nor an unlucky round (a best-of-each would pair a lucky floor with a
 * lucky subject from different moments).
 */
export async function compare<S extends LoadResult = LoadResult, F extends LoadResult = LoadResult>(
  floor: () => Promise<F>,
  subject: () => Promise<S>,
  rounds = 3,
): Promise<{ floor: F; subject: S; rounds: number }> {
  const pairs: { floor: F; subject: S; ratio: number }[] = [];
  await withLoadPinned(async () => {
    for (let i = 0; i < rounds; i++) {
      const f = await floor();
      const s = await subject();
      pairs.push({ floor: f, subject: s, ratio: f.rps > 0 ? s.rps / f.rps : 0 });
    }
  });
  const median = medianPair(pairs);
  return { floor: median.floor, subject: median.subject, rounds };
}

/** The pair holding the median ratio (the lower middle one for an even count). */
export function medianPair<P extends { ratio: number }>(pairs: readonly P[]): P {
  if (pairs.length === 0) throw new Error('medianPair: no pairs');
  const sorted = [...pairs].sort((a, b) => a.ratio - b.ratio);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

export function ratio(value: number, floor: number): number {
  return floor > 0 ? Math.round((value / floor) * 1000) / 1000 : 0;
}
