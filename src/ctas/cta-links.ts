import { EntityManager, In } from 'typeorm';
import { BehaviourTagCtaEntity } from '../behaviour-tags/behaviour-tag-cta.entity';
import { CtaTagEntity } from './cta-tag.entity';
import type { CtaLinks } from './cta-record';

/** Each CTA's values, sorted; sorted here rather than in SQL, where ORDER BY made SQLite scan the tenant's whole tag index. */
function group(rows: { ctaId: number; value: string }[]): Map<number, string[]> {
  const byCta = new Map<number, string[]>();
  for (const { ctaId, value } of rows) {
    const id = Number(ctaId);
    byCta.set(id, [...(byCta.get(id) ?? []), value]);
  }
  for (const values of byCta.values()) {
    values.sort();
  }
  return byCta;
}

/** Tags and behaviour tag names of the given CTAs: two queries, whatever the number of CTAs. */
export async function loadCtaLinks(manager: EntityManager, tenantId: string, ctaIds: number[]): Promise<CtaLinks> {
  if (ctaIds.length === 0) {
    return { tags: new Map(), behaviourTags: new Map() };
  }
  const [tags, behaviourTags] = await Promise.all([
    manager.find(CtaTagEntity, { where: { tenantId, ctaId: In(ctaIds) } }),
    manager.find(BehaviourTagCtaEntity, { where: { tenantId, ctaId: In(ctaIds) } }),
  ]);
  return {
    tags: group(tags.map(({ ctaId, tag }) => ({ ctaId, value: tag }))),
    behaviourTags: group(behaviourTags.map(({ ctaId, tagName }) => ({ ctaId, value: tagName }))),
  };
}
