import { QueryFailedError, type EntityManager } from 'typeorm';
import { writeDocuments } from './document-writes';
import { isDuplicateKeyError } from './duplicate-key';

const SQL = 'INSERT INTO `t`(`doc`) VALUES (?)';
const VALUES = ['{"a":1}'];
const builder = { getQueryAndParameters: () => [SQL, VALUES] } as unknown as Parameters<typeof writeDocuments>[1];

type Outcome = { error: (Error & { code?: string }) | null; result?: { affectedRows: number; insertId: number } };

/** A transaction's manager on MySQL whose connection answers `outcome`, noting what it was asked. */
function mysqlManager(outcome: Outcome, options: Record<string, unknown> = { enableQueryTimeout: true, maxQueryExecutionTime: 10_000 }) {
  const calls: string[] = [];
  const executed: unknown[] = [];
  const connection = {
    execute: (sent: unknown, callback: (error: Outcome['error'], result: unknown) => void) => {
      executed.push(sent);
      callback(outcome.error, outcome.result);
    },
    unprepare: (sql: string) => calls.push(`unprepare ${sql}`),
    destroy: () => calls.push('destroy'),
  };
  const manager = {
    queryRunner: { connect: async () => connection },
    connection: { options: { type: 'mysql', ...options } },
  } as unknown as EntityManager;
  return { manager, calls, executed };
}

describe('writeDocuments', () => {
  it('runs the statement on MySQL/MariaDB as a prepared statement with the query timeout, closes it, and answers what it did', async () => {
    const { manager, calls, executed } = mysqlManager({ error: null, result: { affectedRows: 1, insertId: 42 } });
    await expect(writeDocuments(manager, builder)).resolves.toEqual({ affected: 1, insertId: 42 });
    expect(executed).toEqual([{ sql: SQL, values: VALUES, timeout: 10_000 }]);
    expect(calls).toEqual([`unprepare ${SQL}`]);
    const untimed = mysqlManager({ error: null, result: { affectedRows: 1, insertId: 0 } }, {});
    await writeDocuments(untimed.manager, builder);
    expect(untimed.executed).toEqual([{ sql: SQL, values: VALUES, timeout: undefined }]);
  });

  it("fails as TypeORM's queries fail, the driver's error inside", async () => {
    const { manager, calls } = mysqlManager({ error: Object.assign(new Error('Duplicate entry'), { code: 'ER_DUP_ENTRY' }) });
    const error = await writeDocuments(manager, builder).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(QueryFailedError);
    expect(isDuplicateKeyError(error)).toBe(true);
    expect(calls).toEqual([`unprepare ${SQL}`]);
  });

  it('destroys the connection of a statement that timed out (mysql2 would keep waiting on it)', async () => {
    const { manager, calls } = mysqlManager({
      error: Object.assign(new Error('Query inactivity timeout'), { code: 'PROTOCOL_SEQUENCE_TIMEOUT' }),
    });
    await expect(writeDocuments(manager, builder)).rejects.toBeInstanceOf(QueryFailedError);
    expect(calls).toEqual(['destroy']);
  });

  it("leaves SQLite's statements to TypeORM", async () => {
    const query = jest.fn(async () => ({ affected: 1, raw: 7 }));
    const manager = { queryRunner: { query }, connection: { options: { type: 'better-sqlite3' } } } as unknown as EntityManager;
    await expect(writeDocuments(manager, builder)).resolves.toEqual({ affected: 1, insertId: 7 });
    expect(query).toHaveBeenCalledWith(SQL, VALUES, true);
  });

  it('needs a transaction', async () => {
    await expect(writeDocuments({ connection: { options: { type: 'mysql' } } } as unknown as EntityManager, builder)).rejects.toThrow(
      'documents are written inside a transaction',
    );
  });
});
