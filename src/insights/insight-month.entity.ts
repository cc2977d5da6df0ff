import { Column, Entity, PrimaryColumn } from 'typeorm';
import { CtaRow } from '../database/entity-columns';

/**
 * One CTA's folded actions and resets in one UTC calendar month (docs/decisions/0018-campaign-insights.md):
 * the days' sums, kept by the fold beside them so that the overview of a long range reads months
 * and at most two partial months of days.
 */
@Entity({ name: 'insight_months' })
export class InsightMonthEntity extends CtaRow {
  /** Months since January 1970 (year × 12 + month − 23640). */
  @PrimaryColumn({ type: 'integer' })
  month: number;

  @Column({ type: 'bigint' })
  actions: number;

  @Column({ type: 'bigint' })
  resets: number;
}
