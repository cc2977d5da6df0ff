import { Column, Entity } from 'typeorm';
import { CtaRow } from '../database/entity-columns';

/**
 * The latest approval of a CTA (docs/decisions/0015-approvals.md): which content revision it
 * approves, by which key, when. It counts only while that revision is the CTA's current one.
 */
@Entity({ name: 'cta_approvals' })
export class CtaApprovalEntity extends CtaRow {
  @Column({ name: 'content_revision', type: 'integer' })
  contentRevision: number;

  @Column({ name: 'approved_by', type: 'varchar', length: 255 })
  approvedBy: string;

  @Column({ name: 'approved_at', type: 'bigint' })
  approvedAt: number;
}
