import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The link of a CTA to its behaviour tag. The primary key (tenant, CTA) is what
 * makes "a CTA belongs to at most one tag" hold under concurrent requests.
 */
@Entity({ name: 'behaviour_tag_ctas' })
@Index('ix_behaviour_tag_ctas_tenant_tag', ['tenantId', 'tagName'])
export class BehaviourTagCtaEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId: string;

  @PrimaryColumn({ name: 'cta_id', type: 'bigint' })
  ctaId: number;

  @Column({ name: 'tag_name', type: 'varchar', length: 255 })
  tagName: string;
}
