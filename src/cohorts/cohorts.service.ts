import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { AuditLog } from '../audit/audit-log.service';
import type { AuditAction, ChangeOrigin } from '../audit/audit.types';
import { CatalogueRevisionService } from '../catalogue/catalogue-revision.service';
import { Clock } from '../common/clock';
import { DomainError, invalidRequest } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import { asStoredJson } from '../common/json-values';
import { joinProblemTexts, MAX_PROBLEMS_NAMED } from '../common/problems';
import { IN_PLAY_STATUSES } from '../cta-lifecycle/cta-status-policy';
import { insertDocuments, updateDocuments } from '../database/document-writes';
import { isDuplicateKeyError } from '../database/duplicate-key';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import { forUpdate } from '../database/row-lock';
import { CohortMembersService } from './cohort-members.service';
import { ALL_USERS_COHORT } from './cohort-provider';
import { cohortFieldProblems, cohortRuleCheck, updateCohortProblems } from './cohort-body';
import { CohortRecord, toCohortRecord } from './cohort-record';
import { CohortKind, CohortRule, cohortsNamedBy, COHORT_KINDS } from './cohort-rule';
import { CohortEntity } from './cohort.entity';
import { CtaCohortEntity } from './cta-cohort.entity';
import type { CreateCohortDto, UpdateCohortDto } from './dto/cohort-body.dto';
import { CohortCtas } from './cohort-ctas';

export const cohortNotFound = (name: string): DomainError => new DomainError(ErrorCode.COHORT_NOT_FOUND, `cohort '${name}' does not exist`);

/**
 * Cohort definitions (docs/decisions/0008-cohorts.md): create, list, read, update, delete. Definitions are part
 * of the tenant's catalogue, so each write bumps its revision (`CatalogueRevisionService.write`).
 */
@Injectable()
export class CohortsService {
  constructor(
    @InjectOrchestrationDataSource() private readonly dataSource: DataSource,
    private readonly catalogue: CatalogueRevisionService,
    private readonly members: CohortMembersService,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
    private readonly ctas: CohortCtas,
  ) {}

  async create(tenantId: string, user: string, body: CreateCohortDto, origin: ChangeOrigin): Promise<CohortRecord> {
    if (!COHORT_KINDS.includes(body.kind)) throw invalidRequest(`kind must be one of ${COHORT_KINDS.join(', ')}`);
    const problems = cohortFieldProblems(body);
    const now = this.clock.now();
    try {
      return await this.catalogue.write(tenantId, async (manager) => {
        const rule = await this.validRule(manager, tenantId, body.kind, body.rule, true, problems);
        const row: Omit<CohortEntity, 'id'> = {
          tenantId,
          name: body.name,
          description: body.description ?? null,
          kind: body.kind,
          rule,
          generation: 1,
          nextGeneration: 2,
          memberCount: 0,
          createdAt: now,
          createdBy: user,
          lastUpdatedAt: null,
          lastUpdatedBy: null,
        };
        const { insertId: id } = await insertDocuments(manager, CohortEntity, [row]);
        // No one else sees the new row before the commit: it is as written, its rule as its JSON column gives it back.
        const created = toCohortRecord({ ...row, id, rule: asStoredJson(rule) }, await this.usedBy(manager, tenantId, body.name));
        await this.recordChange(manager, tenantId, origin, body.name, 'create', null, created);
        return created;
      });
    } catch (error) {
      // The (tenant_id, name) key decides, also between two racing creates.
      if (isDuplicateKeyError(error)) {
        throw new DomainError(ErrorCode.COHORT_DUPLICATE_NAME, `a cohort named '${body.name}' already exists`);
      }
      throw error;
    }
  }

  async list(tenantId: string): Promise<CohortRecord[]> {
    const [cohorts, links] = await Promise.all([
      this.dataSource.manager.find(CohortEntity, { where: { tenantId }, order: { name: 'ASC' } }),
      this.dataSource.manager.find(CtaCohortEntity, { where: { tenantId } }),
    ]);
    const usedBy = new Map<string, number[]>();
    for (const link of links) {
      const ids = usedBy.get(link.cohortName) ?? [];
      ids.push(Number(link.ctaId));
      usedBy.set(link.cohortName, ids);
    }
    return cohorts.map((cohort) => toCohortRecord(cohort, usedBy.get(cohort.name) ?? []));
  }

  /** `all` (every user) first, then every cohort of the tenant by name: what a CTA's cohortEligibility can name. */
  async names(tenantId: string): Promise<string[]> {
    const cohorts = await this.dataSource.manager.find(CohortEntity, {
      select: { name: true },
      where: { tenantId },
      order: { name: 'ASC' },
    });
    return [ALL_USERS_COHORT, ...cohorts.map((cohort) => cohort.name)];
  }

  async get(tenantId: string, name: string): Promise<CohortRecord> {
    return this.record(this.dataSource.manager, tenantId, name);
  }

