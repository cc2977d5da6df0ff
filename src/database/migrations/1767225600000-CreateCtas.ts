import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { exactComparison } from '../exact-collation';
import { MigrationColumns } from '../migration-columns';

export class CreateCtas1767225600000 implements MigrationInterface {
  name = 'CreateCtas1767225600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const column = new MigrationColumns(queryRunner);
    // Names, teams, creators and tags are unique keys or exact filters: 'a' and 'a ' must differ.
    const exact = await exactComparison(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'ctas',
        columns: [
          column.id(),
          column.tenantId(),
          exact(column.varchar('name')),
          column.text('description', true),
          exact(column.varchar('team')),
          column.varchar('status', 16),
          column.bigint('start_time', true),
          column.bigint('end_time', true),
          column.text('rule'),
          column.boolean('is_test', false),
          column.bigint('expires_at', true),
          column.bigint('created_at'),
          exact(column.varchar('created_by')),
          column.bigint('last_updated_at', true),
          column.varchar('last_updated_by', 255, true),
        ],
        uniques: [{ name: 'uq_ctas_tenant_test_name', columnNames: ['tenant_id', 'is_test', 'name'] }],
        // The list counts every status over the other filters: these indexes cover those counts,
        // so they never read the wide rows (rules are kilobytes each).
        indices: [
          { name: 'ix_ctas_tenant_test_status', columnNames: ['tenant_id', 'is_test', 'status', 'id', 'name'] },
          { name: 'ix_ctas_tenant_test_team', columnNames: ['tenant_id', 'is_test', 'team', 'status'] },
          { name: 'ix_ctas_tenant_test_created_by', columnNames: ['tenant_id', 'is_test', 'created_by', 'status'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'cta_tags',
        columns: [
          { ...column.tenantId(), isPrimary: true },
          { ...column.bigint('cta_id'), isPrimary: true },
          { ...exact(column.varchar('tag')), isPrimary: true },
        ],
        indices: [{ name: 'ix_cta_tags_tenant_tag', columnNames: ['tenant_id', 'tag', 'cta_id'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'cta_test_users',
        columns: [
          { ...column.tenantId(), isPrimary: true },
          { ...column.varchar('user_id', 20), isPrimary: true },
          { ...column.bigint('cta_id'), isPrimary: true },
        ],
        indices: [{ name: 'ix_cta_test_users_tenant_cta', columnNames: ['tenant_id', 'cta_id'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('cta_test_users');
    await queryRunner.dropTable('cta_tags');
    await queryRunner.dropTable('ctas');
  }
}
