import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AuditLog, recordedVersion } from '../audit/audit-log.service';
import type { AuditAction, ChangeOrigin } from '../audit/audit.types';
import { CatalogueRevisionService } from '../catalogue/catalogue-revision.service';
import { Clock } from '../common/clock';
import { writeCtaCohortLinks } from '../cohorts/cta-cohort-links';
import { DomainError, invalidRequest } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import { fieldProblemsText, joinProblems } from '../common/problems';
import { isLiveEdit, planCtaEdit } from '../cta-lifecycle/cta-edit-plan';
import { insertDocuments, updateDocuments } from '../database/document-writes';
import { isDuplicateKeyError } from '../database/duplicate-key';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import { forUpdate } from '../database/row-lock';
import { InjectSettings, OrchestrationSettings } from '../orchestration-options';
import { parseCtaId, parseCtaIdValue, unknownCta } from '../common/cta-id';
import { type CtaRecord, editableFields } from './cta-record';
import { CtaRecords } from './cta-records.service';
import { CtaExperiment, sameExperiment, storedExperiment } from './cta-experiment';
import { checkCtaBody } from './cta-body-check';
import { ctaTimeBounds } from './cta-time-bounds';
import { CtaTagEntity } from './cta-tag.entity';
import { CtaEntity, ruleColumnValue } from './cta.entity';
import type { CtaRule } from '../rule/rule.types';
import type { CreateCtaDto, CtaFieldsDto, UpdateCtaDto } from './dto/cta-body.dto';

/** A create or update body after validation: what gets written. */
interface CtaFields {
  tags: string[];
  team: string;
  rule: CtaRule;
  /** Undefined: the body left it out (an update keeps the stored one). */
  experiment: CtaExperiment | null | undefined;
}

/**
 * CTA create, read and update (docs/decisions/0002-status-lifecycle-and-live-edits.md). Writes go through
 * `CatalogueRevisionService.write`: one transaction that also bumps the
 * tenant's catalogue revision. Status is owned by `CtaStatusService`; a new CTA
 * starts in `draft`.
 */
@Injectable()
export class CtasService {
  constructor(
    @InjectOrchestrationDataSource() private readonly dataSource: DataSource,
    @InjectSettings() private readonly settings: OrchestrationSettings,
    private readonly catalogue: CatalogueRevisionService,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
    private readonly records: CtaRecords,
  ) {}

  async create(tenantId: string, user: string, body: CreateCtaDto, origin: ChangeOrigin): Promise<number> {
    const now = this.clock.now();
    const fields = this.validFields(body, now);
    const row: Omit<CtaEntity, 'id'> = {
      tenantId,
      name: body.name,
      description: body.description ?? null,
      team: fields.team,
      status: 'draft',
      startTime: body.startTime ?? null,
      endTime: body.endTime ?? null,
      rule: fields.rule,
      experiment: fields.experiment ?? null,
      capExempt: body.capExempt ?? false,
      isTest: false,
      expiresAt: null,
      createdAt: now,
      createdBy: user,
      lastUpdatedAt: null,
      lastUpdatedBy: null,
      contentRevision: 1,
      contentChangedBy: origin.actor,
    };
    try {
      return await this.catalogue.write(tenantId, async (manager) => {
        const { insertId: id } = await insertDocuments(manager, CtaEntity, [row]);
        await this.writeTags(manager, tenantId, id, fields.tags);
        await writeCtaCohortLinks(manager, tenantId, id, fields.rule.cohortEligibility, { replacing: false });
        await this.records.recordWritten(manager, origin, 'create', null, { ...row, id });
        return id;
      });
    } catch (error) {
      // The (tenant_id, is_test, name) key decides, also between two racing creates.
      if (isDuplicateKeyError(error)) {
        throw new DomainError(ErrorCode.CTA_DUPLICATE_NAME, `a CTA named '${body.name}' already exists`);
      }
      throw error;
    }
  }

  async update(tenantId: string, user: string, rawId: string, body: UpdateCtaDto, origin: ChangeOrigin): Promise<void> {
    await this.edit(tenantId, user, parseCtaId(rawId), body, origin, 'update');
  }

  /**
   * Puts the editable fields back to an audit entry's `after` (docs/decisions/0009-audit-in-the-same-transaction.md): an update in every
   * respect (the same validation and status rules, live edits included), recorded as a `restore`.
   */
  async restore(tenantId: string, user: string, rawId: string, rawAuditId: string, origin: ChangeOrigin): Promise<void> {
    const id = parseCtaId(rawId);
    const auditId = parseCtaIdValue(rawAuditId);
    const entry = auditId === null ? null : await this.audit.entry(this.dataSource.manager, tenantId, auditId);
    const version = recordedVersion(entry, 'cta', String(id)) as CtaRecord | null;
    if (version === null) {
      if (!(await this.dataSource.manager.existsBy(CtaEntity, { tenantId, id, isTest: false }))) {
        throw unknownCta(id);
      }
      throw invalidRequest(`audit entry '${rawAuditId}' is not an entry of CTA ${id}`);
    }
    await this.edit(tenantId, user, id, editableFields(version), origin, 'restore');
  }

