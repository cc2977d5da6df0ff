import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { MigrationColumns } from '../migration-columns';

export class CreateSdkUserStates1767225600600 implements MigrationInterface {
  name = 'CreateSdkUserStates1767225600600';

  async up(queryRunner: QueryRunner): Promise<void> {
    const column = new MigrationColumns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'sdk_user_states',
        columns: [
          { ...column.tenantId(), isPrimary: true },
          { ...column.varchar('user_id', 20), isPrimary: true },
          column.text('state'),
          column.bigint('version'),
          column.bigint('updated_at'),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('sdk_user_states');
  }
}
