import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { exactComparison } from '../exact-collation';
import { MigrationColumns } from '../migration-columns';

export class CreateAuditEntries1767225602000 implements MigrationInterface {
  name = 'CreateAuditEntries1767225602000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const column = new MigrationColumns(queryRunner);
    // Actors, users and entity ids are exact filters: 'a' and 'a ' must differ.
    const exact = await exactComparison(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'audit_entries',
        columns: [
          column.id(),
          column.tenantId(),
          column.bigint('at'),
          exact(column.varchar('actor', 255, true)),
          exact(column.varchar('user_name', 255, true)),
          column.varchar('request_id', 128, true),
          column.varchar('entity_type', 32),
          exact(column.varchar('entity_id')),
          column.varchar('action', 32),
          column.text('record_before', true),
          column.text('record_after', true),
          column.text('changes'),
        ],
        // Newest first by id, for the tenant and for one entity. The retention purge walks the primary key.
        indices: [
          { name: 'ix_audit_entries_tenant_id', columnNames: ['tenant_id', 'id'] },
          { name: 'ix_audit_entries_tenant_entity', columnNames: ['tenant_id', 'entity_type', 'entity_id', 'id'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('audit_entries');
  }
}
