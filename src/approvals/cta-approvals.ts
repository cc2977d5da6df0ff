import { EntityManager, In } from 'typeorm';
import { CtaApprovalEntity } from './cta-approval.entity';

// What the ctas feature reads of approvals, for the records the admin API shows. Functions on the
// caller's `manager` rather than a provider: the approvals module imports the ctas module.

/** An approval as the admin API shows it: the key that approved the CTA's current content, and when. */
export interface CtaApproval {
  by: string;
  at: number;
}

/** An approval as stored: of one content revision. */
export interface StoredApproval extends CtaApproval {
  contentRevision: number;
}

/** The stored approvals of the given CTAs, by CTA id: one query. */
export async function approvalsOf(manager: EntityManager, tenantId: string, ctaIds: number[]): Promise<Map<number, StoredApproval>> {
  const rows = ctaIds.length === 0 ? [] : await manager.find(CtaApprovalEntity, { where: { tenantId, ctaId: In(ctaIds) } });
  return new Map(
    rows.map((row) => [Number(row.ctaId), { contentRevision: row.contentRevision, by: row.approvedBy, at: Number(row.approvedAt) }]),
  );
}

/** The approval of the CTA's current content: a stored one of an earlier revision was voided by the change since. */
export const approvalOfContent = (stored: StoredApproval | undefined, contentRevision: number): CtaApproval | null =>
  stored !== undefined && stored.contentRevision === contentRevision ? { by: stored.by, at: stored.at } : null;
