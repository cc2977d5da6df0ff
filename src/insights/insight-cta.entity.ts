import { Column, Entity } from 'typeorm';
import { CtaRow } from '../database/entity-columns';

/** One CTA's folded user counts (docs/decisions/0018-campaign-insights.md); written by the fold only. */
@Entity({ name: 'insight_ctas' })
export class InsightCtaEntity extends CtaRow {
  /** Users with stored machines of the CTA now. */
  @Column({ type: 'bigint' })
  users: number;

  /** Users with any action of the CTA, ever. */
  @Column({ name: 'users_reached', type: 'bigint' })
  usersReached: number;
}
