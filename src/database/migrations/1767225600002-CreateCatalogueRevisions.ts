import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { MigrationColumns } from '../migration-columns';

export class CreateCatalogueRevisions1767225600002 implements MigrationInterface {
  name = 'CreateCatalogueRevisions1767225600002';

  async up(queryRunner: QueryRunner): Promise<void> {
    const column = new MigrationColumns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'catalogue_revisions',
        columns: [{ ...column.tenantId(), isPrimary: true }, column.bigint('revision'), column.bigint('updated_at')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('catalogue_revisions');
  }
}
