/**
 * Test databases: every test file gets its own, on each engine available. PGlite (in memory)
 * always; PostgreSQL too when DATABASE_URL is set (CI sets it): a fresh database per call,
 * dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Db, type Engine, migrate, openPglite, openPostgres } from '../../src/db/index.js';

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
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A fresh, empty PostgreSQL database; returns its URL and how to drop it. */
export async function freshPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (!POSTGRES_URL) throw new Error('DATABASE_URL is not set');
  const name = `svc_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** An empty database on `engine` (no migrations applied). */
export async function emptyDb(engine: Engine): Promise<TestDb> {
  if (engine === 'pglite') {
    const db = await openPglite();
    return { db, url: undefined, dispose: () => db.close() };
  }
  const fresh = await freshPostgresDatabase();
  const db = await openPostgres(fresh.url, { max: 5 });
  return {
    db,
    url: fresh.url,
    async dispose() {
      await db.close();
      await fresh.drop();
    },
  };
}

/** A database on `engine` with every real migration applied. */
export async function migratedDb(engine: Engine = 'pglite'): Promise<TestDb> {
  const t = await emptyDb(engine);
  await migrate(t.db);
  return t;
}
