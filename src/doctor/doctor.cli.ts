/**
 * `svc doctor`: checks the configuration and every engine it names (database, Redis, NATS, SMTP,
 * platform source) and prints one line each; exit 0 when nothing failed, 1 when a check failed
 * (a bad variable exits 2 before any check, as every command does).
 */
import { parseArgs } from 'node:util';
import { CliUsageError } from '../errors.js';
import { configCheck } from './check-config.js';
import { databaseCheck } from './check-database.js';
import { natsCheck } from './check-nats.js';
import { platformCheck } from './check-platform.js';
import { redisCheck } from './check-redis.js';
import { smtpCheck } from './check-smtp.js';
import { type Check, type DoctorDeps, runDoctor } from './doctor.js';

export const DOCTOR_USAGE = 'svc doctor [--timeout S]';
export const DEFAULT_TIMEOUT_MS = 3_000;

/** In the order they are printed. */
export const CHECKS: readonly Check[] = [
  configCheck,
  databaseCheck,
  redisCheck,
  natsCheck,
  smtpCheck,
  platformCheck,
];

/** The time limit `--timeout S` asks for (seconds, 0.1 to 60), checked before anything is opened. */
export function parseDoctorArgs(args: string[]): { timeoutMs: number } {
  const { values } = parseArgs({ args, options: { timeout: { type: 'string' } }, strict: true });
  if (values.timeout === undefined) return { timeoutMs: DEFAULT_TIMEOUT_MS };
  const s = Number(values.timeout);
  if (!/^\d+(\.\d+)?$/.test(values.timeout) || s < 0.1 || s > 60) {
    throw new CliUsageError('--timeout must be a number of seconds from 0.1 to 60');
  }
  return { timeoutMs: Math.round(s * 1000) };
}

export async function doctorCommand(
  args: string[],
  deps: Omit<DoctorDeps, 'timeoutMs'> & { out: (line: string) => void },
): Promise<number> {
  const { timeoutMs } = parseDoctorArgs(args);
  const { out, ...rest } = deps;
  const failed = await runDoctor(CHECKS, { ...rest, timeoutMs }, out);
  return failed > 0 ? 1 : 0;
}
