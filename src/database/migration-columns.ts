import type { QueryRunner, TableColumnOptions } from 'typeorm';

/**
 * Column definitions that mean the same on SQLite and MySQL/MariaDB, so one
 * hand-written migration serves both (docs/decisions/0013-persistence-and-migrations.md).
 */
export class MigrationColumns {
  private readonly mysql: boolean;

  constructor(queryRunner: QueryRunner) {
    this.mysql = queryRunner.connection.options.type === 'mysql';
  }

  /** Auto-increment id: SQLite rejects a bigint one, MySQL wants bigint. */
  id(name = 'id'): TableColumnOptions {
    return {
      name,
      type: this.mysql ? 'bigint' : 'integer',
      isPrimary: true,
      isGenerated: true,
      generationStrategy: 'increment',
    };
  }

  tenantId(): TableColumnOptions {
    return this.varchar('tenant_id', 64);
  }

  /** A name compared exactly (case-sensitive) on every database. */
  varchar(name: string, length = 255, nullable = false): TableColumnOptions {
    return { name, type: 'varchar', length: String(length), isNullable: nullable, ...this.binaryText() };
  }

  /** Client text up to well past the body limit: JSON documents, templates, descriptions. */
  text(name: string, nullable = false): TableColumnOptions {
    return { name, type: this.mysql ? 'longtext' : 'text', isNullable: nullable, ...this.binaryText() };
  }

  /** Epoch milliseconds, or any other 64-bit integer. */
  bigint(name: string, nullable = false): TableColumnOptions {
    return { name, type: 'bigint', isNullable: nullable };
  }

  integer(name: string, nullable = false): TableColumnOptions {
    return { name, type: 'integer', isNullable: nullable };
  }

  boolean(name: string, defaultValue: boolean): TableColumnOptions {
    return { name, type: 'boolean', isNullable: false, default: defaultValue ? 1 : 0 };
  }

  private binaryText(): Partial<TableColumnOptions> {
    return this.mysql ? { charset: 'utf8mb4', collation: 'utf8mb4_bin' } : {};
  }
}
