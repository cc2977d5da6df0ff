import type { DataSource } from 'typeorm';
import { LRUCache } from 'lru-cache';
import { connectionUsableAfter, QUERY_TIMEOUT_MS, timedExecute } from './query-timeout';

/**
 * Reads on the launch's hot path straight on the driver, rows as arrays of column values: no
 * TypeORM query runner per read, a statement prepared once per SQL text (per connection on
 * MySQL), no object per row. Callers keep their SQL texts few (see `paddedToPowerOfTwo`).
 */
export type DriverReads = (sql: string, values: unknown[]) => Promise<unknown[][]>;

/** SQLite statements kept prepared (by SQL text). */
const SQLITE_STATEMENTS = 256;

interface SqliteDatabase {
  prepare(sql: string): { raw(toggle: boolean): { all(...values: unknown[]): unknown[][] } };
}

type MysqlCallback<T> = (error: (Error & { code?: string }) | null, result: T) => void;

/** The parts of a mysql2 (callback API) pool and its connections used on the hot paths. */
export interface MysqlPool {
  getConnection(
    callback: MysqlCallback<{
      execute(options: { sql: string; values: unknown[]; timeout: number; rowsAsArray?: boolean }, callback: MysqlCallback<unknown>): void;
      release(): void;
      destroy(): void;
    }>,
  ): void;
}

/**
 * mysql2's `execute` (a statement prepared once per pooled connection) with the query timeout of
 * the TypeORM connections and the same destroy on timeout (see query-timeout.ts).
 */
export function executeOnPool(pool: MysqlPool, sql: string, values: unknown[], rowsAsArray = false): Promise<unknown> {
  return new Promise((resolve, reject) =>
    pool.getConnection((connectError, connection) => {
      if (connectError) {
        reject(connectError);
        return;
      }
      timedExecute(connection, { sql, values, timeout: QUERY_TIMEOUT_MS, rowsAsArray }, (error, result) => {
        if (connectionUsableAfter(error)) connection.release();
        if (error) reject(error);
        else resolve(result);
      });
    }),
  );
}

export function createDriverReads(dataSource: DataSource): DriverReads {
  const driver = dataSource.driver as unknown as { databaseConnection?: SqliteDatabase; pool?: MysqlPool };
  switch (dataSource.options.type) {
    case 'better-sqlite3': {
      // better-sqlite3 is synchronous and TypeORM shares its one connection: a read here sees what
      // TypeORM's own reads would.
      const statements = new LRUCache<string, ReturnType<ReturnType<SqliteDatabase['prepare']>['raw']>>({ max: SQLITE_STATEMENTS });
      return (sql, values) => {
        let statement = statements.get(sql);
        if (!statement) statements.set(sql, (statement = (driver.databaseConnection as SqliteDatabase).prepare(sql).raw(true)));
        return Promise.resolve(statement.all(...values));
      };
    }
    case 'mysql':
    case 'mariadb':
      // The pool read on each call, not captured: the driver (re)creates it when the DataSource connects.
      return (sql, values) => executeOnPool(driver.pool as MysqlPool, sql, values, true) as Promise<unknown[][]>;
    default:
      throw new Error(`driver reads do not support the database type ${dataSource.options.type}`);
  }
}

/**
 * `values` padded to the next power of two by repeating the last one: an `IN (…)` list that
 * means the same, in at most a dozen lengths, so a query's prepared statements stay few (MySQL
 * holds each one per pooled connection, and the server caps them all).
 */
export function paddedToPowerOfTwo<T>(values: readonly T[]): T[] {
  let length = 1;
  while (length < values.length) length *= 2;
  const padded = [...values];
  while (padded.length < length) padded.push(values[values.length - 1]);
  return padded;
}
