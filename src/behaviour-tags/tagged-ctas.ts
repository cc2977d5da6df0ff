import type { EntityManager } from 'typeorm';
import type { CtaStatus } from '../cta-lifecycle/cta-statuses';

/** A CTA a tag links or would link, as the tag rules read it. */
export interface TaggedCtaRow {
  id: number;
  status: CtaStatus;
  isTest: boolean;
}

/**
 * What behaviour tags ask of the CTAs they link (a port: the ctas feature answers it, bound in
 * src/orchestration-ports.ts; docs/decisions/0027-one-way-features-and-ports.md).
 */
export abstract class TaggedCtas {
  /** The tenant's CTAs among `ids`, locked for the rest of the transaction in ascending id order. */
  abstract lockStates(manager: EntityManager, tenantId: string, ids: number[]): Promise<TaggedCtaRow[]>;
}
