/**
 * Makes every fast-check property of the run replayable: one seed per test file, FC_SEED when set,
 * else a fresh one, and a test that fails on a property prints how to replay it
 * (`FC_SEED=<seed> npx vitest run <file>`: every property of the file then draws the same values).
 */
import fc from 'fast-check';
import { beforeEach } from 'vitest';
import { seedFromEnv } from '../helpers/random.js';

const seed = seedFromEnv('FC_SEED');
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });

beforeEach(({ onTestFailed }) => {
  onTestFailed(({ task }) => {
    if (!task.result?.errors?.some((e) => /Property failed/.test(String(e?.message)))) return;
    console.error(`fast-check: replay with FC_SEED=${seed} npx vitest run ${task.file.name}`);
  });
});
