import { QueryFailedError, type EntityManager, type InsertQueryBuilder, type ObjectLiteral, type UpdateQueryBuilder } from 'typeorm';
import { isQueryTimeout } from './query-timeout';

/** What a write did: the rows it changed, and the id of the (first) row it inserted, if any. */
export interface WriteResult {
  affected: number;
  insertId: number;
}

type MysqlCallback<T> = (error: (Error & { code?: string }) | null, result: T) => void;

/** The parts of a mysql2 (callback API) connection a document write uses. */
interface MysqlConnection {
  execute(
    options: { sql: string; values: unknown[]; timeout?: number },
    callback: MysqlCallback<{ affectedRows: number; insertId: number }>,
  ): void;
  unprepare(sql: string): unknown;
  destroy(): void;
}

/**
 * Runs an insert or update built with TypeORM whose values carry JSON documents as long as a body
 * (rules, event properties, the audit's records), in the transaction of `manager`. TypeORM hands
 * MySQL/MariaDB its values through mysql2's `query`, which escapes each one into the SQL text, and
 * the server parses them back out: for JSON, full of quotes, about 25 ms a MiB, more than everything
 * else such a request does (docs/benchmarks.md). Here the statement is prepared and executed (the
 * binary protocol: values travel as they are), then closed, so the many SQL texts of multi-row
 * writes hold nothing on the server. The query timeout is TypeORM's, and a timed-out connection is
 * destroyed as query-timeout.ts does. SQLite binds its values anyway: TypeORM runs the statement.
 */
export async function writeDocuments(
  manager: EntityManager,
  builder: InsertQueryBuilder<ObjectLiteral> | UpdateQueryBuilder<ObjectLiteral>,
): Promise<WriteResult> {
  const runner = manager.queryRunner;
  if (!runner) {
    throw new Error('documents are written inside a transaction');
  }
  const [sql, values] = builder.getQueryAndParameters();
  const options = manager.connection.options as { type: string; enableQueryTimeout?: boolean; maxQueryExecutionTime?: number };
  if (options.type !== 'mysql' && options.type !== 'mariadb') {
    const result = await runner.query(sql, values, true);
    return { affected: result.affected ?? 0, insertId: Number(result.raw) };
  }
  const connection = (await runner.connect()) as MysqlConnection;
  const timeout = options.enableQueryTimeout && options.maxQueryExecutionTime ? options.maxQueryExecutionTime : undefined;
  return new Promise((resolve, reject) =>
    connection.execute({ sql, values, timeout }, (error, result) => {
      if (isQueryTimeout(error)) connection.destroy();
      else connection.unprepare(sql);
      if (error) reject(new QueryFailedError(sql, values, error));
      else resolve({ affected: result.affectedRows, insertId: result.insertId });
    }),
  );
}
