import { Column, Entity, PrimaryColumn } from 'typeorm';

/** How many stored machines of one CTA are in one state now (docs/decisions/0018-campaign-insights.md); written by the fold only. */
@Entity({ name: 'insight_states' })
export class InsightStateEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId: string;

  @PrimaryColumn({ name: 'cta_id', type: 'bigint' })
  ctaId: number;

  /** A machine's `currentState` (its first 255 characters). */
  @PrimaryColumn({ type: 'varchar', length: 255 })
  state: string;

  @Column({ type: 'bigint' })
  machines: number;
}
