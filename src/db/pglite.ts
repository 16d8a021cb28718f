import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { CopyData, Db, Queryable, QueryResult, Statement, Tx } from './db.js';
import { OID, parseDate, parseInt8, parseNumberArray, parseNumeric } from './types.js';

const parsers = {
  [OID.INT8]: parseInt8,
  [OID.NUMERIC]: parseNumeric,
  [OID.DATE]: parseDate,
  [OID.INT8_ARRAY]: (v: string) => parseNumberArray(v, parseInt8),
  [OID.NUMERIC_ARRAY]: (v: string) => parseNumberArray(v, parseNumeric),
};

interface PgliteQueryable {
  query<R>(
    sql: string,
    params?: unknown[],
    options?: { blob?: Blob },
  ): Promise<{ rows: R[]; affectedRows?: number }>;
  exec(sql: string): Promise<unknown>;
}

const FROM_STDIN = /\bFROM\s+STDIN\s*$/i;

function wrap(q: PgliteQueryable): Queryable {
  return {
    async query<R>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<R>> {
      const res = await q.query<R>(sql, [...params]);
      return { rows: res.rows, rowCount: res.rows.length || res.affectedRows || 0 };
    },
    async exec(sql: string): Promise<void> {
      await q.exec(sql);
    },
    async copyIn(sql: string, data: CopyData): Promise<void> {
      // PGlite reads COPY's input from the virtual file /dev/blob, given with the query.
      if (!FROM_STDIN.test(sql)) throw new Error('copyIn expects COPY … FROM STDIN');
      await q.query(sql.replace(FROM_STDIN, "FROM '/dev/blob'"), [], {
        blob: new Blob(typeof data === 'string' ? [data] : [...data]),
      });
    },
  };
}

export interface PgliteOptions {
  /** A data directory (PGlite `dumpDataDir`) to start from instead of running initdb: tests clone
   * one migrated template, which is several times faster than initdb + migrations. */
  loadDataDir?: Blob;
}

/**
 * Opens an embedded Postgres. `dataDir` undefined → in memory (tests); otherwise persistent.
 * PGlite is a single connection: its transactions hold it exclusively, others wait their turn.
 */
export async function openPglite(dataDir?: string, options: PgliteOptions = {}): Promise<Db> {
  // Extensions the migrations create must be loaded into the WASM build first.
  const extensions = { pg_trgm };
  const pg = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    parsers,
    extensions,
  });
  const base = wrap(pg);
  let closed = false;
  return {
    engine: 'pglite',
    get closed() {
      return closed;
    },
    query: base.query,
    exec: base.exec,
    copyIn: base.copyIn,
    transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
      return pg.transaction((t) => {
        const q = wrap(t);
        // One connection, no concurrent transactions: nothing to gain from pipelining; the
        // statements run in turn and the transaction commits when `fn` returns.
        const tx: Tx = {
          ...q,
          async commitWith(statements: readonly Statement[]) {
            const results = [];
            for (const st of statements) results.push(await q.query(st.sql, st.params));
            return results;
          },
        };
        return fn(tx);
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      await pg.close();
    },
  };
}
