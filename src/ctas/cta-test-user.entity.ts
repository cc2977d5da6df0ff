import { Entity, Index, PrimaryColumn } from 'typeorm';

/** A user a test CTA is served to (docs/decisions/0005-test-ctas.md); keyed for the launch lookup by user. */
@Entity({ name: 'cta_test_users' })
@Index('ix_cta_test_users_tenant_cta', ['tenantId', 'ctaId'])
export class CtaTestUserEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId: string;

  /** Signed 64-bit user id as its decimal string. */
  @PrimaryColumn({ name: 'user_id', type: 'varchar', length: 20 })
  userId: string;

  @PrimaryColumn({ name: 'cta_id', type: 'bigint' })
  ctaId: number;
}
