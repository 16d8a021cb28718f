import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startServer } from '../bench/ingest.bench.js';
import { startTarget } from '../bench/lib.js';
import { NODE_FLAGS } from './node-flags.js';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const flags = NODE_FLAGS.join(' ');

describe('NODE_FLAGS', () => {
  it('are how npm start and the README systemd units start svc', () => {
    const start = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.start;
    expect(start).toBe(`node ${flags} dist/cli.js serve`);
    const units = read('README.md').match(/ExecStart=\S+ [^`\n]*dist\/cli\.js (?:serve|worker)/g);
    expect(units).toEqual([
      `ExecStart=/usr/bin/node ${flags} dist/cli.js serve`,
      `ExecStart=/usr/bin/node ${flags} dist/cli.js worker`,
    ]);
  });

  // The command line of a running process, from /proc (Linux).
  const commandLine = (pid: number | undefined) =>
    readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);

  it.runIf(existsSync('/proc/self/cmdline'))(
    'are what the benches start their servers with',
    async () => {
      const targets = [await startTarget('bare'), await startServer('ingest-floor', process.env)];
      try {
        for (const target of targets) {
          const args = commandLine(target.pid);
          expect(args.slice(1, 1 + NODE_FLAGS.length)).toEqual([...NODE_FLAGS]);
          expect(args).toContain('bench/server.ts');
        }
      } finally {
        await Promise.all(targets.map((t) => t.stop()));
      }
    },
    60_000,
  );
});
