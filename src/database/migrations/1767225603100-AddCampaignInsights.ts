import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';
import { MigrationColumns } from '../migration-columns';

/** Campaign insights (docs/decisions/0018-campaign-insights.md): each user's pending counts, and the rows the fold keeps. */
export class AddCampaignInsights1767225603100 implements MigrationInterface {
  name = 'AddCampaignInsights1767225603100';

  async up(queryRunner: QueryRunner): Promise<void> {
    const column = new MigrationColumns(queryRunner);
    const key = (options: ReturnType<MigrationColumns['bigint']>) => ({ ...options, isPrimary: true });
    // Each user's counts not folded yet and how far the user's lists are counted, written with the
    // user's state (no row shared between users).
    await queryRunner.addColumns('sdk_user_states', [
      new TableColumn(column.text('pending_insights', true)),
      new TableColumn(column.bigint('pending_since', true)),
      new TableColumn(column.text('insight_marks', true)),
    ]);
    await queryRunner.createIndex(
      'sdk_user_states',
      new TableIndex({ name: 'ix_sdk_user_states_pending', columnNames: ['pending_since', 'tenant_id'] }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'insight_days',
        columns: [
          key(column.tenantId()),
          key(column.bigint('cta_id')),
          key(column.integer('day')),
          column.bigint('actions'),
          column.bigint('resets'),
          column.bigint('new_users'),
        ],
        indices: [{ name: 'ix_insight_days_tenant_day', columnNames: ['tenant_id', 'day', 'cta_id', 'actions', 'resets'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'insight_months',
        columns: [
          key(column.tenantId()),
          key(column.bigint('cta_id')),
          key(column.integer('month')),
          column.bigint('actions'),
          column.bigint('resets'),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'insight_ctas',
        columns: [key(column.tenantId()), key(column.bigint('cta_id')), column.bigint('users'), column.bigint('users_reached')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'insight_states',
        columns: [key(column.tenantId()), key(column.bigint('cta_id')), key(column.varchar('state')), column.bigint('machines')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['insight_states', 'insight_ctas', 'insight_months', 'insight_days']) {
      await queryRunner.dropTable(table);
    }
    await queryRunner.dropIndex('sdk_user_states', 'ix_sdk_user_states_pending');
    await queryRunner.dropColumns('sdk_user_states', ['insight_marks', 'pending_since', 'pending_insights']);
  }
}
