import { QueryFailedError, type EntityManager, type EntityTarget, type ObjectLiteral, type UpdateQueryBuilder } from 'typeorm';
import { connectionUsableAfter, timedExecute, type ExecutingConnection } from './query-timeout';

/**
 * Writes whose values carry JSON documents as long as a body (rules, event properties, the audit's
 * records), in the transaction of a manager. TypeORM hands MySQL/MariaDB its values through mysql2's
 * `query`, which escapes each one into the SQL text, and the server parses them back out: for JSON,
 * full of quotes, about 20 ms a MiB, more than everything else such a request does (docs/benchmarks.md).
 * Here the statement is prepared and executed (the binary protocol: values travel as they are), then
 * closed, so the many SQL texts of multi-row writes hold nothing on the server. The query timeout is
 * TypeORM's, and a timed-out connection is destroyed as query-timeout.ts does. SQLite binds its values
 * anyway: TypeORM's query runner runs the statement there.
 */

/** What a write did: the rows it changed, and the id of the (first) row it inserted, if any. */
export interface WriteResult {
  affected: number;
  insertId: number;
}

/** The parts of a mysql2 (callback API) connection a document write uses. */
interface MysqlConnection extends ExecutingConnection<{ affectedRows: number; insertId: number }> {
  unprepare(sql: string): unknown;
}

async function run(manager: EntityManager, sql: string, values: unknown[]): Promise<WriteResult> {
  const runner = manager.queryRunner;
  if (!runner) {
    throw new Error('documents are written inside a transaction');
  }
  const options = manager.connection.options as { type: string; enableQueryTimeout?: boolean; maxQueryExecutionTime?: number };
  if (options.type !== 'mysql' && options.type !== 'mariadb') {
    const result = await runner.query(sql, values, true);
    return { affected: result.affected ?? 0, insertId: Number(result.raw) };
  }
  const connection = (await runner.connect()) as MysqlConnection;
  const timeout = options.enableQueryTimeout && options.maxQueryExecutionTime ? options.maxQueryExecutionTime : undefined;
  return new Promise((resolve, reject) =>
    timedExecute(connection, { sql, values, timeout }, (error, result) => {
      if (connectionUsableAfter(error)) connection.unprepare(sql);
      if (error) reject(new QueryFailedError(sql, values, error));
      else resolve({ affected: result.affectedRows, insertId: result.insertId });
    }),
  );
}

/** On a duplicate `key` (property names), the row stays and takes the new values of `overwrite`. */
export interface OnDuplicateKey {
  key: string[];
  overwrite: string[];
}

/**
 * Inserts `rows` of `entity` (each giving the same properties: every column but a generated id),
 * their values as TypeORM writes them (its column transformers). The statement is built here from
 * TypeORM's metadata, not by its insert builder, which gathers its parameters in quadratic time: 30 ms
 * for the 11,000 of 1,000 audit entries (docs/benchmarks.md).
 */
export function insertDocuments(
  manager: EntityManager,
  entity: EntityTarget<ObjectLiteral>,
  rows: ObjectLiteral[],
  onDuplicateKey?: OnDuplicateKey,
): Promise<WriteResult> {
  const { driver } = manager.connection;
  const metadata = manager.connection.getMetadata(entity);
  const columns = metadata.columns.filter((column) => column.getEntityValue(rows[0]) !== undefined);
  const named = (properties: string[]) =>
    properties.map((property) => driver.escape(metadata.findColumnWithPropertyName(property)!.databaseName));
  const values = rows.flatMap((row) => columns.map((column) => driver.preparePersistentValue(column.getEntityValue(row), column)));
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  let sql =
    `INSERT INTO ${metadata.tablePath
      .split('.')
      .map((part) => driver.escape(part))
      .join('.')} (${columns.map((column) => driver.escape(column.databaseName)).join(', ')}) ` +
    `VALUES ${rows.map(() => tuple).join(', ')}`;
  if (onDuplicateKey) {
    const overwrite = named(onDuplicateKey.overwrite);
    sql += driver.supportedUpsertTypes.includes('on-duplicate-key-update')
      ? ` ON DUPLICATE KEY UPDATE ${overwrite.map((column) => `${column} = VALUES(${column})`).join(', ')}`
      : ` ON CONFLICT (${named(onDuplicateKey.key).join(', ')}) DO UPDATE SET ${overwrite.map((column) => `${column} = EXCLUDED.${column}`).join(', ')}`;
  }
  return run(manager, sql, values);
}

/** Runs an update built with TypeORM's query builder (a few parameters: its cost does not matter). */
export function updateDocuments(manager: EntityManager, builder: UpdateQueryBuilder<ObjectLiteral>): Promise<WriteResult> {
  const [sql, values] = builder.getQueryAndParameters();
  return run(manager, sql, values);
}
