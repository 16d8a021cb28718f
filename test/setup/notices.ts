/**
 * A reporter that adds, after the summary, one plain line for each kind of test the run could not
 * do here: tests that read real data found neither in test/fixtures/realdata nor in
 * ../shared/realdata (marked by needsRealdata), and engines (PostgreSQL, Redis, NATS) that
 * test/setup/engines.ts could not use. Nothing is printed when every test could run.
 */
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import '../helpers/realdata.js'; // its TaskMeta fields
import { type EngineMissing, NOTICE_VARIABLE } from './engines.js';

export default class NoticesReporter implements Reporter {
  private filtered = false;

  onInit(vitest: Vitest): void {
    // With -t, tests left out by name count as skipped too: the counts would not mean anything.
    this.filtered = vitest.config.testNamePattern !== undefined;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    try {
      this.print(testModules);
    } catch (err) {
      // A reporter that throws would hide the run's own summary of failures: say so and go on.
      process.stdout.write(`\nnotices: could not count the skipped tests (${(err as Error)?.message})\n`);
    }
  }

  private print(testModules: ReadonlyArray<TestModule>): void {
    const lines: string[] = [];
    let realdataSkipped = 0;
    let otherSkipped = 0;
    const missingFiles = new Set<string>();
    for (const module of testModules) {
      for (const test of module.children.allTests('skipped')) {
        // What was missing when the test was collected (the files may have appeared since).
        const meta = test.meta() ?? {};
        const missing = meta.realdataMissing ?? [];
        if (missing.length) {
          realdataSkipped += 1;
          for (const f of missing) missingFiles.add(f.slice(f.lastIndexOf('/') + 1));
        } else if (!meta.realdata) {
          otherSkipped += 1;
        }
      }
    }
    if (missingFiles.size) {
      lines.push(
        `realdata: ../shared/realdata not found; skipped ${realdataSkipped} ${plural(realdataSkipped)} that ` +
          `read fixtures with no licence to copy them into the repository (${[...missingFiles].join(', ')})`,
      );
    }
    const engines = JSON.parse(process.env[NOTICE_VARIABLE] ?? '[]') as EngineMissing[];
    if (engines.length) {
      const need = `that need ${engines.map((e) => e.variable).join(', ')}`;
      const skipped = this.filtered
        ? `tests ${need} were skipped`
        : `skipped ${otherSkipped} ${plural(otherSkipped)} ${otherSkipped === 1 ? need.replace('need', 'needs') : need}`;
      const pglite = engines.some((e) => e.variable === 'DATABASE_URL')
        ? ' (database tests ran on PGlite only)'
        : '';
      lines.push(`engines: ${engines.map((e) => `${e.name} ${e.why}`).join('; ')}; ${skipped}${pglite}`);
    }
    if (lines.length) process.stdout.write(`\n${lines.join('\n')}\n`);
  }
}

const plural = (n: number) => (n === 1 ? 'test' : 'tests');
