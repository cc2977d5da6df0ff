import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import type { TaggedCtas } from '../behaviour-tags/tagged-ctas';
import type { CohortCtas } from '../cohorts/cohort-ctas';
import type { CtaStatus } from '../cta-lifecycle/cta-statuses';
import type { EventCtas } from '../events/event-ctas';
import { forUpdate } from '../database/row-lock';
import { CtaEntity } from './cta.entity';

// What features below ctas ask of the `ctas` table, each through a port of its own, answered here and bound
// in src/orchestration-ports.ts (docs/decisions/0027-one-way-features-and-ports.md).

export const taggedCtas: TaggedCtas = {
  async lockStates(manager: EntityManager, tenantId: string, ids: number[]) {
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
  },
};

export const cohortCtas: CohortCtas = {
  whereCtaStatusIn<T extends object>(query: SelectQueryBuilder<T>, alias: string, statuses: readonly CtaStatus[]): SelectQueryBuilder<T> {
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
  },
};

export const eventCtas: EventCtas = {
  /** The rule text is searched for the quoted name first, so only the rules that mention it are parsed. */
  async reactingTo(manager: EntityManager, tenantId: string, eventName: string, statuses: readonly CtaStatus[], now: number) {
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
  },
};
