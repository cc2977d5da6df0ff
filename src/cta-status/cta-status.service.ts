import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ApprovalsService, GoLiveApproval } from '../approvals/approvals.service';
import { ChangeOrigin, SCHEDULER_ORIGIN } from '../audit/audit.types';
import { CatalogueRevisionService } from '../catalogue/catalogue-revision.service';
import { Clock, describeInstant } from '../common/clock';
import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import { PeriodicJobsService, runInBatches } from '../scheduling/periodic-jobs.service';
import { parseCtaId, unknownCta } from '../common/cta-id';
import type { CtaRecord } from '../ctas/cta-record';
import { CtaRecords } from '../ctas/cta-records.service';
// The one shared table: ctas owns the rows, this feature their `status` column (docs/decisions/0023-feature-folders-and-boundaries.md).
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- the one shared table (above)
import { CtaEntity } from '../ctas/cta.entity';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import {
  isStatusAction,
  STATUS_ACTIONS,
  StatusAction,
  TIMED_TRANSITIONS,
  TimedTransition,
  TRANSITIONS,
} from '../cta-lifecycle/cta-transitions';

const isDue = (cta: CtaRecord, timed: TimedTransition, now: number): boolean =>
  timed.from.includes(cta.ctaStatus) && cta[timed.dueAt] !== null && (cta[timed.dueAt] as number) <= now;

/**
 * The only writer of a CTA's status after creation (docs/decisions/0002-status-lifecycle-and-live-edits.md). Every change is
 * one conditional UPDATE (`… WHERE id AND tenant_id AND status IN (allowed sources)`),
 * so of concurrent conflicting requests exactly one matches a row; the others
 * match none and get CTA_STATUS_UPDATE_INVALID. The timed transitions are
 * conditional updates too, so any number of instances may run them at once.
 */
@Injectable()
export class CtaStatusService implements OnModuleInit {
  constructor(
    @InjectOrchestrationDataSource() private readonly dataSource: DataSource,
    private readonly catalogue: CatalogueRevisionService,
    private readonly clock: Clock,
    private readonly periodicJobs: PeriodicJobsService,
    private readonly records: CtaRecords,
    private readonly approvals: ApprovalsService,
  ) {}

  onModuleInit(): void {
    this.periodicJobs.register('cta-timed-transitions', () => this.runTimedTransitions());
  }

  async change(tenantId: string, rawId: string, action: string, origin: ChangeOrigin): Promise<void> {
    if (!isStatusAction(action)) {
      throw new DomainError(ErrorCode.CTA_STATUS_INVALID, `unknown status action '${action}'; use one of ${STATUS_ACTIONS.join(', ')}`);
    }
    const id = parseCtaId(rawId);
    const transition = TRANSITIONS[action];
    const now = this.clock.now();
    await this.catalogue.write(tenantId, async (manager) => {
      // Locked first, so the audit's `before` and a refusal's reason are the row the conditional update saw.
      const before = await this.records.load(manager, tenantId, id, { locked: true });
      const update = manager
        .createQueryBuilder()
        .update(CtaEntity)
        .set({ status: transition.to, ...(transition.stamps ? { [transition.stamps]: now } : {}) })
        .where('tenantId = :tenantId AND id = :id AND isTest = :isTest AND status IN (:...from)', {
          tenantId,
          id,
          isTest: false,
          from: transition.from,
        });
      if (transition.needsFutureStart) {
        update.andWhere('startTime IS NOT NULL AND startTime >= :now', { now });
      }
      const approval = before && transition.needsApproval ? await this.approvals.goLiveApproval(manager, tenantId, id) : null;
      if (approval) {
        // Only the approved content goes live: pinned here, an edit committed since (through another node
        // of a multi-primary cluster) matches no row. Without an approval (null) nothing matches.
        update.andWhere('contentRevision = :approvedRevision', { approvedRevision: approval.approvedRevision });
      }
      const { affected } = await update.execute();
      if (!affected) {
        throw refusal(id, before, action, now, approval);
      }
      await this.records.recordChanges(manager, origin, action, [{ id, tenantId, before }]);
    });
  }

