import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // FC_SEED: every fast-check property draws from one seed, printed when a property fails.
    setupFiles: ['test/setup/fast-check.ts'],
    // Each test file gets its own database; keep the default reporter (CI reads its summary).
  },
});
