import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The latest approval of a CTA (docs/decisions/0015-approvals.md): which content revision it
 * approves, by which key, when. It counts only while that revision is the CTA's current one.
 */
@Entity({ name: 'cta_approvals' })
export class CtaApprovalEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId: string;

  @PrimaryColumn({ name: 'cta_id', type: 'bigint' })
  ctaId: number;

  @Column({ name: 'content_revision', type: 'integer' })
  contentRevision: number;

  @Column({ name: 'approved_by', type: 'varchar', length: 255 })
  approvedBy: string;

  @Column({ name: 'approved_at', type: 'bigint' })
  approvedAt: number;
}
