import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { MigrationColumns } from '../migration-columns';

export class CreateBehaviourTags1767225600001 implements MigrationInterface {
  name = 'CreateBehaviourTags1767225600001';

  async up(queryRunner: QueryRunner): Promise<void> {
    const column = new MigrationColumns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'behaviour_tags',
        columns: [
          { ...column.tenantId(), isPrimary: true },
          { ...column.varchar('name'), isPrimary: true },
          column.text('description', true),
          column.text('exposure_rule'),
          column.text('cta_relation'),
          column.bigint('created_at'),
          column.varchar('created_by'),
          column.bigint('last_updated_at', true),
          column.varchar('last_updated_by', 255, true),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'behaviour_tag_ctas',
        columns: [{ ...column.tenantId(), isPrimary: true }, { ...column.bigint('cta_id'), isPrimary: true }, column.varchar('tag_name')],
        indices: [{ name: 'ix_behaviour_tag_ctas_tenant_tag', columnNames: ['tenant_id', 'tag_name'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('behaviour_tag_ctas');
    await queryRunner.dropTable('behaviour_tags');
  }
}
