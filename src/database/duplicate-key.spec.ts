import { QueryFailedError } from 'typeorm';
import { isDuplicateKeyError } from './duplicate-key';

interface SqliteDatabase {
  exec(sql: string): void;
  close(): void;
}
// better-sqlite3 ships no type declarations.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Database = require('better-sqlite3') as new (file: string) => SqliteDatabase;

const driverError = (code: string) => Object.assign(new Error(code), { code });

/** The error better-sqlite3 really throws for a primary key and a unique index. */
function sqliteError(sql: string): unknown {
  const db = new Database(':memory:');
  db.exec("CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT UNIQUE); INSERT INTO t VALUES (1, 'x');");
  try {
    db.exec(sql);
  } catch (error) {
    return error;
  } finally {
    db.close();
  }
  throw new Error(`${sql} succeeded`);
}

describe('isDuplicateKeyError', () => {
  it('is true for SQLite primary key and unique violations, bare or wrapped by TypeORM', () => {
    for (const error of [sqliteError("INSERT INTO t VALUES (1, 'y')"), sqliteError("INSERT INTO t VALUES (2, 'x')")]) {
      expect(isDuplicateKeyError(error)).toBe(true);
      expect(isDuplicateKeyError(new QueryFailedError('INSERT', [], error as Error))).toBe(true);
    }
  });

  it('is true for MySQL/MariaDB ER_DUP_ENTRY', () => {
    expect(isDuplicateKeyError(new QueryFailedError('INSERT', [], driverError('ER_DUP_ENTRY')))).toBe(true);
  });

  it('is false for other failures', () => {
    expect(isDuplicateKeyError(sqliteError('INSERT INTO t VALUES (NULL, NULL, 3)'))).toBe(false);
    expect(isDuplicateKeyError(new QueryFailedError('INSERT', [], driverError('ER_NO_REFERENCED_ROW_2')))).toBe(false);
    expect(isDuplicateKeyError(driverError('SQLITE_BUSY'))).toBe(false);
    expect(isDuplicateKeyError(new Error('boom'))).toBe(false);
    expect(isDuplicateKeyError(undefined)).toBe(false);
  });
});
