import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/**
 * The query as `SELECT … FOR UPDATE` on MySQL/MariaDB, to be run inside a
 * transaction. SQLite has no row locks and needs none here: `TransactionRunner`
 * runs its transactions one at a time.
 */
export function forUpdate<T extends ObjectLiteral>(query: SelectQueryBuilder<T>): SelectQueryBuilder<T> {
  return query.connection.options.type === 'better-sqlite3' ? query : query.setLock('pessimistic_write');
}
