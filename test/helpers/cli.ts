import { runCli } from '../../src/cli.js';

/** Runs `svc …` in-process with LOG_LEVEL=silent and collects what it prints. */
export async function runSvc(argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    argv,
    { LOG_LEVEL: 'silent', ...env },
    { out: (l) => out.push(l), err: (l) => err.push(l) },
  );
  return { code, out, err: err.join('\n') };
}
