import type { DataSourceOptions } from 'typeorm';
import { ORCHESTRATION_ENTITIES, ORCHESTRATION_MIGRATIONS } from './orchestration-schema';

export const DEFAULT_SQLITE_FILE = './data/cta.sqlite';

/**
 * TypeORM options for `DB_URL` (DESIGN §13): unset → the embedded SQLite file,
 * `sqlite:<file>` / `sqlite::memory:` → SQLite, `mysql://…` → MySQL / MariaDB.
 * Never `synchronize`: the schema comes from the migrations only.
 */
export function dataSourceOptions(dbUrl: string | undefined, migrationsRun = true): DataSourceOptions {
  const common = {
    entities: ORCHESTRATION_ENTITIES,
    migrations: ORCHESTRATION_MIGRATIONS,
    migrationsRun,
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
    charset: 'utf8mb4',
    timezone: 'Z',
    supportBigNumbers: true,
    // Safe-range bigints (ids, epoch ms) arrive as JS numbers; larger ones would stay strings.
    bigNumberStrings: false,
    connectTimeout: 5000,
    extra: { connectionLimit: 20, enableKeepAlive: true },
  };
}
