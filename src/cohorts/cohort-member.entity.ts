import { Entity, Index, PrimaryColumn } from 'typeorm';

/** A user in one generation of a static cohort's member list (docs/decisions/0008-cohorts.md). */
@Entity({ name: 'cohort_members' })
@Index('ix_cohort_members_tenant_user', ['tenantId', 'userId', 'cohortId', 'generation'])
export class CohortMemberEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId: string;

  @PrimaryColumn({ name: 'cohort_id', type: 'bigint' })
  cohortId: number;

  @PrimaryColumn({ type: 'bigint' })
  generation: number;

  /** Signed 64-bit user id as its decimal string. */
  @PrimaryColumn({ name: 'user_id', type: 'varchar', length: 20 })
  userId: string;
}
