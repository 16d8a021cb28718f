/**
 * CPU time per unit of work, read from /proc (Linux): what each process of a measured set-up (the
 * svc server, PostgreSQL's processes, nats-server, the load generator in this process) spent over
 * a timed run. On a machine where all of them share the same CPUs, throughput is bounded by the
 * machine's CPU over the CPU one unit of work costs in all of them together, so these figures say
 * why one subject can or cannot go faster than another. Elsewhere (no /proc) nothing is measured.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** The processes whose CPU a meter reads: the server's pid (when there is one), and PostgreSQL and
 * nats-server found by their command lines (all of them on the machine: the bench runs alone). */
export type CpuPart = 'svc' | 'postgres' | 'nats' | 'load';
export type CpuMs = Record<CpuPart, number>;

const PROC = existsSync('/proc/self/stat');
const TICK_MS = PROC ? 1000 / clockTicksPerSecond() : 0;

function clockTicksPerSecond(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
}

/** utime + stime of a process in ms (undefined once it is gone). */
function processMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

function commandOf(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/** pid → ms, for the processes of each part at this moment. */
type Snapshot = { at: Map<number, number>; part: Map<number, Exclude<CpuPart, 'load'>>; load: number };

function snapshot(svcPid: number | undefined): Snapshot {
  const part = new Map<number, Exclude<CpuPart, 'load'>>();
  if (svcPid !== undefined) part.set(svcPid, 'svc');
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    const command = commandOf(pid);
    // PostgreSQL's processes rename themselves ("postgres: user db host idle"); the postmaster
    // keeps its path.
    if (/^postgres(:|\0)|\/postgres\0/.test(command)) part.set(Number(pid), 'postgres');
    else if (/(^|\/)nats-server\0/.test(command)) part.set(Number(pid), 'nats');
  }
  const at = new Map<number, number>();
  for (const pid of part.keys()) {
    const ms = processMs(pid);
    if (ms !== undefined) at.set(pid, ms);
  }
  const self = process.cpuUsage();
  return { at, part, load: (self.user + self.system) / 1000 };
}

/** Measures `fn`: its result and the CPU each part spent while it ran, or no CPU without /proc. A
 * process started during the run counts from zero; one that ended during it is not counted. */
export async function withCpu<T>(
  svcPid: number | undefined,
  fn: () => Promise<T>,
): Promise<{ result: T; cpu?: CpuMs }> {
  if (!PROC) return { result: await fn() };
  const before = snapshot(svcPid);
  const result = await fn();
  const after = snapshot(svcPid);
  const cpu: CpuMs = { svc: 0, postgres: 0, nats: 0, load: after.load - before.load };
  for (const [pid, ms] of after.at) {
    const part = after.part.get(pid)!;
    cpu[part] += ms - (before.at.get(pid) ?? 0);
  }
  return { result, cpu };
}

/** CPU per unit of work: each part and their total, in ms. */
export type CpuPerUnit = CpuMs & { total: number };

/** CPU per unit (each part and the total), rounded to 0.01 ms. */
export function perUnit(cpu: CpuMs, units: number): CpuPerUnit {
  const each = (ms: number) => (units > 0 ? Math.round((ms / units) * 100) / 100 : 0);
  const total = cpu.svc + cpu.postgres + cpu.nats + cpu.load;
  return {
    svc: each(cpu.svc),
    postgres: each(cpu.postgres),
    nats: each(cpu.nats),
    load: each(cpu.load),
    total: each(total),
  };
}

/** "svc 7.46 + PostgreSQL 4.48 + NATS 0.58 + load 0.83 = 13.35 ms" */
export function describeCpu(c: CpuPerUnit, loadName: string): string {
  const parts = c.svc > 0 ? [`svc ${c.svc}`] : [];
  parts.push(`PostgreSQL ${c.postgres}`);
  if (c.nats > 0.005) parts.push(`NATS ${c.nats}`);
  parts.push(`${loadName} ${c.load}`);
  return `${parts.join(' + ')} = ${c.total} ms`;
}