  /**
   * scheduled → live at startTime, live|paused → concluded at endTime; idempotent.
   * Set-based over all tenants (docs/decisions/0007-catalogue-cache-and-periodic-jobs.md): each batch is one read of up to
   * JOB_BATCH_ROWS due CTAs, one conditional update of them, their audit entries
   * (actor `scheduler`) and one bump of their tenants' revisions, so an idle run is
   * one indexed read a transition.
   */
  async runTimedTransitions(): Promise<void> {
    const now = this.clock.now();
    for (const timed of TIMED_TRANSITIONS) {
      await runInBatches(
        (limit) =>
          this.dueQuery(this.dataSource.manager, timed, now)
            .select(['cta.id', 'cta.tenantId'])
            .orderBy(`cta.${timed.dueAt}`)
            .limit(limit)
            .getMany(),
        (due) =>
          this.catalogue.writeMany(
            due.map((cta) => cta.tenantId),
            async (manager) => {
              // The batch again, under its rows' locks: the CTAs still due move, each with its entry as the scheduler's.
              const locked = await this.records.loadById(
                manager,
                due.map((cta) => Number(cta.id)),
                { locked: true },
              );
              const moving = [...locked.values()].filter((cta) => isDue(cta, timed, now));
              if (moving.length === 0) {
                return;
              }
              await manager
                .createQueryBuilder()
                .update(CtaEntity)
                .set({ status: timed.to })
                .where('id IN (:...ids) AND isTest = :isTest AND status IN (:...from)', {
                  ids: moving.map((cta) => cta.id),
                  isTest: false,
                  from: timed.from,
                })
                .andWhere(`${timed.dueAt} <= :now`, { now })
                .execute();
              await this.records.recordChanges(
                manager,
                SCHEDULER_ORIGIN,
                timed.action,
                moving.map((cta) => ({ id: cta.id, tenantId: cta.tenantId, before: cta })),
              );
            },
          ),
      );
    }
  }

  /** CTAs of any tenant whose timed transition is due (index `ix_ctas_due_start` / `ix_ctas_due_end`). */
  private dueQuery(manager: EntityManager, timed: TimedTransition, now: number) {
    return manager
      .createQueryBuilder(CtaEntity, 'cta')
      .where('cta.isTest = :isTest AND cta.status IN (:...from)', { isTest: false, from: timed.from })
      .andWhere(`cta.${timed.dueAt} IS NOT NULL AND cta.${timed.dueAt} <= :now`, { now });
  }
}

/**
 * Why the conditional update matched nothing, from the row as locked before it: no such CTA,
 * a disallowed source status (the target status itself: "already live"), (for `/schedule`) no
 * start time or one in the past, or (approvals required) no approval of the current content.
 */
function refusal(id: number, cta: CtaRecord | null, action: StatusAction, now: number, approval: GoLiveApproval | null): Error {
  if (!cta) {
    return unknownCta(id);
  }
  const transition = TRANSITIONS[action];
  if (!transition.from.includes(cta.ctaStatus)) {
    // The real admin panel sends /live or /schedule after saving an edit of a CTA already in that status and shows this
    // message as a toast, the edit being saved: it says so, lest the operator take it for a failed save.
    const message =
      cta.ctaStatus === transition.to
        ? `CTA ${id} is already ${cta.ctaStatus}; nothing to change`
        : `cannot move CTA ${id} from ${cta.ctaStatus} to ${transition.to}`;
    return new DomainError(ErrorCode.CTA_STATUS_UPDATE_INVALID, message);
  }
  if (transition.needsFutureStart && (cta.startTime === null || cta.startTime < now)) {
    return new DomainError(
      ErrorCode.CTA_STATUS_UPDATE_INVALID,
      cta.startTime === null
        ? `cannot ${action} CTA ${id}: it has no startTime`
        : `cannot ${action} CTA ${id}: its startTime ${describeInstant(cta.startTime)} is in the past (now ${describeInstant(now)})`,
    );
  }
  if (approval) {
    // Approved content changed between the read and the update: only where row locks do not reach (another cluster node).
    return new DomainError(
      ErrorCode.CTA_STATUS_UPDATE_INVALID,
      approval.refusal ?? `CTA ${id} changed during the ${action}; send it again`,
    );
  }
  // The locked row allowed the move, so the update cannot have missed it: a bug, not a refusal.
  return new Error(`CTA ${id}: the ${action} update matched no row its lock allowed`);
}
