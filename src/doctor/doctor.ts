/**
 * The doctor's runner: every check runs at once, each under its own time limit, and their
 * findings are printed in a fixed order, one line each (`ok`, `warn`, `FAIL` or `skip`, the
 * check's name, what it found). A check that does not finish in time is a FAIL naming the step it
 * was on: a hanging engine makes a line, never a hang. Whatever a check opened is released when
 * it ends or times out (at once when it is opened after the time limit).
 */
import type { Config } from '../config.js';
import type { Migration } from '../db/index.js';
import type { PlatformSource } from '../platform/index.js';
import { configSecrets, redact } from './mask.js';

export type Status = 'ok' | 'warn' | 'FAIL' | 'skip';

export interface Finding {
  status: Status;
  detail: string;
}

/** How the Roblox check builds its source: one attempt per request, answered within `timeoutMs`. */
export interface RobloxCheckOptions {
  timeoutMs: number;
  maxAttempts: number;
  log: { warn(obj: Record<string, unknown>, msg: string): void };
}

export interface DoctorDeps {
  config: Config;
  /** Time limit of each check. */
  timeoutMs: number;
  now: () => Date;
  /** The migrations this build knows (default: the files in src/db/migrations). */
  migrations?: Migration[];
  /** The Roblox source to ask (default: the real hosts); tests point it at a local replay server. */
  robloxSource?: (options: RobloxCheckOptions) => PlatformSource;
}

export interface CheckContext extends DoctorDeps {
  /** This check's time limit. */
  readonly limitMs: number;
  /** Registers how to release something this check opened (a connection, a pool, a client). */
  defer(release: () => unknown): void;
  /** Names what the check is doing now; a timeout says it. */
  step(what: string): void;
  /** What the check talks to (a masked URL): an error or a timeout line starts with it. */
  about(subject: string): void;
}

export interface Check {
  name: string;
  run(ctx: CheckContext): Promise<Finding | Finding[]>;
  /** A limit other than deps.timeoutMs (the embedded database is opened in-process). */
  limitMs?(deps: DoctorDeps): number;
}

/** How long releasing may take before the runner moves on (closing a dead socket can stall). */
const RELEASE_MS = 1_000;

export function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** An error as one readable phrase: Node's connection errors can have an empty message. */
export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: unknown }).code;
  let message = err.message.trim();
  if (message === '' && err instanceof AggregateError) {
    message = err.errors.map((e: unknown) => (e instanceof Error ? e.message : String(e))).join('; ');
  }
  if (message === '') return typeof code === 'string' ? code : err.name;
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}

function settle(release: () => unknown): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, RELEASE_MS);
    timer.unref();
    Promise.resolve()
      .then(release)
      .catch(() => {})
      .finally(() => {
        clearTimeout(timer);
        resolve();
      });
  });
}

async function runCheck(check: Check, deps: DoctorDeps): Promise<Finding[]> {
  const limitMs = check.limitMs?.(deps) ?? deps.timeoutMs;
  const releases: (() => unknown)[] = [];
  let ended = false;
  let current: string | undefined;
  let subject = '';
  const ctx: CheckContext = {
    ...deps,
    limitMs,
    defer(release) {
      if (ended) void settle(release);
      else releases.push(release);
    },
    step(what) {
      current = what;
    },
    about(what) {
      subject = `${what}: `;
    },
  };
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<Finding[]>((resolve) => {
    timer = setTimeout(() => {
      const where = current ? ` (${current})` : '';
      resolve([{ status: 'FAIL', detail: `${subject}no answer within ${seconds(limitMs)}${where}` }]);
    }, limitMs);
  });
  const ran = Promise.resolve()
    .then(() => check.run(ctx))
    .then(
      (found) => (Array.isArray(found) ? found : [found]),
      (err: unknown): Finding[] => [{ status: 'FAIL', detail: `${subject}${describeError(err)}` }],
    );
  try {
    return await Promise.race([ran, timedOut]);
  } finally {
    clearTimeout(timer);
    ended = true;
    await Promise.all(releases.map(settle));
  }
}

/** One printed line: `ok   database  …`. */
export function formatLine(name: string, finding: Finding): string {
  return `${finding.status.padEnd(4)} ${name.padEnd(8)}  ${finding.detail}`;
}

/**
 * Runs `checks` at once and prints their lines in order as soon as each is known, every line
 * with the configuration's secrets masked. Returns how many FAIL lines were printed.
 */
export async function runDoctor(
  checks: readonly Check[],
  deps: DoctorDeps,
  out: (line: string) => void,
): Promise<number> {
  const secrets = configSecrets(deps.config);
  const running = checks.map((check) => runCheck(check, deps));
  let failed = 0;
  for (const [i, check] of checks.entries()) {
    for (const finding of await running[i]!) {
      if (finding.status === 'FAIL') failed += 1;
      out(redact(formatLine(check.name, finding), secrets));
    }
  }
  return failed;
}
