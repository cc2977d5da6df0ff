import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { forUpdate } from '../database/row-lock';
import { CtaEntity } from './cta.entity';
import type { CtaStatus } from '../cta-lifecycle/cta-statuses';

// What other features' transactions need of the `ctas` table. Functions on the caller's
// `manager` rather than a provider: CtasModule imports those features' modules.

/** The tenant's CTAs among `ids` (id, status, test flag), locked for the rest of the transaction in ascending id order. */
export async function lockCtaStates(
  manager: EntityManager,
  tenantId: string,
  ids: number[],
): Promise<Pick<CtaEntity, 'id' | 'status' | 'isTest'>[]> {
  if (ids.length === 0) {
    return [];
  }
  return forUpdate(
    manager
      .createQueryBuilder(CtaEntity, 'cta')
      .select(['cta.id', 'cta.status', 'cta.isTest'])
      .where('cta.tenantId = :tenantId AND cta.id IN (:...ids)', { tenantId, ids })
      .orderBy('cta.id', 'ASC'),
  ).getMany();
}

/** What an approval looks at of a CTA: its status, whether it is a test CTA, its content revision and who made it. */
export type CtaContentState = Pick<CtaEntity, 'id' | 'status' | 'isTest' | 'contentRevision' | 'contentChangedBy'>;

/** The tenant's CTA of that id, normal or test; `locked` takes the row's lock for the rest of the transaction. */
export async function ctaContentState(
  manager: EntityManager,
  tenantId: string,
  id: number,
  { locked = false } = {},
): Promise<CtaContentState | null> {
  const query = manager
    .createQueryBuilder(CtaEntity, 'cta')
    .select(['cta.id', 'cta.status', 'cta.isTest', 'cta.contentRevision', 'cta.contentChangedBy'])
    .where('cta.tenantId = :tenantId AND cta.id = :id', { tenantId, id });
  const cta = await (locked ? forUpdate(query) : query).getOne();
  return cta && { ...cta, id: Number(cta.id) };
}

/** Narrows `query` to rows whose CTA (`<alias>.tenantId`, `<alias>.ctaId`) is in one of `statuses`. */
export function whereCtaStatusIn<T extends object>(
  query: SelectQueryBuilder<T>,
  alias: string,
  statuses: readonly CtaStatus[],
): SelectQueryBuilder<T> {
  return query.andWhere(
    (outer) =>
      `EXISTS ${outer
        .subQuery()
        .select('1')
        .from(CtaEntity, 'linked_cta')
        .where(`linked_cta.tenantId = ${alias}.tenantId AND linked_cta.id = ${alias}.ctaId AND linked_cta.status IN (:...ctaStatuses)`)
        .getQuery()}`,
    { ctaStatuses: statuses },
  );
}

/**
 * Ids of the tenant's CTAs in one of `statuses` whose rule reacts to the event `eventName` (a key of its
 * `stateTransition`), ascending; test CTAs count until they expire at `now`. The rule text is searched for
 * the quoted name first, so only the rules that mention it are parsed.
 */
export async function ctasReactingTo(
  manager: EntityManager,
  tenantId: string,
  eventName: string,
  statuses: readonly CtaStatus[],
  now: number,
): Promise<number[]> {
  const rows = await manager
    .createQueryBuilder(CtaEntity, 'cta')
    .select(['cta.id', 'cta.rule', 'cta.isTest', 'cta.expiresAt'])
    .where('cta.tenantId = :tenantId AND cta.status IN (:...statuses)', { tenantId, statuses })
    .andWhere("cta.rule LIKE :quoted ESCAPE '!'", { quoted: `%${JSON.stringify(eventName).replace(/[!%_]/g, '!$&')}%` })
    .orderBy('cta.id', 'ASC')
    .getMany();
  return rows
    .filter((cta) => !cta.isTest || (cta.expiresAt !== null && cta.expiresAt > now))
    .filter(({ rule }) => Object.hasOwn(rule.stateTransition, eventName))
    .map((cta) => cta.id);
}
