import { Column, Entity, PrimaryColumn } from 'typeorm';
import { AuthoredRow } from '../database/entity-columns';
import { jsonTransformer } from '../database/transformers';
import type { CtaRelation, TagExposureRule } from './behaviour-tag.types';

/** A behaviour tag (docs/decisions/0004-behaviour-tags.md); its linked CTAs live in `behaviour_tag_ctas`. */
@Entity({ name: 'behaviour_tags' })
export class BehaviourTagEntity extends AuthoredRow {
  @PrimaryColumn({ name: 'tenant_id', type: 'varchar', length: 64 })
  tenantId: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ name: 'exposure_rule', type: 'text', transformer: jsonTransformer })
  exposureRule: TagExposureRule;

  /** CTA ids inside are strings. */
  @Column({ name: 'cta_relation', type: 'text', transformer: jsonTransformer })
  ctaRelation: CtaRelation;
}
