/**
 * Migrated template databases, made once by the global setup (test/setup/engines.ts) and copied
 * for each test database (test/helpers/db.ts). A template is named after a hash of the migration
 * files (and the PGlite version), so a changed or added migration makes a new one on the next run.
 *
 * PGlite: a tarball of a migrated data directory (`dumpDataDir`), loaded into each new in-memory
 * instance. PostgreSQL: a database `svc_tpl_<hash>` that `CREATE DATABASE … TEMPLATE` copies.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// Only what the hash needs is imported up front: the notices reporter loads this module (through
// test/setup/engines.ts) with the config, and the engines' test imports it too. The engines and
// migrations come in when a template has to be made.
import { loadMigrations } from '../../src/db/migrate.js';
import { withPgClient } from './pg-client.js';

/** The variables through which the global setup hands the templates and run id to the workers. */
export const RUN_VARIABLE = 'SVC_TEST_RUN';
export const PGLITE_TEMPLATE_VARIABLE = 'SVC_TEST_PGLITE_TEMPLATE';
export const PG_TEMPLATE_VARIABLE = 'SVC_TEST_PG_TEMPLATE';

const CACHE_DIR = fileURLToPath(new URL('../../node_modules/.cache/svc-test/', import.meta.url));
const PGLITE_VERSION = (
  JSON.parse(
    readFileSync(
      fileURLToPath(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url)),
      'utf8',
    ),
  ) as { version: string }
).version;
/** A run's databases are left this long before a later run counts them as abandoned. */
const ABANDONED_MS = 6 * 3_600_000;

/** Every PostgreSQL test database of run `run` starts with this (run = base-36 start time). */
export function testDatabasePrefix(run: string): string {
  return `svc_test_${run}_`;
}

/** A short hash of everything a migrated template depends on. */
export function templateKey(): string {
  const hash = createHash('sha256').update(`pglite ${PGLITE_VERSION}\n`);
  for (const m of loadMigrations()) hash.update(`${m.file} ${m.checksum}\n`);
  return hash.digest('hex').slice(0, 16);
}

/** The PGlite template's tarball for `key`, made if missing; returns its path. */
export async function pgliteTemplate(key: string): Promise<string> {
  const file = join(CACHE_DIR, `pglite-${key}.tar`);
  mkdirSync(CACHE_DIR, { recursive: true });
  for (const other of readdirSync(CACHE_DIR)) {
    const path = join(CACHE_DIR, other);
    if (path !== file && Date.now() - statSync(path).mtimeMs > ABANDONED_MS) await rm(path, { force: true });
  }
  try {
    statSync(file);
    return file;
  } catch {
    // not made yet
  }
  // Migrated through openPglite (as the service does) on disk, then dumped by a plain PGlite:
  // the tarball is the data directory of a cleanly shut down server.
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { migrate, openPglite } = await import('../../src/db/index.js');
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-pglite-template-'));
  try {
    const db = await openPglite(dataDir);
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    const raw = await PGlite.create({ dataDir, extensions: { pg_trgm } });
    const tar = await raw.dumpDataDir('none').finally(() => raw.close());
    // Written aside and renamed: a concurrent run never reads half a file.
    const part = `${file}.${process.pid}.part`;
    await writeFile(part, new Uint8Array(await tar.arrayBuffer()));
    await rename(part, file);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  return file;
}

const admin = withPgClient;

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Drops the named databases, several at a time (concurrent drops share their checkpoints). */
async function dropAll(url: string, names: string[]): Promise<void> {
  const queue = [...names];
  const worker = () =>
    admin(url, async (client) => {
      for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }
    });
  await Promise.all(Array.from({ length: Math.min(8, queue.length) }, worker));
}

/**
 * The PostgreSQL template for `key` on the server at `url`, made if missing; returns its name.
 * Also drops other templates and the databases of runs abandoned long ago (killed before their
 * teardown); a concurrent run's recent databases are left alone.
 */
export async function postgresTemplate(url: string, key: string): Promise<string> {
  const name = `svc_tpl_${key}`;
  const existing = await admin(url, async (client) => {
    const res = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'svc\\_tpl\\_%' OR datname LIKE 'svc\\_test\\_%'",
    );
    return res.rows.map((r) => r.datname);
  });
  const stale = existing.filter((d) => {
    if (d.startsWith('svc_tpl_')) return d !== name && !d.includes('_build_');
    const started = Number.parseInt(d.split('_')[2] ?? '', 36);
    return Number.isFinite(started) && Date.now() - started > ABANDONED_MS;
  });
  if (stale.length) await dropAll(url, stale);
  if (existing.includes(name)) return name;

  // Built under another name and renamed when complete: the template name only ever names a
  // fully migrated database, even when two runs build at once.
  const { migrate, openPostgres } = await import('../../src/db/index.js');
  const building = `${name}_build_${randomBytes(4).toString('hex')}`;
  await admin(url, (c) => c.query(`CREATE DATABASE ${building}`));
  try {
    const db = await openPostgres(withDatabase(url, building), { max: 1 });
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    await admin(url, (c) => c.query(`ALTER DATABASE ${building} RENAME TO ${name}`));
  } catch (err) {
    await dropAll(url, [building]);
    const made = await admin(url, (c) => c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]));
    if (made.rowCount === 0) throw err;
  }
  return name;
}

/** Drops every PostgreSQL database of run `run` (the global teardown). */
export async function dropRunDatabases(url: string, run: string): Promise<void> {
  const prefix = testDatabasePrefix(run);
  const names = await admin(url, async (client) => {
    const res = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
      [prefix],
    );
    return res.rows.map((r) => r.datname);
  });
  await dropAll(url, names);
}
