import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDb, type TestDb, testEngines } from '../../test/helpers/db.js';
import { openPostgres } from './index.js';
import { loadMigrations, MigrationError, migrate, migrationStatus } from './migrate.js';

function migrationsDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-migrations-'));
  for (const [name, sql] of Object.entries(files)) writeFileSync(join(dir, name), sql);
  return dir;
}

describe('loadMigrations', () => {
  it('loads the packaged migrations in version order with checksums', () => {
    const migrations = loadMigrations();
    expect(migrations.length).toBeGreaterThan(0);
    expect(migrations[0]).toMatchObject({ version: 1, name: 'job_state', file: '0001_job_state.sql' });
    expect(migrations.map((m) => m.version)).toEqual(
      [...migrations.map((m) => m.version)].sort((a, b) => a - b),
    );
    for (const m of migrations) expect(m.checksum).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a badly named file and a duplicated version', () => {
    expect(() => loadMigrations(migrationsDir({ 'init.sql': 'SELECT 1;' }))).toThrow(
      'init.sql: migration files are named NNNN_snake_name.sql',
    );
    expect(() =>
      loadMigrations(migrationsDir({ '0001_a.sql': 'SELECT 1;', '0001_b.sql': 'SELECT 1;' })),
    ).toThrow('0001_b.sql: version 0001 is used twice (also 0001_a.sql)');
  });
});

describe.each(testEngines())('migrations on %s', (engine) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await emptyDb(engine);
  });
  afterAll(async () => {
    await t.dispose();
  });

  it('applies every packaged migration once and records it', async () => {
    const all = loadMigrations();
    const applied = await migrate(t.db);
    expect(applied.map((m) => m.file)).toEqual(all.map((m) => m.file));
    const rows = await t.db.query<{ version: number; name: string; checksum: string }>(
      'SELECT version, name, checksum FROM schema_migrations ORDER BY version',
    );
    expect(rows.rows).toEqual(all.map((m) => ({ version: m.version, name: m.name, checksum: m.checksum })));
    expect(await migrate(t.db)).toEqual([]);
    expect((await migrationStatus(t.db, all)).pending).toEqual([]);
  });

  it('rolls back a failing migration, keeps the earlier ones, and names the file', async () => {
    const dir = migrationsDir({
      '0001_ok.sql': 'CREATE TABLE good_table (id int PRIMARY KEY);',
      '0002_broken.sql': 'CREATE TABLE half_done (id int);\nINSERT INTO missing_table VALUES (1);',
    });
    const x = await emptyDb(engine);
    try {
      const migrations = loadMigrations(dir);
      const err = await migrate(x.db, { migrations }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MigrationError);
      expect((err as Error).message).toMatch(
        /^migration 0002_broken\.sql failed and was rolled back: .*missing_table/,
      );
      const tables = await x.db.query<{ good: string | null; half: string | null }>(
        "SELECT to_regclass('good_table')::text AS good, to_regclass('half_done')::text AS half",
      );
      expect(tables.rows[0]).toEqual({ good: 'good_table', half: null });
      expect((await migrationStatus(x.db, migrations)).applied).toEqual([1]);
    } finally {
      await x.dispose();
    }
  });

  it('refuses to run when an applied migration file was edited', async () => {
    const x = await emptyDb(engine);
    try {
      await migrate(x.db, {
        migrations: loadMigrations(migrationsDir({ '0001_a.sql': 'CREATE TABLE a (id int);' })),
      });
      const edited = loadMigrations(migrationsDir({ '0001_a.sql': 'CREATE TABLE a (id bigint);' }));
      await expect(migrate(x.db, { migrations: edited })).rejects.toThrow(
        '0001_a.sql was changed after it was applied; add a new migration instead of editing an applied one',
      );
    } finally {
      await x.dispose();
    }
  });

  it('parses rows the same way on both engines', async () => {
    const res = await t.db.query(
      `SELECT 9007199254740991::int8 AS big, 1.25::numeric AS num, DATE '2026-03-01' AS day,
              TIMESTAMPTZ '2026-03-01T12:00:00Z' AS at, ARRAY[1,2]::int8[] AS ids, NULL::int8 AS nothing`,
    );
    expect(res.rows[0]).toEqual({
      big: 9007199254740991,
      num: 1.25,
      day: '2026-03-01',
      at: new Date('2026-03-01T12:00:00Z'),
      ids: [1, 2],
      nothing: null,
    });
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    await t.db.exec('CREATE TABLE tx_probe (v int)');
    await t.db.transaction(async (tx) => {
      await tx.query('INSERT INTO tx_probe VALUES ($1)', [1]);
    });
    await expect(
      t.db.transaction(async (tx) => {
        await tx.query('INSERT INTO tx_probe VALUES ($1)', [2]);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect((await t.db.query('SELECT v FROM tx_probe ORDER BY v')).rows).toEqual([{ v: 1 }]);
  });
});

describe.runIf(testEngines().includes('postgres'))('concurrent start-ups on PostgreSQL', () => {
  it('apply each migration exactly once when four processes migrate at the same time', async () => {
    const x = await emptyDb('postgres');
    const pools = await Promise.all([1, 2, 3, 4].map(() => openPostgres(x.url!, { max: 2 })));
    try {
      const results = await Promise.all(pools.map((db) => migrate(db)));
      const total = results.reduce((n, r) => n + r.length, 0);
      expect(total).toBe(loadMigrations().length);
      const rows = await x.db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
      expect(rows.rows[0]!.n).toBe(loadMigrations().length);
    } finally {
      await Promise.all(pools.map((db) => db.close()));
      await x.dispose();
    }
  });
});
