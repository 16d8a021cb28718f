import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NODE_FLAGS } from './node-flags.js';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

describe('NODE_FLAGS', () => {
  it('are how npm start and the README systemd units start svc', () => {
    const flags = NODE_FLAGS.join(' ');
    const start = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.start;
    expect(start).toBe(`node ${flags} dist/cli.js serve`);
    const units = read('README.md').match(/ExecStart=\S+ [^`\n]*dist\/cli\.js (?:serve|worker)/g);
    expect(units).toEqual([
      `ExecStart=/usr/bin/node ${flags} dist/cli.js serve`,
      `ExecStart=/usr/bin/node ${flags} dist/cli.js worker`,
    ]);
  });
});
