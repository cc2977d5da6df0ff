import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';
import { MigrationColumns } from '../migration-columns';

/**
 * Experiments (docs/decisions/0026-experiments.md): each CTA's experiment, and the per-arm counts the
 * insights fold adds up (what each user has been counted in lives in their insight marks).
 */
export class AddCtaExperiments1767225603600 implements MigrationInterface {
  name = 'AddCtaExperiments1767225603600';

  async up(queryRunner: QueryRunner): Promise<void> {
    const column = new MigrationColumns(queryRunner);
    const key = (options: ReturnType<MigrationColumns['bigint']>) => ({ ...options, isPrimary: true });
    await queryRunner.addColumn('ctas', new TableColumn(column.text('experiment', true)));
    await queryRunner.createTable(
      new Table({
        name: 'experiment_arms',
        columns: [
          key(column.tenantId()),
          key(column.bigint('cta_id')),
          key(column.varchar('arm', 16)),
          column.bigint('entered'),
          column.bigint('exposed'),
          column.bigint('converted'),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('experiment_arms');
    await queryRunner.dropColumn('ctas', 'experiment');
  }
}
