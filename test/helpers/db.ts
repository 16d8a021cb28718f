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

/** The migrated PGlite template's tarball, or undefined when the run has none (or it went away). */
function pgliteTarball(): Promise<Blob | undefined> {
  const file = process.env[PGLITE_TEMPLATE_VARIABLE];
  if (!file) return Promise.resolve(undefined);
  pgliteTemplate ??= readFile(file).then((bytes) => new Blob([bytes]));
  return pgliteTemplate.catch(() => undefined);
}

/**
 * A new DATA_DIR (under the run's temporary directory, named `prefix…`) whose embedded database is
 * already migrated, for tests of commands run on an installed svc: the template's copy on disk
 * instead of initdb and every migration on the first open (cli.test.ts and migrate.test.ts test
 * that first open itself). Without a template the directory is empty and svc migrates it.
 */
export async function migratedDataDir(prefix: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const tarball = await pgliteTarball();
  if (!tarball) return dir;
  const db = await openPglite(join(dir, 'pg'), { loadDataDir: tarball });
  try {
    await migrate(db);
  } catch (err) {
    // A migration file edited during the run: svc migrates the empty directory from the files.
    if (!(err instanceof MigrationError)) throw err;
    await db.close();
    rmSync(join(dir, 'pg'), { recursive: true, force: true });
    return dir;
  }
  await db.close();
  return dir;
}

/** A copy of the migrated template on `engine`, or undefined when there is none to copy. */
async function templateCopy(engine: Engine): Promise<TestDb | undefined> {
  if (engine === 'pglite') {
    // Gone (another run with other migrations swept it): migrate from scratch.
    const tarball = await pgliteTarball();
    if (!tarball) return undefined;
    const db = await openPglite(undefined, { loadDataDir: tarball });
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

/** A database on `engine` with every real migration applied. */
export async function migratedDb(engine: Engine = 'pglite'): Promise<TestDb> {
  const copy = await templateCopy(engine);
  if (copy) {
    try {
      await migrate(copy.db);
      return copy;
    } catch (err) {
      await copy.dispose();
      // A migration file edited during the run no longer matches the template's checksum: build
      // this database from the files as they are now (migrate() below reports real errors).
      if (!(err instanceof MigrationError)) throw err;
    }
  }
  const t = await emptyDb(engine);
  await migrate(t.db);
  return t;
}
