/**
 * Real data for tests: the copies in test/fixtures/realdata (files whose licence allows it, see
 * SOURCES.md there) first, then ../shared/realdata beside the repository (CI has it, a fresh clone
 * does not). A test that needs a file found in neither place is skipped with `needsRealdata`, which
 * marks it so that the run prints one line about such skips (test/setup/notices.ts).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TestOptions } from 'vitest';

declare module 'vitest' {
  interface TaskMeta {
    /** The real-data files (relative to a realdata folder) the test reads. */
    realdata?: string[];
    /** Those of them that were in neither place when the test was collected (it is skipped). */
    realdataMissing?: string[];
  }
}

/** The copies in the repository. */
export const BUNDLED_REALDATA = new URL('../fixtures/realdata/', import.meta.url);
/** The shared folder beside the repository, resolved from this file (test/helpers/). */
export const SHARED_REALDATA = new URL('../../../shared/realdata/', import.meta.url);

/** Where `file` (e.g. 'roblox-api/x.json') is: the repository's copy, else the shared one, else undefined. */
export function findRealdata(file: string): URL | undefined {
  for (const dir of [BUNDLED_REALDATA, SHARED_REALDATA]) {
    const url = new URL(file, dir);
    if (existsSync(fileURLToPath(url))) return url;
  }
  return undefined;
}

/** The URL of `file`; throws naming both places when it is in neither. */
export function realdataFile(file: string): URL {
  const url = findRealdata(file);
  if (!url) {
    throw new Error(
      `real-data file ${file} is neither in ${fileURLToPath(BUNDLED_REALDATA)} nor in ${fileURLToPath(SHARED_REALDATA)}`,
    );
  }
  return url;
}

/** Whether every file is available. */
export function hasRealdata(...files: string[]): boolean {
  return files.every((f) => findRealdata(f) !== undefined);
}

/**
 * Options for `it`/`describe` of a test that reads `files`: skipped when one is missing, and marked
 * so that the run counts it in its one-line notice. `it('…', needsRealdata(a, b), () => …)`.
 */
export function needsRealdata(...files: string[]): TestOptions {
  const missing = files.filter((f) => findRealdata(f) === undefined);
  return { skip: missing.length > 0, meta: { realdata: files, realdataMissing: missing } };
}

/** The one real Creator Hub export (Engagement → Daily Active Users, MIT, copied here). */
export const CREATOR_HUB_EXPORT =
  'creator-hub-csv/engagement_daily-active-users_export__rasorite-example.csv';