  /**
   * An update or restore. Draft and paused CTAs take any valid body; live and scheduled ones a body
   * devices can absorb (see `editRefusal`). Checked under the row's lock, so a status change cannot
   * slip between the checks and the write, and written only while the status is still the one checked.
   */
  private async edit(
    tenantId: string,
    user: string,
    id: number,
    body: CtaFieldsDto,
    origin: ChangeOrigin,
    action: AuditAction,
  ): Promise<void> {
    const now = this.clock.now();
    await this.catalogue.write(tenantId, async (manager) => {
      const current = await forUpdate(
        manager
          .createQueryBuilder(CtaEntity, 'cta')
          .where('cta.tenantId = :tenantId AND cta.id = :id AND cta.isTest = :isTest', { tenantId, id, isTest: false }),
      ).getOne();
      if (!current) {
        throw unknownCta(id);
      }
      // A live or scheduled CTA's times follow its status (editRefusal) rather than the window's lower bound.
      const fields = this.validFields(body, now, { pastAllowed: isLiveEdit(current) });
      const experiment = fields.experiment === undefined ? current.experiment : fields.experiment;
      const plan = planCtaEdit(
        current,
        {
          rule: fields.rule,
          startTime: body.startTime,
          endTime: body.endTime,
          experimentChanged: !sameExperiment(current.experiment, experiment),
        },
        now,
        { approvalsRequired: this.settings.approvalsRequired },
      );
      if (plan.refusal !== undefined) {
        throw new DomainError(ErrorCode.CTA_STATUS_UPDATE_INVALID, plan.refusal);
      }
      if (plan.problem !== undefined) {
        throw invalidRequest(fieldProblemsText([plan.problem]));
      }
      const { startTime, endTime } = plan;
      const before = await this.records.recordOf(manager, current);
      const changes = {
        team: fields.team,
        rule: fields.rule,
        experiment,
        startTime,
        endTime,
        ...(body.description === undefined ? {} : { description: body.description }),
        ...(body.capExempt === undefined ? {} : { capExempt: body.capExempt }),
        lastUpdatedAt: now,
        lastUpdatedBy: user,
        contentChangedBy: origin.actor,
      };
      const { affected } = await updateDocuments(
        manager,
        manager
          .createQueryBuilder()
          .update(CtaEntity)
          .where({ tenantId, id, status: current.status })
          .set({
            ...changes,
            rule: ruleColumnValue(changes.rule),
            // A new revision: it voids any approval of the content before (docs/decisions/0015-approvals.md).
            contentRevision: () => 'content_revision + 1',
          }),
      );
      if (!affected) {
        // Only where row locks do not reach (another node of a multi-primary cluster): the status moved since the checks.
        throw new DomainError(
          ErrorCode.CTA_STATUS_UPDATE_INVALID,
          `CTA ${id} changed status while it was being edited; send the update again`,
        );
      }
      await manager.delete(CtaTagEntity, { tenantId, ctaId: id });
      await this.writeTags(manager, tenantId, id, fields.tags);
      await writeCtaCohortLinks(manager, tenantId, id, fields.rule.cohortEligibility, { replacing: true });
      // The row is locked (or, across a multi-primary cluster, certified at commit): the revision is the one read, plus one.
      await this.records.recordWritten(manager, origin, action, before, {
        ...current,
        ...changes,
        contentRevision: current.contentRevision + 1,
      });
    });
  }

  async get(tenantId: string, rawId: string): Promise<CtaRecord> {
    const id = parseCtaId(rawId);
    const cta = await this.records.load(this.dataSource.manager, tenantId, id);
    if (!cta) {
      throw unknownCta(id);
    }
    return cta;
  }

  /** Whether the tenant has a (non-test) CTA of exactly this name. */
  async nameTaken(tenantId: string, name: string): Promise<boolean> {
    return this.dataSource.manager.exists(CtaEntity, { where: { tenantId, isTest: false, name } });
  }

  /**
   * The fields create and update share, validated (the DTO checked their types): every problem of
   * the rule, the experiment and the times in one message.
   */
  private validFields(body: CtaFieldsDto, now: number, { pastAllowed = false } = {}): CtaFields {
    const { rule, problems, times } = checkCtaBody(body, { times: ctaTimeBounds(this.settings, now, { pastAllowed }) });
    if (rule === null || problems.length > 0 || times.length > 0) {
      throw invalidRequest([joinProblems(problems), fieldProblemsText(times)].filter(Boolean).join('; '));
    }
    const experiment = body.experiment === undefined ? undefined : storedExperiment(body.experiment);
    return { tags: [...new Set(body.tags)], team: body.team, rule, experiment };
  }

  private async writeTags(manager: EntityManager, tenantId: string, ctaId: number, tags: string[]): Promise<void> {
    if (tags.length > 0) {
      await manager.insert(
        CtaTagEntity,
        tags.map((tag) => ({ tenantId, ctaId, tag })),
      );
    }
  }
}
