import { defineConfig } from 'vitest/config';
import NoticesReporter from './test/setup/notices.js';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/src/**/*.test.ts', 'sdk/**/*.test.ts'],
    pool: 'forks',
    // Vitest's default on a 2-core machine is one worker (cores - 1): the files ran one after the
    // other (1,234 s on a fresh clone at d335e10). Most of a file's time is waiting on PostgreSQL,
    // PGlite's thread or Chromium, so two workers overlap it: 744 s, every test passing.
    maxWorkers: 2,
    // Each worker keeps its modules between test files instead of importing the app anew for each
    // (imports took 391 s of worker time, 33 s without). Every test builds its own app, database
    // and clock, and no test mocks a module or leaves a global changed (vi.stubGlobal and fake
    // timers are undone after each), so sharing the module graph changes no result; the suite took 1,127 s (CI before: 1,379 s).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The run's temporary files in one directory, removed at the end (test/setup/tmpdir.ts). Unset
    // DATABASE_URL, REDIS_URL, NATS_URL: the local services when they answer (test/setup/engines.ts).
    globalSetup: ['test/setup/tmpdir.ts', 'test/setup/engines.ts'],
    // FC_SEED: every fast-check property draws from one seed, printed when a property fails.
    setupFiles: ['test/setup/fast-check.ts'],
    // Each test file gets its own database; keep the default reporter (CI reads its summary). The
    // notices add one line per kind of test this machine could not run (real data, engines).
    reporters: ['default', new NoticesReporter()],
  },
});
