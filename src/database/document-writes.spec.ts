import { Column, DataSource, Entity, PrimaryGeneratedColumn, QueryFailedError, Unique, type EntityManager } from 'typeorm';
import { insertDocuments, updateDocuments } from './document-writes';
import { isDuplicateKeyError } from './duplicate-key';
import { booleanTransformer, jsonColumnText, jsonTransformer } from './transformers';

@Entity({ name: 'documents' })
@Unique(['tenantId', 'name'])
class DocumentEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId: string;

  @Column({ type: 'varchar', length: 64 })
  name: string;

  @Column({ type: 'text', transformer: jsonTransformer })
  body: unknown;

  @Column({ name: 'is_draft', type: 'boolean', transformer: booleanTransformer })
  isDraft: boolean;
}

type Outcome = { error: (Error & { code?: string }) | null; result?: { affectedRows: number; insertId: number } };

/**
 * A transaction's manager on MySQL (metadata built, never connected) whose connection answers `outcome`
 * (or nothing, as through a network partition), noting what it is sent.
 */
async function mysqlManager(
  outcome: Outcome | 'no answer',
  options: Record<string, unknown> = { enableQueryTimeout: true, maxQueryExecutionTime: 10_000 },
) {
  const dataSource = new DataSource({ type: 'mysql', database: 'documents', entities: [DocumentEntity], ...options });
  await (dataSource as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
  const calls: string[] = [];
  const executed: { sql: string; values: unknown[]; timeout?: number }[] = [];
  const connection = {
    execute: (sent: (typeof executed)[number], callback: (error: Outcome['error'], result: unknown) => void) => {
      executed.push(sent);
      if (outcome !== 'no answer') callback(outcome.error, outcome.result);
    },
    unprepare: (sql: string) => calls.push(`unprepare ${sql}`),
    destroy: () => calls.push('destroy'),
  };
  const manager = { queryRunner: { connect: async () => connection }, connection: dataSource } as unknown as EntityManager;
  return { manager, calls, executed };
}

const rows = [
  { tenantId: 't', name: 'a', body: { rule: ['x'] }, isDraft: true },
  { tenantId: 't', name: 'b', body: jsonColumnText('{"given":"as text"}'), isDraft: false },
];

describe('document writes on MySQL/MariaDB', () => {
  it('insert rows as one prepared statement of the columns given, values as TypeORM writes them, closed after', async () => {
    const { manager, calls, executed } = await mysqlManager({ error: null, result: { affectedRows: 2, insertId: 42 } });
    await expect(insertDocuments(manager, DocumentEntity, rows)).resolves.toEqual({ affected: 2, insertId: 42 });
    const sql = 'INSERT INTO `documents` (`tenant_id`, `name`, `body`, `is_draft`) VALUES (?, ?, ?, ?), (?, ?, ?, ?)';
    expect(executed).toEqual([
      { sql, values: ['t', 'a', '{"rule":["x"]}', true, 't', 'b', '{"given":"as text"}', false], timeout: 10_000 },
    ]);
    expect(calls).toEqual([`unprepare ${sql}`]);
  });

  it('overwrite the columns asked for on a duplicate key', async () => {
    const { manager, executed } = await mysqlManager({ error: null, result: { affectedRows: 1, insertId: 0 } });
    await insertDocuments(manager, DocumentEntity, rows.slice(0, 1), { key: ['tenantId', 'name'], overwrite: ['body', 'isDraft'] });
    expect(executed[0].sql).toBe(
      'INSERT INTO `documents` (`tenant_id`, `name`, `body`, `is_draft`) VALUES (?, ?, ?, ?) ON DUPLICATE KEY UPDATE `body` = VALUES(`body`), `is_draft` = VALUES(`is_draft`)',
    );
  });

  it("run TypeORM's updates the same way, without a timeout when TypeORM has none", async () => {
    const { manager, executed } = await mysqlManager({ error: null, result: { affectedRows: 1, insertId: 0 } }, {});
    const update = manager.connection
      .createQueryBuilder()
      .update(DocumentEntity)
      .set({ body: { a: 1 } })
      .where({ tenantId: 't', name: 'a' });
    await expect(updateDocuments(manager, update)).resolves.toEqual({ affected: 1, insertId: 0 });
    expect(executed).toEqual([
      {
        sql: 'UPDATE `documents` SET `body` = ? WHERE (`tenant_id` = ? AND `name` = ?)',
        values: ['{"a":1}', 't', 'a'],
        timeout: undefined,
      },
    ]);
  });

  it("fail as TypeORM's queries fail, the driver's error inside", async () => {
    const { manager, calls } = await mysqlManager({ error: Object.assign(new Error('Duplicate entry'), { code: 'ER_DUP_ENTRY' }) });
    const error = await insertDocuments(manager, DocumentEntity, rows).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(QueryFailedError);
    expect(isDuplicateKeyError(error)).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it('destroy the connection of a statement that timed out (mysql2 would keep waiting on it)', async () => {
    const { manager, calls } = await mysqlManager({
      error: Object.assign(new Error('Query inactivity timeout'), { code: 'PROTOCOL_SEQUENCE_TIMEOUT' }),
    });
    await expect(insertDocuments(manager, DocumentEntity, rows)).rejects.toBeInstanceOf(QueryFailedError);
    expect(calls).toEqual(['destroy']);
  });

  it('neither unprepare on nor keep a connection that the error closed (a command added then throws outside any promise)', async () => {
    const { manager, calls } = await mysqlManager({
      error: Object.assign(new Error('Connection lost: The server closed the connection.'), {
        code: 'PROTOCOL_CONNECTION_LOST',
        fatal: true,
      }),
    });
    await expect(insertDocuments(manager, DocumentEntity, rows)).rejects.toBeInstanceOf(QueryFailedError);
    expect(calls).toEqual(['destroy']);
  });

  it('fail after the query timeout when nothing answers, not even the PREPARE (mysql2 times only the execute), and destroy the connection', async () => {
    const { manager, calls } = await mysqlManager('no answer', { enableQueryTimeout: true, maxQueryExecutionTime: 20 });
    const failure = await insertDocuments(manager, DocumentEntity, rows).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(QueryFailedError);
    expect((failure as QueryFailedError & { driverError: { code: string } }).driverError.code).toBe('PROTOCOL_SEQUENCE_TIMEOUT');
    expect(calls).toEqual(['destroy']);
  });

  it('need a transaction', async () => {
    const { manager } = await mysqlManager({ error: null });
    await expect(insertDocuments({ ...manager, queryRunner: undefined } as EntityManager, DocumentEntity, rows)).rejects.toThrow(
      'documents are written inside a transaction',
    );
  });
});

describe('document writes on SQLite', () => {
  let dataSource: DataSource;
  beforeAll(async () => {
    dataSource = await new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [DocumentEntity],
      synchronize: true,
    }).initialize();
  });
  afterAll(() => dataSource.destroy());

  it('insert, upsert and update through TypeORM, read back as written', async () => {
    const first = await dataSource.transaction((manager) => insertDocuments(manager, DocumentEntity, rows));
    expect(first).toEqual({ affected: 2, insertId: 2 });
    await dataSource.transaction((manager) =>
      insertDocuments(manager, DocumentEntity, [{ ...rows[0], body: { rule: ['y'] }, isDraft: false }], {
        key: ['tenantId', 'name'],
        overwrite: ['body'],
      }),
    );
    await dataSource.transaction((manager) =>
      updateDocuments(manager, manager.createQueryBuilder().update(DocumentEntity).set({ isDraft: true }).where({ name: 'b' })),
    );
    expect(await dataSource.getRepository(DocumentEntity).find({ order: { id: 'ASC' } })).toEqual([
      { id: 1, tenantId: 't', name: 'a', body: { rule: ['y'] }, isDraft: true },
      { id: 2, tenantId: 't', name: 'b', body: { given: 'as text' }, isDraft: true },
    ]);
  });
});
