import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../bench/ingest.bench.js';
import { startTarget } from '../../bench/lib.js';
import { NODE_FLAGS } from '../../src/node-flags.js';

/** The command line of a running process, from /proc (Linux). */
const commandLine = (pid: number | undefined) =>
  readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);

describe('bench servers', () => {
  it.runIf(existsSync('/proc/self/cmdline'))(
    'run with the flags production starts svc with',
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
