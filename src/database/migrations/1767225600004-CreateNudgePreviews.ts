import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { exactComparison } from '../exact-collation';
import { MigrationColumns } from '../migration-columns';

export class CreateNudgePreviews1767225600004 implements MigrationInterface {
  name = 'CreateNudgePreviews1767225600004';

  async up(queryRunner: QueryRunner): Promise<void> {
    const column = new MigrationColumns(queryRunner);
    const exact = await exactComparison(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'nudge_previews',
        columns: [
          { ...column.tenantId(), isPrimary: true },
          { ...exact(column.varchar('preview_id')), isPrimary: true },
          column.text('template'),
          column.integer('ttl'),
          column.bigint('expires_at'),
          column.bigint('updated_at'),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('nudge_previews');
  }
}
