import type { SelectQueryBuilder } from 'typeorm';
import type { CtaStatus } from '../cta-lifecycle/cta-statuses';

/**
 * What cohorts ask of the CTAs that name them (a port: the ctas feature answers it, bound in
 * src/orchestration-ports.ts; docs/decisions/0027-one-way-features-and-ports.md).
 */
export abstract class CohortCtas {
  /** Narrows `query` to rows whose CTA (`<alias>.tenantId`, `<alias>.ctaId`) is in one of `statuses`. */
  abstract whereCtaStatusIn<T extends object>(
    query: SelectQueryBuilder<T>,
    alias: string,
    statuses: readonly CtaStatus[],
  ): SelectQueryBuilder<T>;
}
