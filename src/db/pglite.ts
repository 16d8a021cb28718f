import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Db, Queryable, QueryResult, Tx } from './db.js';
import { OID, parseDate, parseInt8, parseNumberArray, parseNumeric } from './types.js';

const parsers = {
  [OID.INT8]: parseInt8,
  [OID.NUMERIC]: parseNumeric,
  [OID.DATE]: parseDate,
  [OID.INT8_ARRAY]: (v: string) => parseNumberArray(v, parseInt8),
  [OID.NUMERIC_ARRAY]: (v: string) => parseNumberArray(v, parseNumeric),
};

interface PgliteQueryable {
  query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[]; affectedRows?: number }>;
  exec(sql: string): Promise<unknown>;
}

function wrap(q: PgliteQueryable): Queryable {
  return {
    async query<R>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<R>> {
      const res = await q.query<R>(sql, [...params]);
      return { rows: res.rows, rowCount: res.rows.length || res.affectedRows || 0 };
    },
    async exec(sql: string): Promise<void> {
      await q.exec(sql);
    },
  };
}

/**
 * Opens an embedded Postgres. `dataDir` undefined → in memory (tests); otherwise persistent.
 * PGlite is a single connection: its transactions hold it exclusively, others wait their turn.
 */
export async function openPglite(dataDir?: string): Promise<Db> {
  // Extensions the migrations create must be loaded into the WASM build first.
  const extensions = { pg_trgm };
  const pg = await PGlite.create(dataDir ? { dataDir, parsers, extensions } : { parsers, extensions });
  const base = wrap(pg);
  let closed = false;
  return {
    engine: 'pglite',
    get closed() {
      return closed;
    },
    query: base.query,
    exec: base.exec,
    transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
      return pg.transaction((tx) => fn(wrap(tx)));
    },
    async close() {
      if (closed) return;
      closed = true;
      await pg.close();
    },
  };
}
