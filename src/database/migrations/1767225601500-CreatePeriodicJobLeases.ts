import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { MigrationColumns } from '../migration-columns';

/**
 * Periodic work once per cluster, set-based (docs/decisions/0007-catalogue-cache-and-periodic-jobs.md): a lease row per job,
 * and the indexes the jobs' cross-tenant scans for due rows read. These are the
 * only keys not led by `tenant_id`: the jobs are the one place that works over
 * all tenants at once, and without them each run would scan whole tables.
 */
export class CreatePeriodicJobLeases1767225601500 implements MigrationInterface {
  name = 'CreatePeriodicJobLeases1767225601500';

  async up(queryRunner: QueryRunner): Promise<void> {
    const column = new MigrationColumns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'periodic_job_leases',
        columns: [{ ...column.varchar('job', 64), isPrimary: true }, column.varchar('owner', 128), column.bigint('expires_at')],
      }),
    );
    await queryRunner.createIndices('ctas', [
      new TableIndex({ name: 'ix_ctas_due_start', columnNames: ['is_test', 'status', 'start_time'] }),
      new TableIndex({ name: 'ix_ctas_due_end', columnNames: ['is_test', 'status', 'end_time'] }),
      new TableIndex({ name: 'ix_ctas_test_expiry', columnNames: ['is_test', 'expires_at'] }),
    ]);
    await queryRunner.createIndex('nudge_previews', new TableIndex({ name: 'ix_nudge_previews_expiry', columnNames: ['expires_at'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('nudge_previews', 'ix_nudge_previews_expiry');
    for (const name of ['ix_ctas_test_expiry', 'ix_ctas_due_end', 'ix_ctas_due_start']) {
      await queryRunner.dropIndex('ctas', name);
    }
    await queryRunner.dropTable('periodic_job_leases');
  }
}
