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

export interface Queryable {
  /** One parameterised statement ($1, $2, …). Never interpolate values into `sql`. */
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
  /** Several statements without parameters (migrations, DDL). */
  exec(sql: string): Promise<void>;
}

export type Tx = Queryable;

export interface Db extends Queryable {
  readonly engine: Engine;
  /** Runs `fn` in one transaction: COMMIT when it resolves, ROLLBACK when it throws. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Closes every connection; later calls fail. Safe to call twice. */
  close(): Promise<void>;
  readonly closed: boolean;
}
