/**
 * Test databases: every test file gets its own, on each engine available. PGlite (in memory)
 * always; PostgreSQL too when DATABASE_URL is set (CI sets it): a fresh database per call,
 * dropped when the run ends (test/setup/engines.ts).
 *
 * A migrated database is a copy of a template that the global setup migrated once per set of
 * migration files (test/helpers/templates.ts): initdb and ~20 migrations per database were most of
 * a test file's time. Each copy still runs `migrate()`, which checks every applied checksum against
 * the files and applies any migration added since the template was made.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Db,
  type Engine,
  MigrationError,
  migrate,
  openPglite,
  openPostgres,
} from '../../src/db/index.js';
import { withPgClient } from './pg-client.js';
import {
  PG_TEMPLATE_VARIABLE,
  PGLITE_TEMPLATE_VARIABLE,
  RUN_VARIABLE,
  testDatabasePrefix,
} from './templates.js';

export interface TestDb {
  db: Db;
  /** Connection URL of the fresh PostgreSQL database (undefined on PGlite). */
  url: string | undefined;
  dispose(): Promise<void>;
}

export const POSTGRES_URL = process.env.DATABASE_URL;

/** The engines this run can test: `describe.each(testEngines())`. */
export function testEngines(): Engine[] {
  return POSTGRES_URL ? ['pglite', 'postgres'] : ['pglite'];
}

async function adminQuery(sql: string): Promise<void> {
  await withPgClient(POSTGRES_URL!, (client) => client.query(sql));
}

function databaseName(): string {
  // The run's id (set by the global setup) lets its teardown drop every database of the run.
  const run = process.env[RUN_VARIABLE] ?? Date.now().toString(36);
  return `${testDatabasePrefix(run)}${randomBytes(4).toString('hex')}`;
}

function urlOf(name: string): string {
  const url = new URL(POSTGRES_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

const dropNow = (name: string) => () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);

/** A fresh, empty PostgreSQL database; returns its URL and how to drop it. */
export async function freshPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (!POSTGRES_URL) throw new Error('DATABASE_URL is not set');
  const name = databaseName();
  await adminQuery(`CREATE DATABASE ${name}`);
  return { url: urlOf(name), drop: dropNow(name) };
}

/**
 * Opens `name` on PostgreSQL. Dropping waits for a checkpoint (0.1–3 s on a busy server), so the
 * database is only closed here; the global teardown drops the run's databases together. Without
 * the global setup (no run id) it is dropped at once.
 */
async function openPostgresTestDb(name: string): Promise<TestDb> {
  const url = urlOf(name);
  const db = await openPostgres(url, { max: 5 });
  const drop = process.env[RUN_VARIABLE] ? async () => {} : dropNow(name);
  return {
    db,
    url,
    async dispose() {
      await db.close();
      await drop();
    },
  };
}

/** An empty database on `engine` (no migrations applied). */
export async function emptyDb(engine: Engine): Promise<TestDb> {
  if (engine === 'pglite') {
    const db = await openPglite();
    return { db, url: undefined, dispose: () => db.close() };
  }
  if (!POSTGRES_URL) throw new Error('DATABASE_URL is not set');
  const name = databaseName();
  await adminQuery(`CREATE DATABASE ${name}`);
  return openPostgresTestDb(name);
}

// One read of the PGlite template per test file (process), not per database.
let pgliteTemplate: Promise<Blob> | undefined;

/** A copy of the migrated template on `engine` (on PGlite in memory, or in `dataDir` on disk), or
 * undefined when there is none to copy. */
async function templateCopy(engine: Engine, dataDir?: string): Promise<TestDb | undefined> {
  if (engine === 'pglite') {
    const file = process.env[PGLITE_TEMPLATE_VARIABLE];
    if (!file) return undefined;
    pgliteTemplate ??= readFile(file).then((bytes) => new Blob([bytes]));
    // Gone (another run with other migrations swept it): migrate from scratch.
    const tarball = await pgliteTemplate.catch(() => undefined);
    if (!tarball) return undefined;
    const db = await openPglite(dataDir, { loadDataDir: tarball });
    return { db, url: undefined, dispose: () => db.close() };
  }
  const template = process.env[PG_TEMPLATE_VARIABLE];
  if (!template || !POSTGRES_URL) return undefined;
  const name = databaseName();
  try {
    // WAL_LOG (the default) copies block by block without the checkpoint FILE_COPY waits for.
    await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${template} STRATEGY WAL_LOG`);
  } catch {
    return undefined; // the template went away (another run replaced it): migrate from scratch
  }
  return openPostgresTestDb(name);
}

/** templateCopy, migrated (a no-op unless a migration was added since the template was made), or
 * undefined when there is no template or a migration file was edited during the run: it no longer
 * matches the template's checksum, and the caller builds from the files as they are now. */
async function migratedCopy(engine: Engine, dataDir?: string): Promise<TestDb | undefined> {
  const copy = await templateCopy(engine, dataDir);
  if (!copy) return undefined;
  try {
    await migrate(copy.db);
    return copy;
  } catch (err) {
    await copy.dispose();
    if (!(err instanceof MigrationError)) throw err;
    return undefined;
  }
}

/**
 * A new DATA_DIR (under the run's temporary directory, named `prefix…`) whose embedded database is
 * already migrated, for tests of commands run on an installed svc: the template's copy on disk
 * instead of initdb and every migration on the first open (cli.test.ts, migrate.test.ts and the
 * spawned `svc serve` of main.test.ts test that first open itself). Without a usable template the
 * directory is empty and svc migrates it.
 */
export async function migratedDataDir(prefix: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const pg = join(dir, 'pg');
  const copy = await migratedCopy('pglite', pg);
  if (copy) await copy.dispose();
  else rmSync(pg, { recursive: true, force: true });
  return dir;
}

/** A database on `engine` with every real migration applied. */
export async function migratedDb(engine: Engine = 'pglite'): Promise<TestDb> {
  const copy = await migratedCopy(engine);
  if (copy) return copy;
  // migrate() reports real errors.
  const t = await emptyDb(engine);
  await migrate(t.db);
  return t;
}
