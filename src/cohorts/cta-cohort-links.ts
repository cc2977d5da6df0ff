import type { EntityManager } from 'typeorm';
import { COHORT_NAME_PATTERN } from './cohort-name';
import type { CohortEligibility } from './cohort-provider';
import { CtaCohortEntity } from './cta-cohort.entity';

/**
 * Records which cohorts a CTA's `cohortEligibility` names, in the CTA's write transaction:
 * a cohort's `usedBy` and the in-use check of its delete read these rows (docs/decisions/0008-cohorts.md).
 */
export async function writeCtaCohortLinks(
  manager: EntityManager,
  tenantId: string,
  ctaId: number,
  eligibility: CohortEligibility,
  { replacing }: { replacing: boolean },
): Promise<void> {
  // Only an update has links to drop: a DELETE of absent rows would take gap locks that make
  // concurrent creates deadlock on MySQL/MariaDB.
  if (replacing) await manager.delete(CtaCohortEntity, { tenantId, ctaId });
  // Only names a cohort can have (a host provider's names may be anything).
  const names = [...new Set([...eligibility.includes, ...eligibility.excludes])].filter((name) => COHORT_NAME_PATTERN.test(name));
  if (names.length > 0) {
    await manager.insert(
      CtaCohortEntity,
      names.map((cohortName) => ({ tenantId, cohortName, ctaId })),
    );
  }
}
