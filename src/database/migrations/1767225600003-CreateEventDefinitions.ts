import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { exactComparison } from '../exact-collation';
import { MigrationColumns } from '../migration-columns';

export class CreateEventDefinitions1767225600003 implements MigrationInterface {
  name = 'CreateEventDefinitions1767225600003';

  async up(queryRunner: QueryRunner): Promise<void> {
    const column = new MigrationColumns(queryRunner);
    const exact = await exactComparison(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'event_definitions',
        columns: [
          { ...column.tenantId(), isPrimary: true },
          { ...exact(column.varchar('name')), isPrimary: true },
          column.text('properties'),
          column.varchar('source'),
          column.bigint('created_at'),
          column.bigint('updated_at'),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('event_definitions');
  }
}
