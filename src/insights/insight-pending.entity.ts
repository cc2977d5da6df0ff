import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * What one write of a user's state changed in one CTA's insights, not folded yet
 * (docs/decisions/0018-campaign-insights.md): appended in the write's transaction, deleted by the fold
 * in the transaction that adds it to the daily and per-CTA rows.
 */
@Entity({ name: 'insight_pending' })
// A CTA's pending rows (a read), the tenant's (the overview).
@Index('ix_insight_pending_tenant_cta', ['tenantId', 'ctaId', 'id'])
export class InsightPendingEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: number;

  @Column({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId: string;

  @Column({ name: 'cta_id', type: 'bigint' })
  ctaId: number;

  /** The counts, compact JSON (insight-pending.ts); read whole, never queried. */
  @Column({ type: 'text' })
  counts: string;
}
