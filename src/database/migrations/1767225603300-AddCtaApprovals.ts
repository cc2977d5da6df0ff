import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';
import { MigrationColumns } from '../migration-columns';

/**
 * Approvals (docs/decisions/0015-approvals.md): each CTA's content revision and the key that made
 * its latest content change, and the approval of a revision by another key.
 */
export class AddCtaApprovals1767225603300 implements MigrationInterface {
  name = 'AddCtaApprovals1767225603300';

  async up(queryRunner: QueryRunner): Promise<void> {
    const column = new MigrationColumns(queryRunner);
    await queryRunner.addColumns('ctas', [
      new TableColumn({ ...column.integer('content_revision'), default: 1 }),
      new TableColumn(column.varchar('content_changed_by', 255, true)),
    ]);
    // The CTAs written before: the key of their latest content change, as the audit history has it.
    await queryRunner.query(
      `UPDATE ctas SET content_changed_by = (
         SELECT entry.actor FROM audit_entries entry
          WHERE entry.tenant_id = ctas.tenant_id AND entry.entity_type = 'cta' AND entry.entity_id = CAST(ctas.id AS CHAR)
            AND entry.action IN ('create', 'update', 'restore')
          ORDER BY entry.id DESC LIMIT 1)
        WHERE is_test = 0`,
    );
    await queryRunner.createTable(
      new Table({
        name: 'cta_approvals',
        columns: [
          { ...column.tenantId(), isPrimary: true },
          { ...column.bigint('cta_id'), isPrimary: true },
          column.integer('content_revision'),
          column.varchar('approved_by'),
          column.bigint('approved_at'),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('cta_approvals');
    await queryRunner.dropColumns('ctas', ['content_changed_by', 'content_revision']);
  }
}
