import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ChangeOrigin } from '../audit/audit.types';
import { Clock } from '../common/clock';
import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import { parseCtaId, unknownCta } from '../common/cta-id';
import { CtaRecords } from '../ctas/cta-records.service';
import { TransactionRunner } from '../database/transaction-runner';
import { InjectSettings, OrchestrationSettings } from '../orchestration-options';
import { approvalRefusal, approvalsOff, unapprovedRefusal, UNNAMED_APPROVER } from './approval-rules';
import { CtaApprovalEntity } from './cta-approval.entity';
import { approvalOfContent } from '../cta-lifecycle/content-approvals';
import { approvalsOf } from './cta-approvals';

/** What going live asks of approvals: the content revision that may go live, or why none may. */
export type GoLiveApproval = { approvedRevision: number; refusal: null } | { approvedRevision: null; refusal: string };

/**
 * Approvals (four eyes, docs/decisions/0015-approvals.md). An approval names the content revision it
 * approves; every content change makes a new revision, so an approval never covers content its key did
 * not see, however requests race: the status change going live pins the approved revision in its
 * conditional UPDATE.
 */
@Injectable()
export class ApprovalsService {
  constructor(
    @InjectSettings() private readonly settings: OrchestrationSettings,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
    private readonly records: CtaRecords,
  ) {}

  /** Records the calling key's approval of the CTA's current content, with its audit entry. */
  async approve(tenantId: string, rawId: string, origin: ChangeOrigin): Promise<void> {
    const id = parseCtaId(rawId);
    if (!this.settings.approvalsRequired) {
      throw new DomainError(ErrorCode.APPROVAL_INVALID, approvalsOff(id));
    }
    const approver = origin.actor;
    if (approver === null) {
      throw new DomainError(ErrorCode.APPROVAL_INVALID, UNNAMED_APPROVER);
    }
    await this.transactions.run(async (manager) => {
      // Locked: an edit waits for the approval (then voids it) or goes first (and is what gets approved).
      const cta = await this.records.contentState(manager, tenantId, id, { locked: true });
      if (!cta) {
        throw unknownCta(id);
      }
      const refusal = approvalRefusal(cta, approver);
      if (refusal !== null) {
        throw new DomainError(ErrorCode.APPROVAL_INVALID, refusal);
      }
      const before = await this.records.load(manager, tenantId, id);
      await manager.upsert(
        CtaApprovalEntity,
        { tenantId, ctaId: id, contentRevision: cta.contentRevision, approvedBy: approver, approvedAt: this.clock.now() },
        ['tenantId', 'ctaId'],
      );
      await this.records.recordChanges(manager, origin, 'approve', [{ id, tenantId, before }]);
    });
  }

  /**
   * What CTA `id` (of the tenant, not a test CTA) needs to go live or be scheduled, read in the status
   * change's transaction; null when approvals are off (it needs nothing).
   */
  async goLiveApproval(manager: EntityManager, tenantId: string, id: number): Promise<GoLiveApproval | null> {
    if (!this.settings.approvalsRequired) {
      return null;
    }
    const cta = await this.records.contentState(manager, tenantId, id);
    if (!cta) {
      throw unknownCta(id);
    }
    const stored = (await approvalsOf(manager, tenantId, [id])).get(id);
    return approvalOfContent(stored, cta.contentRevision) !== null
      ? { approvedRevision: cta.contentRevision, refusal: null }
      : { approvedRevision: null, refusal: unapprovedRefusal(cta, stored) };
  }
}
