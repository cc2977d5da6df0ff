import { EntityManager, In } from 'typeorm';
import type { StoredApproval } from '../cta-lifecycle/content-approvals';
import type { CtaApprovalReader } from '../ctas/cta-approval-reader';
import { CtaApprovalEntity } from './cta-approval.entity';

/** The stored approvals of the given CTAs, by CTA id: one query. */
export async function approvalsOf(manager: EntityManager, tenantId: string, ctaIds: number[]): Promise<Map<number, StoredApproval>> {
  const rows = ctaIds.length === 0 ? [] : await manager.find(CtaApprovalEntity, { where: { tenantId, ctaId: In(ctaIds) } });
  return new Map(
    rows.map((row) => [Number(row.ctaId), { contentRevision: row.contentRevision, by: row.approvedBy, at: Number(row.approvedAt) }]),
  );
}

/** What the ctas feature's records read of approvals (bound in src/orchestration-ports.ts). */
export const ctaApprovalReader: CtaApprovalReader = { approvalsOf };
