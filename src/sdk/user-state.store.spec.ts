import type { DataSource } from 'typeorm';
import { createUserStateStore } from './user-state.store';

/** A MySQL store whose every statement fails with `code` (or succeeds with `affectedRows` 1 when null). */
function mysqlStoreFailingWith(code: string | null) {
  const connection = {
    execute: (_options: unknown, callback: (error: Error | null, result: unknown) => void) =>
      callback(code ? Object.assign(new Error(code), { code }) : null, { affectedRows: 1 }),
    release: jest.fn(),
    destroy: jest.fn(),
  };
  const pool = { getConnection: (callback: (error: null, connection: unknown) => void) => callback(null, connection) };
  return createUserStateStore({ options: { type: 'mysql' }, driver: { pool } } as unknown as DataSource);
}

describe('the MySQL user state store', () => {
  it.each([
    ['an update', 3],
    ['an insert', undefined],
  ])('answers "another writer got there first" when %s is a deadlock victim (a Galera certification conflict)', async (_what, version) => {
    await expect(mysqlStoreFailingWith('ER_LOCK_DEADLOCK').write('t', '1', '{}', version, 0)).resolves.toBe(false);
  });

  it('answers the same for a duplicate new row, and true when the write went through', async () => {
    await expect(mysqlStoreFailingWith('ER_DUP_ENTRY').write('t', '1', '{}', undefined, 0)).resolves.toBe(false);
    await expect(mysqlStoreFailingWith(null).write('t', '1', '{}', 3, 0)).resolves.toBe(true);
  });

  it('passes any other failure on', async () => {
    await expect(mysqlStoreFailingWith('ER_DATA_TOO_LONG').write('t', '1', '{}', 3, 0)).rejects.toThrow('ER_DATA_TOO_LONG');
  });
});
