/**
 * Vitest global setup: the run's temporary files go under one directory of their own (TMPDIR, which
 * os.tmpdir() reads, inherited by the test workers and every process a test starts), removed when
 * the run ends. Tests make data directories, PGlite databases and CLI homes there; a test that
 * forgets its own left them in /tmp for good (hundreds a run).
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-run-'));
  // As /tmp itself: processes of other users reach their directories here (the private PostgreSQL
  // clusters of the fault tests run as postgres).
  chmodSync(dir, 0o1777);
  process.env.TMPDIR = dir;
  return () => {
    rmSync(dir, { recursive: true, force: true });
  };
}
