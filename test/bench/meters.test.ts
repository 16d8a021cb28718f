/**
 * The benches' meters (bench/cpu.ts, bench/soak-procs.ts): what they read from a real process. The
 * figures a bench reports rest on them, and a bench run is too long to find out there.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { describeCpu, perUnit, withCpu } from '../../bench/cpu.js';
import { inspectorUrl, memoryAfterGc } from '../../bench/soak-procs.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

/** `node -e script` with extra flags; resolves with the child and its stderr so far once `ready`
 * matches it. */
function node(
  flags: string[],
  script: string,
  ready: RegExp,
): Promise<{ child: ChildProcess; stderr: string }> {
  const child = spawn(process.execPath, [...flags, '-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => {
      stderr += c.toString();
      if (ready.test(stderr)) resolve({ child, stderr });
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
  });
}

describe('perUnit and describeCpu', () => {
  it('divides each part and their sum by the units, to 0.01 ms, and prints them in order', () => {
    const c = perUnit({ svc: 1000, postgres: 500, nats: 30, load: 250 }, 400);
    expect(c).toEqual({ svc: 2.5, postgres: 1.25, nats: 0.08, load: 0.63, total: 4.45 });
    expect(describeCpu(c, 'load')).toBe('svc 2.5 + PostgreSQL 1.25 + NATS 0.08 + load 0.63 = 4.45 ms');
  });

  it('leaves out a server and NATS that spent nothing, and answers 0 for no units', () => {
    const c = perUnit({ svc: 0, postgres: 700, nats: 0, load: 300 }, 100);
    expect(describeCpu(c, 'its Node process')).toBe('PostgreSQL 7 + its Node process 3 = 10 ms');
    expect(perUnit({ svc: 5, postgres: 5, nats: 5, load: 5 }, 0)).toEqual({
      svc: 0,
      postgres: 0,
      nats: 0,
      load: 0,
      total: 0,
    });
  });
});

describe.runIf(existsSync('/proc/self/stat'))('withCpu', () => {
  it("counts a busy server process's CPU as svc and this process's as load", async () => {
    // The child spins for 400 ms of CPU once told to, then waits.
    const { child } = await node(
      [],
      `const used = () => { const u = process.cpuUsage(); return u.user + u.system; };
       process.stderr.write('up\\n');
       process.on('SIGUSR2', () => { const end = used() + 400e3; while (used() < end); process.stderr.write('spun\\n'); });
       setInterval(() => {}, 1000);`,
      /up/,
    );
    const spun = new Promise<void>((resolve) => {
      child.stderr!.on('data', (c: Buffer) => c.toString().includes('spun') && resolve());
    });
    const { result, cpu } = await withCpu(child.pid, async () => {
      child.kill('SIGUSR2');
      await spun;
      // And 100 ms of CPU here, in the load generator's place.
      const used = () => {
        const u = process.cpuUsage();
        return u.user + u.system;
      };
      const end = used() + 100e3;
      while (used() < end);
      return 'done';
    });
    expect(result).toBe('done');
    // The kernel counts in clock ticks (10 ms on Linux's default 100 Hz).
    expect(cpu!.svc).toBeGreaterThanOrEqual(380);
    expect(cpu!.svc).toBeLessThan(600);
    expect(cpu!.load).toBeGreaterThanOrEqual(100);
    expect(cpu!.postgres).toBeGreaterThanOrEqual(0);
    expect(cpu!.nats).toBeGreaterThanOrEqual(0);
  });
});

describe('memoryAfterGc', () => {
  it('finds the inspector address in what --inspect prints', () => {
    expect(
      inspectorUrl(
        'Debugger listening on ws://127.0.0.1:34731/612610fb-1207-43a5-b0c6-406f3e4c4812\nFor help, see: https://nodejs.org/en/docs/inspector\n',
      ),
    ).toBe('ws://127.0.0.1:34731/612610fb-1207-43a5-b0c6-406f3e4c4812');
    expect(inspectorUrl('svc 0.1.0 listening on http://127.0.0.1:8080')).toBeUndefined();
  });

  it('collects the garbage a process left before it reads the memory', async () => {
    // 40 MiB of objects made and dropped, with nothing to make V8 collect them on its own.
    const { stderr } = await node(
      ['--inspect=127.0.0.1:0'],
      `let junk = Array.from({ length: 400_000 }, (_, i) => ({ i, s: 'x'.repeat(40) + i }));
       globalThis.before = process.memoryUsage().heapUsed; junk = null;
       process.stderr.write('ready ' + globalThis.before + '\\n'); setInterval(() => {}, 1000);`,
      /ready (\d+)/,
    );
    const before = Number(/ready (\d+)/.exec(stderr)![1]) / 1048576;
    const m = await memoryAfterGc(inspectorUrl(stderr)!);
    expect(m).toBeDefined();
    expect(m!.heapUsedMiB).toBeLessThan(before - 20);
    expect(m!.rssMiB).toBeGreaterThan(m!.heapUsedMiB);
    expect(m!.gcMs).toBeGreaterThanOrEqual(0);
  });

  it('answers undefined when nothing answers at the address', async () => {
    expect(await memoryAfterGc('ws://127.0.0.1:9/none', 2000)).toBeUndefined();
  });
});
