import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { MigrationColumns } from '../migration-columns';

/** Campaign insights (docs/decisions/0018-campaign-insights.md): the rows merges append, and the rows the fold keeps. */
export class AddCampaignInsights1767225603100 implements MigrationInterface {
  name = 'AddCampaignInsights1767225603100';

  async up(queryRunner: QueryRunner): Promise<void> {
    const column = new MigrationColumns(queryRunner);
    const key = (options: ReturnType<MigrationColumns['bigint']>) => ({ ...options, isPrimary: true });
    await queryRunner.createTable(
      new Table({
        name: 'insight_pending',
        columns: [column.id(), column.tenantId(), column.bigint('cta_id'), column.text('counts')],
        indices: [{ name: 'ix_insight_pending_tenant_cta', columnNames: ['tenant_id', 'cta_id', 'id'] }],
      }),
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
    for (const table of ['insight_states', 'insight_ctas', 'insight_days', 'insight_pending']) {
      await queryRunner.dropTable(table);
    }
  }
}
