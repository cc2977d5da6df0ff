import { Column, Entity, Index } from 'typeorm';
import { CtaRow } from '../database/entity-columns';

/**
 * The link of a CTA to its behaviour tag. The primary key (tenant, CTA) is what
 * makes "a CTA belongs to at most one tag" hold under concurrent requests.
 */
@Entity({ name: 'behaviour_tag_ctas' })
@Index('ix_behaviour_tag_ctas_tenant_tag', ['tenantId', 'tagName'])
export class BehaviourTagCtaEntity extends CtaRow {
  @Column({ name: 'tag_name', type: 'varchar', length: 255 })
  tagName: string;
}
