import { Entity, Index, PrimaryColumn } from 'typeorm';
import { CtaRow } from '../database/entity-columns';

/** One categorisation tag of a CTA; a link table so the `tags` filter runs in SQL. */
@Entity({ name: 'cta_tags' })
@Index('ix_cta_tags_tenant_tag', ['tenantId', 'tag', 'ctaId'])
export class CtaTagEntity extends CtaRow {
  @PrimaryColumn({ type: 'varchar', length: 255 })
  tag: string;
}
