import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CtaRow } from '../database/entity-columns';

/** One CTA's folded counts on one UTC day (docs/decisions/0018-campaign-insights.md); written by the fold only. */
@Entity({ name: 'insight_days' })
// The overview: every CTA's actions and resets over a range of days, from the index alone.
@Index('ix_insight_days_tenant_day', ['tenantId', 'day', 'ctaId', 'actions', 'resets'])
export class InsightDayEntity extends CtaRow {
  /** Days since 1970-01-01 (UTC). */
  @PrimaryColumn({ type: 'integer' })
  day: number;

  /** New `actionDoneAt` entries timed on the day. */
  @Column({ type: 'bigint' })
  actions: number;

  /** New `resetAt` entries timed on the day. */
  @Column({ type: 'bigint' })
  resets: number;

  /** Users whose first action is on the day. */
  @Column({ name: 'new_users', type: 'bigint' })
  newUsers: number;
}
