import type { DataSource, EntityManager } from 'typeorm';
import { writeHotRow } from './hot-rows';

/** A transaction's manager on a database whose `wsrep_on` is `wsrep`; `statements` records what it is sent. */
function managerOn(type: string, wsrep: 'ON' | 'OFF'): { manager: EntityManager; statements: string[] } {
  const statements: string[] = [];
  const connection = {
    options: { type },
    query: async (sql: string) => (sql.startsWith('SHOW VARIABLES') ? [{ Value: wsrep }] : []),
  } as unknown as DataSource;
  const manager = { connection, query: async (sql: string) => void statements.push(sql) } as unknown as EntityManager;
  return { manager, statements };
}

describe('writeHotRow', () => {
  it('on Galera replicates each statement of the writes as it runs, then turns that off again', async () => {
    const { manager, statements } = managerOn('mysql', 'ON');
    await expect(writeHotRow(manager, async () => (statements.push('the writes'), 'done'))).resolves.toBe('done');
    expect(statements).toEqual([
      "SET SESSION wsrep_trx_fragment_unit = 'statements', wsrep_trx_fragment_size = 1",
      'the writes',
      'SET SESSION wsrep_trx_fragment_size = 0',
    ]);
  });

  it('turns it off again when the writes fail (a lost certification), so the pooled connection does not keep it', async () => {
    const { manager, statements } = managerOn('mysql', 'ON');
    await expect(
      writeHotRow(manager, async () => {
        throw new Error('ER_LOCK_DEADLOCK');
      }),
    ).rejects.toThrow('ER_LOCK_DEADLOCK');
    expect(statements.at(-1)).toBe('SET SESSION wsrep_trx_fragment_size = 0');
  });

  it('only runs the writes on one MySQL/MariaDB server and on SQLite', async () => {
    for (const [type, wsrep] of [
      ['mysql', 'OFF'],
      ['better-sqlite3', 'OFF'],
    ] as const) {
      const { manager, statements } = managerOn(type, wsrep);
      await expect(writeHotRow(manager, async () => 'done')).resolves.toBe('done');
      expect(statements).toEqual([]);
    }
  });
});
