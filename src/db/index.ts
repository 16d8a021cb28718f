/**
 * Storage: connecting to PGlite or PostgreSQL behind one `Db` interface, and the numbered SQL
 * migrations both engines run. Owns no domain tables' logic: each domain's `*.repo.ts` holds
 * its own SQL and uses `Db`/`Tx` from here.
 */
export { connectDb } from './connect.js';
export type { CopyData, Db, Engine, Queryable, QueryResult, Statement, Tx } from './db.js';
export {
  loadMigrations,
  MIGRATIONS_DIR,
  type Migration,
  MigrationError,
  migrate,
  migrationStatus,
} from './migrate.js';
export { openPglite } from './pglite.js';
export { openPostgres } from './postgres.js';
