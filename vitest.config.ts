import { defineConfig } from 'vitest/config';
import NoticesReporter from './test/setup/notices.js';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/src/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Unset DATABASE_URL, REDIS_URL, NATS_URL: the local services when they answer (test/setup/engines.ts).
    globalSetup: ['test/setup/engines.ts'],
    // FC_SEED: every fast-check property draws from one seed, printed when a property fails.
    setupFiles: ['test/setup/fast-check.ts'],
    // Each test file gets its own database; keep the default reporter (CI reads its summary). The
    // notices add one line per kind of test this machine could not run (real data, engines).
    reporters: ['default', new NoticesReporter()],
  },
});
