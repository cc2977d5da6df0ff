import { Entity, PrimaryColumn } from 'typeorm';

/** The gateway's own table: app users on a paid plan, per tenant. */
@Entity({ name: 'gateway_premium_members' })
export class PremiumMemberEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId: string;

  @PrimaryColumn({ name: 'user_id', type: 'varchar', length: 64 })
  userId: string;
}
