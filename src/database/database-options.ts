import type { DataSourceOptions, Logger } from 'typeorm';
import { QUERY_TIMEOUT_MS, TimedOutConnectionSubscriber } from './query-timeout';

export const DEFAULT_SQLITE_FILE = './data/cta.sqlite';

/**
 * What the module needs of a MySQL/MariaDB connection, the standalone app's or a host's:
 * utf8mb4, UTC, and safe-range bigints (ids, epoch ms) as JS numbers (TypeORM's default
 * hands them over as strings; larger ones would stay strings).
 */
export const ORCHESTRATION_MYSQL_OPTIONS = {
  charset: 'utf8mb4',
  timezone: 'Z',
  supportBigNumbers: true,
  bigNumberStrings: false,
} as const;

/**
 * Logs nothing, like `logging: false`, including the "query is slow" lines TypeORM writes
 * past `maxQueryExecutionTime` whatever `logging` says: here that is the query timeout, so
 * such a query has failed, and the outage log reports it once per cause (docs/decisions/0022-database-outages.md),
 * instead of two console lines per stalled query.
 */
class SilentQueryLogger implements Logger {
  logQuery(): void {}
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}

/**
 * TypeORM connection options for `DB_URL` (docs/decisions/0013-persistence-and-migrations.md), without the schema: unset → the
 * embedded SQLite file, `sqlite:<file>` / `sqlite::memory:` → SQLite, `mysql://…` → MySQL /
 * MariaDB. Never `synchronize`: the schema comes from the migrations only.
 */
export function connectionOptions(dbUrl: string | undefined): DataSourceOptions {
  const common = {
    synchronize: false,
    logging: false,
  } as const;
  if (dbUrl === undefined || dbUrl.startsWith('sqlite:')) {
    const database = dbUrl === undefined ? DEFAULT_SQLITE_FILE : dbUrl.slice('sqlite:'.length);
    return {
      ...common,
      type: 'better-sqlite3',
      database,
      enableWAL: database !== ':memory:',
      // One writer at a time; wait for the lock instead of failing under concurrent writes.
      prepareDatabase: (db: { pragma(sql: string): unknown }) => {
        db.pragma('busy_timeout = 5000');
      },
    };
  }
  return {
    ...common,
    type: 'mysql',
    url: dbUrl.replace(/^mariadb:/, 'mysql:'),
    ...ORCHESTRATION_MYSQL_OPTIONS,
    // While the database is unreachable no request may wait for it unbounded (answer 503, never hang:
    // docs/decisions/0022-database-outages.md): a new connection gives up after 5 s, a query on an open one after
    // QUERY_TIMEOUT_MS, and the subscriber then destroys that connection.
    connectTimeout: 5000,
    enableQueryTimeout: true,
    maxQueryExecutionTime: QUERY_TIMEOUT_MS,
    logger: new SilentQueryLogger(),
    subscribers: [TimedOutConnectionSubscriber],
    extra: { connectionLimit: 20, enableKeepAlive: true },
  };
}
