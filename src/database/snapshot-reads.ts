import { LRUCache } from 'lru-cache';
import type { DataSource } from 'typeorm';
import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import { causalReadPrefix } from './causal-reads';

/** A statement and its values. */
export interface SqlStatement {
  sql: string;
  values: unknown[];
}

/** Rows as objects, column by column (numbers may come as strings: SUMs and bigints on MySQL). */
export type Rows = Record<string, unknown>[];

/** Runs SELECTs as of one moment: each statement's rows, in order. */
export type SnapshotReads = (statements: readonly SqlStatement[]) => Promise<Rows[]>;

/** How long a SQLite write or snapshot waits for a transaction of another request on the shared connection. */
const SQLITE_TRANSACTION_WAIT_MS = 5000;
const SQLITE_STATEMENTS = 64;

/** The parts of a better-sqlite3 `Database` used here. */
export interface SqliteConnection {
  readonly inTransaction: boolean;
  prepare(sql: string): { all(...values: unknown[]): unknown[] };
}

/**
 * Runs `work` once no transaction is open on SQLite's one shared connection, in the same tick as the
 * check: better-sqlite3 is synchronous and TypeORM shares its connection, so a statement issued while
 * another request's transaction is open would join it (see, or roll back with, its uncommitted work),
 * and a synchronous `work` runs alone. Too long a wait → 503.
 */
export async function whenSqliteIdle<T>(database: Pick<SqliteConnection, 'inTransaction'>, work: () => T): Promise<T> {
  const startedAt = Date.now();
  while (database.inTransaction) {
    if (Date.now() - startedAt > SQLITE_TRANSACTION_WAIT_MS) {
      throw new DomainError(ErrorCode.SERVICE_UNAVAILABLE, 'the database is busy, retry later', { 'retry-after': '1' });
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return work();
}

/**
 * Reads that see one state of the database: on SQLite all statements in one tick once no
 * transaction is open (nothing else runs in between, and no reader blocks writers as a transaction
 * would); on MySQL/MariaDB one transaction (one consistent snapshot), its first SELECT waiting for
 * the writes other Galera nodes acknowledged (causal-reads.ts).
 */
export function createSnapshotReads(dataSource: DataSource): SnapshotReads {
  if (dataSource.options.type === 'better-sqlite3') {
    const statements = new LRUCache<string, ReturnType<SqliteConnection['prepare']>>({ max: SQLITE_STATEMENTS });
    const database = () => (dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection;
    return (reads) =>
      whenSqliteIdle(database(), () =>
        reads.map(({ sql, values }) => {
          let statement = statements.get(sql);
          if (!statement) statements.set(sql, (statement = database().prepare(sql)));
          return statement.all(...values) as Rows;
        }),
      );
  }
  return async (reads) => {
    const causal = await causalReadPrefix(dataSource);
    return dataSource.transaction(async (manager) => {
      const results: Rows[] = [];
      for (const [index, { sql, values }] of reads.entries()) {
        results.push(await manager.query(index === 0 ? causal + sql : sql, values));
      }
      return results;
    });
  };
}
