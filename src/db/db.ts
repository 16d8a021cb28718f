/**
 * The one database interface every domain uses. Two engines implement it: PGlite (embedded,
 * in-process Postgres) and a `pg.Pool` against a PostgreSQL server. Both speak the same SQL
 * dialect and return rows parsed the same way (see `./types.ts`), so nothing above this file
 * knows which engine it runs on.
 */

export type Engine = 'pglite' | 'postgres';

export interface QueryResult<R> {
  rows: R[];
  /** Rows returned or affected by the statement. */
  rowCount: number;
}

/**
 * COPY input: one text, or pieces (strings, or UTF-8 bytes) written in their order. A large load
 * goes in pieces because every string or array over 128 KiB is a V8 large object, and allocating
 * one costs as much as building the whole text (fresh pages each time: about 0.6 ms for 140 KB on
 * the 2-core machine); pieces of a few dozen KB are regular heap objects.
 */
export type CopyData = string | readonly (string | Uint8Array)[];

export interface Queryable {
  /** One parameterised statement ($1, $2, …). Never interpolate values into `sql`. */
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
  /** Several statements without parameters (migrations, DDL). */
  exec(sql: string): Promise<void>;
  /**
   * `COPY <table> (<columns>) FROM STDIN` with `data` in COPY's text format: the fastest way to
   * load many rows (no per-row statement, no JSON to unpack). `sql` must be a constant.
   */
  copyIn(sql: string, data: CopyData): Promise<void>;
}

export interface Statement {
  sql: string;
  params?: readonly unknown[];
}

export interface Tx extends Queryable {
  /**
   * Sends `statements` and COMMIT at once, without waiting for each answer in between, and ends
   * the transaction: COMMIT when every statement succeeded, else the first error is thrown and
   * nothing is committed. For statements that lock rows other transactions wait on (a counter
   * every request charges): the locks are then held for the server's work and the commit only,
   * not for round trips through a busy event loop. Nothing may be run on `tx` afterwards.
   */
  commitWith(statements: readonly Statement[]): Promise<QueryResult<Record<string, unknown>>[]>;
}

export interface Db extends Queryable {
  readonly engine: Engine;
  /** Runs `fn` in one transaction: COMMIT when it resolves, ROLLBACK when it throws. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Closes every connection; later calls fail. Safe to call twice. */
  close(): Promise<void>;
  readonly closed: boolean;
}
