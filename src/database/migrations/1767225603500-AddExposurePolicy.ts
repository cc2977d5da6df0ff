import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';
import { MigrationColumns } from '../migration-columns';

/**
 * The exposure policy (docs/exposure-policy.md): a cap per tenant, CTAs exempt from it, and each
 * user's recent actions, which outlive the state of CTAs that ended.
 */
export class AddExposurePolicy1767225603500 implements MigrationInterface {
  name = 'AddExposurePolicy1767225603500';

  async up(queryRunner: QueryRunner): Promise<void> {
    const column = new MigrationColumns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'exposure_policies',
        columns: [
          { ...column.tenantId(), isPrimary: true },
          column.integer('max_actions', true),
          column.text('exposure_window', true),
          column.bigint('updated_at'),
        ],
      }),
    );
    await queryRunner.addColumn('ctas', new TableColumn(column.boolean('cap_exempt', false)));
    await queryRunner.addColumn('sdk_user_states', new TableColumn(column.text('recent_actions', true)));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('sdk_user_states', 'recent_actions');
    await queryRunner.dropColumn('ctas', 'cap_exempt');
    await queryRunner.dropTable('exposure_policies');
  }
}
