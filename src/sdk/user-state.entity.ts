import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One app user's SDK state in one tenant (docs/decisions/0006-user-state-merge.md): a single document per
 * (tenant, user), so a launch reads it with one primary-key lookup. Read and
 * written through `UserStateStore` (raw prepared statements on the hot path);
 * the entity describes the table for hosts and tooling.
 */
@Entity({ name: 'sdk_user_states' })
// The users with pending insights, oldest first (the fold) and by tenant (a read): docs/decisions/0018-campaign-insights.md.
@Index('ix_sdk_user_states_pending', ['pendingSince', 'tenantId'])
export class UserStateEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId: string;

  /** Signed 64-bit user id as its decimal string. */
  @PrimaryColumn({ name: 'user_id', type: 'varchar', length: 20 })
  userId: string;

  /** The document, its launch index first: per CTA the state machines, resetAt, actionDoneAt; per behaviour tag activeCtas, ctasResetAt (see user-state.ts). */
  @Column({ type: 'text' })
  state: string;

  /** Bumped by every write; a merge updates only the version it read (optimistic concurrency). */
  @Column({ type: 'bigint' })
  version: number;

  @Column({ name: 'updated_at', type: 'bigint' })
  updatedAt: number;

  /** Counts of the writes not folded into the insights yet (insights/insight-pending.ts); null when none. */
  @Column({ name: 'pending_insights', type: 'text', nullable: true })
  pendingInsights: string | null;

  /** When the oldest of them was written; null when none. */
  @Column({ name: 'pending_since', type: 'bigint', nullable: true })
  pendingSince: number | null;

  /** What the insights counted of the user's lists, per CTA, beyond the stored lists (insights/insight-changes.ts); null when none. */
  @Column({ name: 'insight_marks', type: 'text', nullable: true })
  insightMarks: string | null;

  /** The user's recent actions across all CTAs, which the exposure cap counts (recent-actions.ts); null when none. */
  @Column({ name: 'recent_actions', type: 'text', nullable: true })
  recentActions: string | null;
}
