import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AuditLog } from '../audit/audit-log.service';
import type { AuditAction, ChangeOrigin } from '../audit/audit.types';
import { CatalogueRevisionService } from '../catalogue/catalogue-revision.service';
import { Clock } from '../common/clock';
import { DomainError, invalidRequest } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import { EDITABLE_STATUSES } from '../cta-status/cta-transitions';
import { isDuplicateKeyError } from '../database/duplicate-key';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import { forUpdate } from '../database/row-lock';
import { InjectSettings, OrchestrationSettings } from '../orchestration-options';
import { recordCtaChanges } from './cta-audit';
import { parseCtaId, parseCtaIdValue, unknownCta } from './cta-id';
import { loadCtaRecord } from './cta-links';
import type { CtaRecord } from './cta-record';
import { validateCtaRule } from './cta-rule';
import { CtaTagEntity } from './cta-tag.entity';
import { CtaEntity, ruleColumnValue } from './cta.entity';
import type { CtaRule } from './cta.types';
import type { CreateCtaDto, CtaFieldsDto, UpdateCtaDto } from './dto/cta-body.dto';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A create or update body after validation: what gets written. */
interface CtaFields {
  tags: string[];
  team: string;
  rule: CtaRule;
}

/**
 * CTA create, read and update (DESIGN §5). Writes go through
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
  ) {}

  async create(tenantId: string, user: string, body: CreateCtaDto, origin: ChangeOrigin): Promise<number> {
    const fields = this.validFields(body);
    const now = this.clock.now();
    this.checkCreateTimes(body, now);
    try {
      return await this.catalogue.write(tenantId, async (manager) => {
        const inserted = await manager.insert(CtaEntity, {
          tenantId,
          name: body.name,
          description: body.description ?? null,
          team: fields.team,
          status: 'draft',
          startTime: body.startTime ?? null,
          endTime: body.endTime ?? null,
          rule: ruleColumnValue(fields.rule),
          isTest: false,
          expiresAt: null,
          createdAt: now,
          createdBy: user,
          lastUpdatedAt: null,
          lastUpdatedBy: null,
        });
        const id = Number(inserted.identifiers[0].id);
        await this.writeTags(manager, tenantId, id, fields.tags);
        await recordCtaChanges(this.audit, manager, origin, 'create', [{ id, tenantId, before: null }]);
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
   * Puts the editable fields back to an audit entry's `after` (DESIGN §20): an update in every
   * respect (draft or paused only, the same validation), recorded as a `restore`.
   */
  async restore(tenantId: string, user: string, rawId: string, rawAuditId: string, origin: ChangeOrigin): Promise<void> {
    const id = parseCtaId(rawId);
    const auditId = parseCtaIdValue(rawAuditId);
    const entry = auditId === null ? null : await this.audit.entry(this.dataSource.manager, tenantId, auditId);
    if (!entry || entry.entityType !== 'cta' || entry.entityId !== String(id) || entry.after === null) {
      if (!(await this.dataSource.manager.existsBy(CtaEntity, { tenantId, id, isTest: false }))) {
        throw unknownCta(id);
      }
      throw invalidRequest(`audit entry '${rawAuditId}' is not an entry of CTA ${id}`);
    }
    const { description, tags, team, startTime, endTime, rule } = entry.after as CtaRecord;
    const { ctaValidTill: _derived, ...storedRule } = rule;
    await this.edit(tenantId, user, id, { description, tags, team, startTime, endTime, rule: storedRule }, origin, 'restore');
  }

  private async edit(tenantId: string, user: string, id: number, body: CtaFieldsDto, origin: ChangeOrigin, action: AuditAction): Promise<void> {
    const fields = this.validFields(body);
    const now = this.clock.now();
    this.checkTimeWindow(body, now);
    await this.catalogue.write(tenantId, async (manager) => {
      // Locked so a status change or another edit cannot slip between the checks and the write.
      const current = await forUpdate(
        manager
          .createQueryBuilder(CtaEntity, 'cta')
          .select(['cta.id', 'cta.status', 'cta.startTime', 'cta.endTime'])
          .where('cta.tenantId = :tenantId AND cta.id = :id AND cta.isTest = :isTest', { tenantId, id, isTest: false }),
      ).getOne();
      if (!current) {
        throw unknownCta(id);
      }
      if (!EDITABLE_STATUSES.includes(current.status)) {
        throw new DomainError(
          ErrorCode.CTA_STATUS_UPDATE_INVALID,
          `CTA ${id} is ${current.status}; only ${EDITABLE_STATUSES.join(' or ')} CTAs can be edited (pause it first)`,
        );
      }
      const before = await loadCtaRecord(manager, tenantId, id);
      // Omitted description/startTime/endTime keep their value; an explicit null clears it.
      const startTime = body.startTime === undefined ? current.startTime : body.startTime;
      const endTime = body.endTime === undefined ? current.endTime : body.endTime;
      if (startTime !== null && endTime !== null) {
        this.checkEndAfterStart(startTime, endTime);
      }
      await manager.update(
        CtaEntity,
        { tenantId, id },
        {
          team: fields.team,
          rule: ruleColumnValue(fields.rule),
          startTime,
          endTime,
          ...(body.description === undefined ? {} : { description: body.description }),
          lastUpdatedAt: now,
          lastUpdatedBy: user,
        },
      );
      await manager.delete(CtaTagEntity, { tenantId, ctaId: id });
      await this.writeTags(manager, tenantId, id, fields.tags);
      await recordCtaChanges(this.audit, manager, origin, action, [{ id, tenantId, before }]);
    });
  }

  async get(tenantId: string, rawId: string): Promise<CtaRecord> {
    const id = parseCtaId(rawId);
    const cta = await loadCtaRecord(this.dataSource.manager, tenantId, id);
    if (!cta) {
      throw unknownCta(id);
    }
    return cta;
  }

  /** The times of a create body (DESIGN §5): each within the window, the end after the start. Throws the first problem. */
  checkCreateTimes(body: Pick<CtaFieldsDto, 'startTime' | 'endTime'>, now = this.clock.now()): void {
    this.checkTimeWindow(body, now);
    if (typeof body.startTime === 'number' && typeof body.endTime === 'number') {
      this.checkEndAfterStart(body.startTime, body.endTime);
    }
  }

  /** Whether the tenant has a (non-test) CTA of exactly this name. */
  async nameTaken(tenantId: string, name: string): Promise<boolean> {
    return this.dataSource.manager.exists(CtaEntity, { where: { tenantId, isTest: false, name } });
  }

  /** The fields create and update share, validated (the DTO checked their types). */
  private validFields(body: CtaFieldsDto): CtaFields {
    return { tags: [...new Set(body.tags)], team: body.team, rule: validateCtaRule(body.rule, ErrorCode.INVALID_REQUEST) };
  }

  /** Each time sent must lie in [now - tolerance, now + horizon] (DESIGN §5). */
  private checkTimeWindow(body: Pick<CtaFieldsDto, 'startTime' | 'endTime'>, now: number): void {
    const earliest = now - this.settings.ctaTimeToleranceMs;
    const latest = now + this.settings.ctaTimeHorizonDays * DAY_MS;
    for (const field of ['startTime', 'endTime'] as const) {
      const time = body[field];
      if (typeof time === 'number' && (time < earliest || time > latest)) {
        throw invalidRequest(
          `${field} must lie between ${earliest} (now - ${this.settings.ctaTimeToleranceMs} ms) and ${latest} (now + ${this.settings.ctaTimeHorizonDays} days)`,
        );
      }
    }
  }

  private checkEndAfterStart(startTime: number, endTime: number): void {
    if (endTime <= startTime) {
      throw invalidRequest(`endTime (${endTime}) must be after startTime (${startTime})`);
    }
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
