import type { EntityManager } from 'typeorm';
import type { CtaStatus } from '../cta-lifecycle/cta-statuses';

/**
 * What event definitions ask of the CTAs whose rules react to them (a port: the ctas feature answers it,
 * bound in src/orchestration-ports.ts; docs/decisions/0027-one-way-features-and-ports.md).
 */
export abstract class EventCtas {
  /**
   * Ids of the tenant's CTAs in one of `statuses` whose rule reacts to the event `eventName` (a key of
   * its `stateTransition`), ascending; test CTAs count until they expire at `now`.
   */
  abstract reactingTo(
    manager: EntityManager,
    tenantId: string,
    eventName: string,
    statuses: readonly CtaStatus[],
    now: number,
  ): Promise<number[]>;
}
