import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSvc } from '../test/helpers/cli.js';
import { loadMigrations, openPglite } from './db/index.js';

function dataDir(): string {
  return mkdtempSync(join(tmpdir(), 'svc-cli-'));
}

describe('svc CLI', () => {
  it('prints help listing every command', async () => {
    const r = await runSvc(['help']);
    expect(r.code).toBe(0);
    for (const usage of [
      'svc serve',
      'svc worker',
      'svc migrate [--status]',
      'svc user create',
      'svc keys create',
    ]) {
      expect(r.out.join('\n')).toContain(usage);
    }
  });

  it('exits 2 on an unknown command, an unknown flag and a bad variable', async () => {
    expect(await runSvc(['frobnicate'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('unknown command "frobnicate"'),
    });
    expect(await runSvc(['migrate', '--force'], { DATA_DIR: dataDir() })).toMatchObject({
      code: 2,
      err: expect.stringContaining("svc migrate: Unknown option '--force'"),
    });
    expect(await runSvc(['migrate'], { PORT: 'eighty' })).toEqual({
      code: 2,
      out: [],
      err: 'svc: invalid configuration: PORT must be an integer from 0 to 65535 (got "eighty")',
    });
  });

  it('migrates an empty embedded database, then reports it up to date', async () => {
    const DATA_DIR = dataDir();
    const files = loadMigrations().map((m) => m.file);
    expect(await runSvc(['migrate'], { DATA_DIR })).toEqual({
      code: 0,
      out: [`applied ${files.length} migration(s)`],
      err: '',
    });
    expect(await runSvc(['migrate'], { DATA_DIR })).toEqual({
      code: 0,
      out: [`database is up to date (${files.length} migrations)`],
      err: '',
    });
    expect(await runSvc(['migrate', '--status'], { DATA_DIR })).toEqual({
      code: 0,
      out: files.map((f) => `applied  ${f}`),
      err: '',
    });
  });

  it('exits 1 naming the migration when one fails', async () => {
    const DATA_DIR = dataDir();
    const db = await openPglite(join(DATA_DIR, 'pg'));
    await db.exec('CREATE TABLE job_state (conflicting int)'); // makes 0001 fail
    await db.close();
    const r = await runSvc(['migrate'], { DATA_DIR });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /^svc: migration 0001_job_state\.sql failed and was rolled back: .*job_state.*already exists/,
    );
  });

  it('svc doctor: an embedded install fails until migrated, then every check is ok or skipped', async () => {
    const DATA_DIR = dataDir();
    expect((await runSvc(['help'])).out.join('\n')).toContain('svc doctor [--timeout S]');
    const before = await runSvc(['doctor'], { DATA_DIR });
    expect(before.code).toBe(1);
    expect(before.out[1]).toBe(
      `FAIL database  no embedded database in ${join(DATA_DIR, 'pg')} yet: svc migrate (or the first svc serve) creates it`,
    );
    expect((await runSvc(['migrate'], { DATA_DIR })).code).toBe(0);
    const after = await runSvc(['doctor'], { DATA_DIR });
    expect(after.out.map((l) => l.slice(0, 15))).toEqual([
      'ok   config    ',
      'ok   database  ',
      'skip redis     ',
      'skip nats      ',
      'skip smtp      ',
      'ok   platform  ',
    ]);
    expect(after.out.slice(2, 5)).toEqual([
      'skip redis     REDIS_URL is not set (rate limits and caches are kept in each process’s memory)',
      'skip nats      NATS_URL is not set (the outbox table is the ingest queue)',
      'skip smtp      SMTP_URL is not set (mail goes to the outbox table: svc outbox)',
    ]);
    expect(after).toMatchObject({ code: 0, err: '' });
    expect(await runSvc(['doctor', '--timeout', '0'], { DATA_DIR })).toEqual({
      code: 2,
      out: [],
      err: 'svc doctor: --timeout must be a number of seconds from 0.1 to 60\nusage: svc doctor [--timeout S]',
    });
  });

  it('exits 1 when the database cannot be reached', async () => {
    const r = await runSvc(['migrate'], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^svc migrate failed: .*ECONNREFUSED/);
  });
});
