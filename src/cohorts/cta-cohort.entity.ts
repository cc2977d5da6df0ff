import { Entity, Index, PrimaryColumn } from 'typeorm';

/** A cohort name in a CTA's `cohortEligibility` (includes or excludes): the cohorts' `usedBy`, queried on real columns. */
@Entity({ name: 'cta_cohorts' })
@Index('ix_cta_cohorts_tenant_cta', ['tenantId', 'ctaId'])
export class CtaCohortEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId: string;

  @PrimaryColumn({ name: 'cohort_name', type: 'varchar', length: 255 })
  cohortName: string;

  @PrimaryColumn({ name: 'cta_id', type: 'bigint' })
  ctaId: number;
}
