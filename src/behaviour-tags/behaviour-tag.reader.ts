import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import { BehaviourTagCtaEntity } from './behaviour-tag-cta.entity';
import { BehaviourTagEntity } from './behaviour-tag.entity';

export type BehaviourTagLinkRow = Pick<BehaviourTagCtaEntity, 'ctaId' | 'tagName'>;
export type CatalogueTagRow = Pick<BehaviourTagEntity, 'name' | 'exposureRule' | 'ctaRelation'>;

/** What other features read of behaviour tags: their definitions for the SDK catalogue, and which tag links which CTA. */
@Injectable()
export class BehaviourTagReader {
  constructor(@InjectOrchestrationDataSource() private readonly dataSource: DataSource) {}

  /** The tenant's tags as the SDK catalogue needs them. */
  tagsOf(tenantId: string): Promise<CatalogueTagRow[]> {
    return this.dataSource.manager.find(BehaviourTagEntity, {
      select: { name: true, exposureRule: true, ctaRelation: true },
      where: { tenantId },
    });
  }

  /** Every link of the tenant. */
  linksOf(tenantId: string): Promise<BehaviourTagLinkRow[]> {
    return this.dataSource.manager.find(BehaviourTagCtaEntity, { select: { ctaId: true, tagName: true }, where: { tenantId } });
  }

  /** The links of the given CTAs, read through `manager` (the caller's transaction, if any). */
  linksOfCtas(manager: EntityManager, tenantId: string, ctaIds: number[]): Promise<BehaviourTagLinkRow[]> {
    return manager.find(BehaviourTagCtaEntity, { where: { tenantId, ctaId: In(ctaIds) } });
  }

  /** Narrows `query` to the CTAs (aliased `ctaAlias`) that tag `tagName` links: one EXISTS on the link key. */
  whereLinkedTo<T extends object>(query: SelectQueryBuilder<T>, ctaAlias: string, tagName: string): SelectQueryBuilder<T> {
    return query.andWhere(
      (outer) =>
        `EXISTS ${outer
          .subQuery()
          .select('1')
          .from(BehaviourTagCtaEntity, 'btc')
          .where(`btc.tenantId = ${ctaAlias}.tenantId AND btc.ctaId = ${ctaAlias}.id AND btc.tagName = :behaviourTag`)
          .getQuery()}`,
      { behaviourTag: tagName },
    );
  }
}
