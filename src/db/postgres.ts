import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { joinBytes } from '../bytes.js';
import type { CopyData, Db, Queryable, QueryResult, Statement, Tx } from './db.js';
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

/**
 * A pooled connection for several statements. While it is checked out the pool no longer listens
 * for its errors: a server restart then emits an 'error' nobody hears, which would crash the
 * process. This listens until `done()` and keeps the first such error (`lost()`).
 */
async function checkout(
  pool: pg.Pool,
): Promise<{ conn: pg.PoolClient; lost: () => Error | undefined; done: () => void }> {
  const conn = await pool.connect();
  let error: Error | undefined;
  const onError = (err: Error) => {
    error ??= err;
  };
  conn.on('error', onError);
  return { conn, lost: () => error, done: () => conn.off('error', onError) };
}

/** `data` as one run of bytes (a single piece of bytes as it is). */
function copyBytes(data: CopyData): Uint8Array {
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  if (data.length === 1 && typeof data[0] !== 'string') return data[0]!;
  return joinBytes(data);
}

/** COPY … FROM STDIN on one connection: the data as one CopyData message (one write; a message per
 * piece would be a socket write, and a wake-up of the server, each). */
async function copyOn(client: pg.PoolClient, sql: string, data: CopyData): Promise<void> {
  await pipeline(Readable.from([copyBytes(data)]), client.query(copyFrom(sql)));
}

function wrap(q: PgQueryable, copyIn: (sql: string, data: CopyData) => Promise<void>): Queryable {
  return {
    copyIn,
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
  const base = wrap(pool, async (sql, data) => {
    const { conn, lost, done } = await checkout(pool);
    try {
      await copyOn(conn, sql, data);
      done();
      conn.release();
    } catch (err) {
      done();
      conn.release(err as Error); // the connection may be mid-COPY: discard it
      throw lost() ?? err;
    }
  });
  let closed = false;
  return {
    engine: 'postgres',
    get closed() {
      return closed;
    },
    query: base.query,
    exec: base.exec,
    copyIn: base.copyIn,
    async transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
      const { conn, lost, done } = await checkout(pool);
      let ended = false;
      // BEGIN is sent with the transaction's first statement, in one write (see piped).
      let begun = false;
      const piped = async (
        statements: readonly { sql: string; params?: readonly unknown[] }[],
      ): Promise<PromiseSettledResult<pg.QueryResult>[]> => {
        // node-pg's pipeline mode (a documented client option, switched on for these statements
        // only: COPY and multi-statement text cannot run in it) writes them all at once, without
        // waiting for each answer. After a failed statement the transaction is aborted (and the
        // server turns a COMMIT into a rollback).
        const client = conn as pg.PoolClient & { pipeline: boolean };
        const all = begun ? statements : [{ sql: 'BEGIN' }, ...statements];
        begun = true;
        client.pipeline = true;
        try {
          const settled = await Promise.allSettled(
            all.map((st) => conn.query(st.sql, [...(st.params ?? [])])),
          );
          return all === statements ? settled : settled.slice(1);
        } finally {
          client.pipeline = false;
        }
      };
      const begin = async () => {
        if (begun) return;
        begun = true;
        await conn.query('BEGIN');
      };
      try {
        const tx: Tx = {
          async query<R>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<R>> {
            if (begun) {
              const res = await conn.query(sql, [...params]);
              return { rows: res.rows as R[], rowCount: res.rowCount ?? res.rows.length };
            }
            const [r] = await piped([{ sql, params }]);
            if (r!.status === 'rejected') throw r!.reason;
            return { rows: r!.value.rows as R[], rowCount: r!.value.rowCount ?? r!.value.rows.length };
          },
          async exec(sql: string): Promise<void> {
            await begin();
            // The simple query protocol (no parameters) accepts several statements at once.
            await conn.query(sql);
          },
          async copyIn(sql: string, data: CopyData): Promise<void> {
            await begin();
            await copyOn(conn, sql, data);
          },
          async commitWith(statements: readonly Statement[]) {
            ended = true;
            const settled = await piped([...statements, { sql: 'COMMIT' }]);
            const failed = settled.find((r) => r.status === 'rejected');
            if (failed) throw failed.reason;
            const done = (settled.at(-1) as PromiseFulfilledResult<pg.QueryResult>).value;
            if (done.command !== 'COMMIT') throw new Error(`the transaction ended with ${done.command}`);
            return settled.slice(0, -1).map((r) => {
              const res = (r as PromiseFulfilledResult<pg.QueryResult>).value;
              return { rows: res.rows, rowCount: res.rowCount ?? res.rows.length };
            });
          },
        };
        const result = await fn(tx);
        // A transaction that ran nothing has nothing to commit.
        if (!ended && begun) await conn.query('COMMIT');
        done();
        conn.release();
        return result;
      } catch (err) {
        try {
          if (lost()) throw lost();
          if (begun) await conn.query('ROLLBACK');
          done();
          conn.release();
        } catch (rollbackErr) {
          done();
          conn.release(rollbackErr as Error); // a broken connection is discarded, not reused
        }
        // The connection's own error (57P01, ECONNRESET: 503) rather than pg's later "not
        // queryable", which names no cause.
        throw lost() ?? err;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
