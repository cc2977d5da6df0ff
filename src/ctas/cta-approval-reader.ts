import type { EntityManager } from 'typeorm';
import type { StoredApproval } from '../cta-lifecycle/content-approvals';

/**
 * The stored approvals a CTA record shows while approvals are required (a port: the approvals feature
 * answers it, bound in src/orchestration-ports.ts; docs/decisions/0027-one-way-features-and-ports.md).
 */
export abstract class CtaApprovalReader {
  /** The stored approvals of the given CTAs, by CTA id: one query. */
  abstract approvalsOf(manager: EntityManager, tenantId: string, ctaIds: number[]): Promise<Map<number, StoredApproval>>;
}
