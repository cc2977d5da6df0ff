import type { MysqlConnection, MysqlPool } from './driver-reads';
import { isQueryTimeout, QUERY_TIMEOUT_MS } from './query-timeout';

/** A statement and its values, for a caller to run in a transaction of its own. */
export interface SqlStatement {
  sql: string;
  values: unknown[];
}

/** A statement on the transaction's connection, prepared once per connection (mysql2's `execute`). */
export type TransactionStatement = (sql: string, values: unknown[]) => Promise<unknown>;

const borrow = (pool: MysqlPool): Promise<MysqlConnection> =>
  new Promise((resolve, reject) => pool.getConnection((error, connection) => (error ? reject(error) : resolve(connection))));

function settle<T>(start: (callback: (error: Error | null, result: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => start((error, result) => (error ? reject(error) : resolve(result))));
}

/**
 * `work` in one transaction on one pooled connection, straight on the driver (a hot path: no
 * TypeORM query runner): committed when `work` answers true, rolled back when it answers false or
 * fails. Each statement has the TypeORM connections' query timeout, and a connection whose
 * statement timed out is destroyed (the server then rolls the transaction back), as there
 * (query-timeout.ts). Errors reach the caller, a Galera certification conflict at COMMIT among them.
 */
export async function transactionOnPool(pool: MysqlPool, work: (execute: TransactionStatement) => Promise<boolean>): Promise<boolean> {
  const connection = await borrow(pool);
  const command = (sql: string) => settle((done) => connection.query({ sql, timeout: QUERY_TIMEOUT_MS }, done));
  try {
    await command('START TRANSACTION');
    const commit = await work((sql, values) => settle((done) => connection.execute({ sql, values, timeout: QUERY_TIMEOUT_MS }, done)));
    await command(commit ? 'COMMIT' : 'ROLLBACK');
    connection.release();
    return commit;
  } catch (error) {
    if (isQueryTimeout(error)) {
      connection.destroy();
    } else {
      await command('ROLLBACK').then(
        () => connection.release(),
        () => connection.destroy(),
      );
    }
    throw error;
  }
}
