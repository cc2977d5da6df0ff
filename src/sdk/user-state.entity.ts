import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One app user's SDK state in one tenant (docs/decisions/0006-user-state-merge.md): a single document per
 * (tenant, user), so a launch reads it with one primary-key lookup. Read and
 * written through `UserStateStore` (raw prepared statements on the hot path);
 * the entity describes the table for hosts and tooling.
 */
@Entity({ name: 'sdk_user_states' })
export class UserStateEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId: string;

  /** Signed 64-bit user id as its decimal string. */
  @PrimaryColumn({ name: 'user_id', type: 'varchar', length: 20 })
  userId: string;

  /** Per CTA the state machines, resetAt, actionDoneAt; per behaviour tag activeCtas, ctasResetAt (see user-state.ts). */
  @Column({ type: 'text' })
  state: string;

  /** Bumped by every write; a merge updates only the version it read (optimistic concurrency). */
  @Column({ type: 'bigint' })
  version: number;

  @Column({ name: 'updated_at', type: 'bigint' })
  updatedAt: number;
}