  async update(tenantId: string, user: string, name: string, body: UpdateCohortDto, origin: ChangeOrigin): Promise<CohortRecord> {
    const problems = updateCohortProblems(body);
    return this.catalogue.write(tenantId, async (manager) => {
      // Locked, as member writes lock it (cohort-members.service.ts): nothing changes the row before the commit.
      const cohort = await forUpdate(
        manager.createQueryBuilder(CohortEntity, 'cohort').where('cohort.tenantId = :tenantId AND cohort.name = :name', { tenantId, name }),
      ).getOne();
      if (!cohort) throw cohortNotFound(name);
      const before = toCohortRecord(cohort, await this.usedBy(manager, tenantId, name));
      const rule = body.rule === undefined ? undefined : await this.validRule(manager, tenantId, cohort.kind, body.rule, false, problems);
      if (problems.length > 0) throw invalidRequest(joinProblemTexts(problems));
      const changes: Partial<CohortEntity> = {
        ...(body.description === undefined ? {} : { description: body.description }),
        ...(rule === undefined ? {} : { rule }),
        lastUpdatedAt: this.clock.now(),
        lastUpdatedBy: user,
      };
      await updateDocuments(
        manager,
        manager
          .createQueryBuilder()
          .update(CohortEntity)
          .where({ tenantId, id: cohort.id })
          .set(changes as QueryDeepPartialEntity<CohortEntity>),
      );
      const written = { ...cohort, ...changes, ...(rule === undefined ? {} : { rule: asStoredJson(rule) }) };
      const updated = toCohortRecord(written, await this.usedBy(manager, tenantId, name));
      await this.recordChange(manager, tenantId, origin, name, 'update', before, updated);
      return updated;
    });
  }

  async delete(tenantId: string, name: string, origin: ChangeOrigin): Promise<void> {
    const cohortId = await this.catalogue.write(tenantId, async (manager) => {
      const cohort = await manager.findOneBy(CohortEntity, { tenantId, name });
      if (!cohort) throw cohortNotFound(name);
      const running = await this.ctas
        .whereCtaStatusIn(
          manager
            .createQueryBuilder(CtaCohortEntity, 'link')
            .select('link.ctaId', 'id')
            .where('link.tenantId = :tenantId AND link.cohortName = :name', { tenantId, name }),
          'link',
          IN_PLAY_STATUSES,
        )
        .orderBy('link.ctaId')
        .getRawMany<{ id: number | string }>();
      if (running.length > 0) {
        throw new DomainError(
          ErrorCode.COHORT_IN_USE,
          `cohort '${name}' is named by live, scheduled or paused CTAs ${running.map((row) => row.id).join(', ')}; conclude, terminate or edit them first`,
        );
      }
      const rules = await manager.find(CohortEntity, { select: { name: true, rule: true }, where: { tenantId, kind: 'rule' } });
      const users = rules.filter((other) => other.rule && cohortsNamedBy(other.rule).includes(name)).map((other) => `'${other.name}'`);
      if (users.length > 0) {
        throw new DomainError(ErrorCode.COHORT_IN_USE, `cohort '${name}' is named by the rules of cohorts ${users.join(', ')}`);
      }
      const before = await this.record(manager, tenantId, name);
      await manager.delete(CohortEntity, { tenantId, id: cohort.id });
      await this.recordChange(manager, tenantId, origin, name, 'delete', before, null);
      return cohort.id;
    });
    await this.members.purge(tenantId, cohortId);
  }

  /** The cohort as the admin API shows it, read with `manager` (inside a write: as that write sees it). */
  private async record(manager: EntityManager, tenantId: string, name: string): Promise<CohortRecord> {
    const cohort = await manager.findOneBy(CohortEntity, { tenantId, name });
    if (!cohort) throw cohortNotFound(name);
    return toCohortRecord(cohort, await this.usedBy(manager, tenantId, name));
  }

  /** The ids of the CTAs whose rules name the cohort. */
  private async usedBy(manager: EntityManager, tenantId: string, name: string): Promise<number[]> {
    const links = await manager.find(CtaCohortEntity, { where: { tenantId, cohortName: name } });
    return links.map((link) => Number(link.ctaId));
  }

  /**
   * The audit entry of a change of a cohort definition, in the write's transaction
   * (docs/decisions/0009-audit-in-the-same-transaction.md).
   */
  private recordChange(
    manager: EntityManager,
    tenantId: string,
    origin: ChangeOrigin,
    name: string,
    action: AuditAction,
    before: CohortRecord | null,
    after: CohortRecord | null,
  ): Promise<void> {
    return this.audit.record(manager, origin, [{ tenantId, entityType: 'cohort', entityId: name, action, before, after }]);
  }

  /**
   * The rule to store: required for rule cohorts, refused for static ones. Its problems, and whether the
   * cohorts it names are static ones of the tenant, join `otherProblems` (the body's fields'): any problem
   * at all → one INVALID_REQUEST naming them all.
   */
  private async validRule(
    manager: EntityManager,
    tenantId: string,
    kind: CohortKind,
    rule: unknown,
    creating: boolean,
    otherProblems: readonly string[],
  ): Promise<CohortRule | null> {
    const { problems, cohortNames } = cohortRuleCheck(kind, rule, creating);
    if (cohortNames.length > 0 && problems.length < MAX_PROBLEMS_NAMED) {
      const names = [...new Set(cohortNames.map((named) => named.name))];
      const found = await manager.find(CohortEntity, { select: { name: true, kind: true }, where: { tenantId, name: In(names) } });
      const kinds = new Map(found.map((cohort) => [cohort.name, cohort.kind]));
      for (const { path, name } of cohortNames) {
        if (kinds.get(name) !== 'static') {
          problems.push(`${path}: ${JSON.stringify(name)} is not a static cohort of the tenant`);
        }
      }
    }
    if (otherProblems.length + problems.length > 0) throw invalidRequest(joinProblemTexts([...otherProblems, ...problems]));
    return kind === 'static' ? null : (rule as CohortRule);
  }
}
