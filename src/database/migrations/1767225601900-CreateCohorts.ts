import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { exactComparison } from '../exact-collation';
import { MigrationColumns } from '../migration-columns';

/**
 * Cohorts (docs/decisions/0008-cohorts.md): definitions, the members of static cohorts by generation (a replace
 * writes a new generation and switches to it in one UPDATE), and which CTAs name which cohorts.
 */
/** The cohort names of docs/decisions/0008-cohorts.md, as of this migration. */
const COHORT_NAME = /^[A-Za-z0-9._:-]{1,255}$/;

export class CreateCohorts1767225601900 implements MigrationInterface {
  name = 'CreateCohorts1767225601900';

  async up(queryRunner: QueryRunner): Promise<void> {
    const column = new MigrationColumns(queryRunner);
    const exact = await exactComparison(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'cohorts',
        columns: [
          column.id(),
          column.tenantId(),
          exact(column.varchar('name')),
          column.text('description', true),
          column.varchar('kind', 16),
          column.text('rule', true),
          column.bigint('generation'),
          column.bigint('next_generation'),
          column.bigint('member_count'),
          column.bigint('created_at'),
          column.varchar('created_by'),
          column.bigint('last_updated_at', true),
          column.varchar('last_updated_by', 255, true),
        ],
        uniques: [{ name: 'uq_cohorts_tenant_name', columnNames: ['tenant_id', 'name'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'cohort_members',
        columns: [
          { ...column.tenantId(), isPrimary: true },
          { ...column.bigint('cohort_id'), isPrimary: true },
          { ...column.bigint('generation'), isPrimary: true },
          { ...column.varchar('user_id', 20), isPrimary: true },
        ],
        // The launch looks a user up across cohorts.
        indices: [{ name: 'ix_cohort_members_tenant_user', columnNames: ['tenant_id', 'user_id', 'cohort_id', 'generation'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'cta_cohorts',
        columns: [
          { ...column.tenantId(), isPrimary: true },
          { ...exact(column.varchar('cohort_name')), isPrimary: true },
          { ...column.bigint('cta_id'), isPrimary: true },
        ],
        indices: [{ name: 'ix_cta_cohorts_tenant_cta', columnNames: ['tenant_id', 'cta_id'] }],
      }),
    );
    // The CTAs written before this migration name cohorts too.
    const ctas: { id: number | string; tenant_id: string; rule: string }[] = await queryRunner.query(
      'SELECT id, tenant_id, rule FROM ctas WHERE is_test = 0',
    );
    for (const cta of ctas) {
      const eligibility =
        (JSON.parse(cta.rule) as { cohortEligibility?: { includes?: unknown; excludes?: unknown } }).cohortEligibility ?? {};
      const names = new Set(
        [eligibility.includes, eligibility.excludes]
          .flatMap((list) => (Array.isArray(list) ? list : []))
          .filter((name) => typeof name === 'string' && COHORT_NAME.test(name)),
      );
      for (const name of names) {
        await queryRunner.query('INSERT INTO cta_cohorts (tenant_id, cohort_name, cta_id) VALUES (?, ?, ?)', [cta.tenant_id, name, cta.id]);
      }
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('cta_cohorts');
    await queryRunner.dropTable('cohort_members');
    await queryRunner.dropTable('cohorts');
  }
}
