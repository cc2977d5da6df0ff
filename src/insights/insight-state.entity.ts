import { Column, Entity, PrimaryColumn } from 'typeorm';
import { CtaRow } from '../database/entity-columns';

/** How many stored machines of one CTA are in one state now (docs/decisions/0018-campaign-insights.md); written by the fold only. */
@Entity({ name: 'insight_states' })
export class InsightStateEntity extends CtaRow {
  /** A machine's `currentState` (its first 255 characters). */
  @PrimaryColumn({ type: 'varchar', length: 255 })
  state: string;

  @Column({ type: 'bigint' })
  machines: number;
}
