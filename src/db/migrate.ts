/**
 * Numbered, forward-only SQL migrations (`migrations/NNNN_name.sql`). Each runs in its own
 * transaction and is recorded in `schema_migrations` with a checksum; a changed file that was
 * already applied is refused. An advisory lock makes concurrent start-ups (several `svc serve`
 * processes on one PostgreSQL) apply each migration exactly once.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Db } from './db.js';

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
const LOCK_KEY = 820_341_717; // arbitrary, fixed: "svc migrations"
const FILE_PATTERN = /^(\d{4})_([a-z0-9_]+)\.sql$/;

export interface Migration {
  version: number;
  name: string;
  file: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MigrationError';
  }
}

export function loadMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  const migrations: Migration[] = [];
  for (const file of readdirSync(dir).sort()) {
    if (!file.endsWith('.sql')) continue;
    const match = FILE_PATTERN.exec(file);
    if (!match) throw new MigrationError(`${file}: migration files are named NNNN_snake_name.sql`);
    const sql = readFileSync(`${dir}/${file}`, 'utf8').replace(/\r\n/g, '\n');
    const version = Number(match[1]);
    const previous = migrations.at(-1);
    if (previous && previous.version === version) {
      throw new MigrationError(`${file}: version ${match[1]} is used twice (also ${previous.file})`);
    }
    migrations.push({
      version,
      name: match[2]!,
      file,
      sql,
      checksum: createHash('sha256').update(sql).digest('hex'),
    });
  }
  return migrations;
}

interface AppliedRow {
  version: number;
  name: string;
  checksum: string;
}

async function ensureTable(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  });
}

export interface MigrationStatus {
  applied: number[];
  pending: Migration[];
}

/** What is applied and what is pending; throws if an applied file was changed since. */
export async function migrationStatus(
  db: Db,
  migrations: Migration[] = loadMigrations(),
): Promise<MigrationStatus> {
  const exists = await db.query<{ found: string | null }>(
    "SELECT to_regclass('schema_migrations')::text AS found",
  );
  const rows = exists.rows[0]?.found
    ? (await db.query<AppliedRow>('SELECT version, name, checksum FROM schema_migrations ORDER BY version'))
        .rows
    : [];
  const byVersion = new Map(rows.map((r) => [r.version, r]));
  for (const m of migrations) {
    const row = byVersion.get(m.version);
    if (row && row.checksum !== m.checksum) {
      throw new MigrationError(
        `${m.file} was changed after it was applied; add a new migration instead of editing an applied one`,
      );
    }
  }
  return {
    applied: rows.map((r) => r.version),
    pending: migrations.filter((m) => !byVersion.has(m.version)),
  };
}

export interface MigrateOptions {
  migrations?: Migration[];
  onApplied?: (m: Migration, ms: number) => void;
}

/** Applies every pending migration in order; returns those this call applied. */
export async function migrate(db: Db, options: MigrateOptions = {}): Promise<Migration[]> {
  const migrations = options.migrations ?? loadMigrations();
  await ensureTable(db);
  const { pending } = await migrationStatus(db, migrations);
  const done: Migration[] = [];
  for (const m of pending) {
    const started = performance.now();
    const applied = await db
      .transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
        const already = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [m.version]);
        if (already.rowCount > 0) return false; // another process applied it while we waited
        await tx.exec(m.sql);
        await tx.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
          m.version,
          m.name,
          m.checksum,
        ]);
        return true;
      })
      .catch((err: unknown) => {
        const reason = err instanceof Error ? err.message : String(err);
        throw new MigrationError(`migration ${m.file} failed and was rolled back: ${reason}`, { cause: err });
      });
    if (applied) {
      done.push(m);
      options.onApplied?.(m, performance.now() - started);
    }
  }
  return done;
}
