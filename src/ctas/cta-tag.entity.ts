import { Entity, Index, PrimaryColumn } from 'typeorm';

/** One categorisation tag of a CTA; a link table so the `tags` filter runs in SQL. */
@Entity({ name: 'cta_tags' })
@Index('ix_cta_tags_tenant_tag', ['tenantId', 'tag', 'ctaId'])
export class CtaTagEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId: string;

  @PrimaryColumn({ name: 'cta_id', type: 'bigint' })
  ctaId: number;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  tag: string;
}
