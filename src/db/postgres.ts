import pg from 'pg';
import type { Db, Queryable, QueryResult, Tx } from './db.js';
import { OID, parseDate, parseInt8, parseNumberArray, parseNumeric } from './types.js';

const custom: Record<number, (v: string) => unknown> = {
  [OID.INT8]: parseInt8,
  [OID.NUMERIC]: parseNumeric,
  [OID.DATE]: parseDate,
  [OID.INT8_ARRAY]: (v: string) => parseNumberArray(v, parseInt8),
  [OID.NUMERIC_ARRAY]: (v: string) => parseNumberArray(v, parseNumeric),
};

const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    custom[oid] ?? pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

interface PgQueryable {
  query(sql: string, params?: unknown[]): Promise<pg.QueryResult>;
}

function wrap(q: PgQueryable): Queryable {
  return {
    async query<R>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<R>> {
      const res = await q.query(sql, [...params]);
      return { rows: res.rows as R[], rowCount: res.rowCount ?? res.rows.length };
    },
    async exec(sql: string): Promise<void> {
      // The simple query protocol (no parameters) accepts several statements at once.
      await q.query(sql);
    },
  };
}

export interface PostgresOptions {
  /** Pool size; the default suits one process on a small machine. */
  max?: number;
}

/** Connects a pool to PostgreSQL and checks the connection before returning. */
export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    types,
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection (server restart) must not crash the process.
  pool.on('error', () => {});
  const client = await pool.connect();
  client.release();
  const base = wrap(pool);
  let closed = false;
  return {
    engine: 'postgres',
    get closed() {
      return closed;
    },
    query: base.query,
    exec: base.exec,
    async transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
      const conn = await pool.connect();
      try {
        await conn.query('BEGIN');
        const result = await fn(wrap(conn));
        await conn.query('COMMIT');
        conn.release();
        return result;
      } catch (err) {
        try {
          await conn.query('ROLLBACK');
          conn.release();
        } catch (rollbackErr) {
          conn.release(rollbackErr as Error); // a broken connection is discarded, not reused
        }
        throw err;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
