import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AuditLog } from '../audit/audit-log.service';
import type { ChangeOrigin } from '../audit/audit.types';
import { Clock } from '../common/clock';
import { DomainError, invalidRequest } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import { userIdParam } from '../common/user-id';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import { TransactionRunner } from '../database/transaction-runner';
import { CohortEntity } from './cohort.entity';
import { csvUserIds, jsonUserIds } from './member-ids';
import {
  countCommon,
  deleteMembers,
  Generation,
  insertMembers,
  isCurrentMember,
  mergeGeneration,
  purgeSome,
  PURGE_ROWS,
} from './member-rows';
import type { MemberUpload } from './member-uploads';

/** The most members a static cohort holds (docs/decisions/0008-cohorts.md). */
export const MAX_COHORT_MEMBERS = 1_000_000;
/** JSON ids are staged this many per transaction. */
const JSON_STAGE_BATCH = 10_000;

export interface MemberChange {
  added: number;
  removed: number;
  memberCount: number;
}

const tooManyMembers = (): DomainError => invalidRequest(`a cohort holds at most ${MAX_COHORT_MEMBERS} members`);

/**
 * The members of static cohorts (docs/decisions/0008-cohorts.md). An upload (add or replace) is first written
 * to a generation of its own, invisible to launches, in multi-row inserts and short
 * transactions, so launches and other writers are never blocked for long; a bad id anywhere
 * drops that generation and changes nothing. Then one transaction merges it into the current
 * generation (add) or makes it the current one (replace: one UPDATE, so a launch sees the old
 * list or the new one), and the obsolete rows are purged in batches.
 */
@Injectable()
export class CohortMembersService {
  constructor(
    @InjectOrchestrationDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
  ) {}

  async add(tenantId: string, user: string, name: string, upload: MemberUpload, origin: ChangeOrigin): Promise<MemberChange> {
    const staged = await this.stage(tenantId, name, upload);
    try {
      const { previous: _current, ...counts } = await this.commit(
        tenantId,
        user,
        origin,
        name,
        staged.generation,
        async (manager, current) => {
          const added = await mergeGeneration(manager, staged.generation, current.generation);
          if (current.memberCount + added > MAX_COHORT_MEMBERS) throw tooManyMembers();
          return { added, removed: 0, memberCount: current.memberCount + added };
        },
      );
      return counts;
    } finally {
      await this.purge(tenantId, staged.generation.cohortId, staged.generation.generation);
    }
  }

  async replace(tenantId: string, user: string, name: string, upload: MemberUpload, origin: ChangeOrigin): Promise<MemberChange> {
    const staged = await this.stage(tenantId, name, upload);
    let obsolete = staged.generation.generation;
    try {
      const { previous, ...counts } = await this.commit(tenantId, user, origin, name, staged.generation, async (manager, current) => {
        const common = await countCommon(manager, staged.generation, current.generation);
        return {
          added: staged.count - common,
          removed: current.memberCount - common,
          memberCount: staged.count,
          generation: staged.generation.generation,
        };
      });
      obsolete = previous;
      return counts;
    } finally {
      await this.purge(tenantId, staged.generation.cohortId, obsolete);
    }
  }

  async remove(tenantId: string, user: string, name: string, upload: MemberUpload, origin: ChangeOrigin): Promise<MemberChange> {
    if (upload.kind !== 'json') {
      throw new DomainError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'removing members takes application/json {"userIds": [...]}');
    }
    const userIds = [...new Set(jsonUserIds(upload.body))];
    await this.staticCohort(tenantId, name);
    const { previous: _current, ...counts } = await this.commit(tenantId, user, origin, name, undefined, async (manager, current) => {
      const removed = await deleteMembers(manager, current.generation, userIds);
      return { added: 0, removed, memberCount: current.memberCount - removed };
    });
    return counts;
  }

  async isMember(tenantId: string, name: string, rawUserId: string): Promise<boolean> {
    const userId = userIdParam(rawUserId);
    const cohort = await this.staticCohort(tenantId, name);
    return isCurrentMember(this.dataSource.manager, { tenantId, cohortId: cohort.id, generation: cohort.generation }, userId);
  }

  /** Deletes the rows of a cohort's generation (all of its rows without one), in batches. */
  async purge(tenantId: string, cohortId: number, generation?: number): Promise<void> {
    while ((await this.transactions.run((manager) => purgeSome(manager, tenantId, cohortId, generation))) === PURGE_ROWS) {
      // Another batch: each in its own short transaction.
    }
  }

  private async staticCohort(tenantId: string, name: string): Promise<CohortEntity> {
    const cohort = await this.dataSource.manager.findOneBy(CohortEntity, { tenantId, name });
    if (!cohort) throw new DomainError(ErrorCode.COHORT_NOT_FOUND, `cohort '${name}' does not exist`);
    if (cohort.kind !== 'static') {
      throw invalidRequest(`cohort '${name}' is a rule cohort: only static cohorts have members`);
    }
    return cohort;
  }

  /** Writes the upload's ids to a new generation of the cohort; a bad id, or too many, drops it and throws. */
  private async stage(tenantId: string, name: string, upload: MemberUpload): Promise<{ generation: Generation; count: number }> {
    // JSON is checked whole before anything is written.
    const jsonIds = upload.kind === 'json' ? jsonUserIds(upload.body) : undefined;
    const cohort = await this.staticCohort(tenantId, name);
    const generation: Generation = { tenantId, cohortId: cohort.id, generation: await this.newGeneration(tenantId, cohort.id) };
    let count = 0;
    const write = async (userIds: string[]) => {
      count += await this.transactions.run((manager) => insertMembers(manager, generation, userIds));
      if (count > MAX_COHORT_MEMBERS) throw tooManyMembers();
    };
    try {
      if (jsonIds) {
        for (let start = 0; start < jsonIds.length; start += JSON_STAGE_BATCH) await write(jsonIds.slice(start, start + JSON_STAGE_BATCH));
      } else if (upload.kind === 'csv') {
        for await (const batch of csvUserIds(upload.stream)) await write(batch);
      }
    } catch (error) {
      await this.purge(tenantId, cohort.id, generation.generation);
      throw error;
    }
    return { generation, count };
  }

  private newGeneration(tenantId: string, cohortId: number): Promise<number> {
    return this.transactions.run(async (manager) => {
      await manager.increment(CohortEntity, { tenantId, id: cohortId }, 'nextGeneration', 1);
      const cohort = await manager.findOne(CohortEntity, { select: { id: true, nextGeneration: true }, where: { tenantId, id: cohortId } });
      if (!cohort) throw new DomainError(ErrorCode.COHORT_NOT_FOUND, 'the cohort was deleted during the upload');
      return cohort.nextGeneration - 1;
    });
  }

  /**
   * One transaction on the cohort's row, locked first (an UPDATE), so member writes of a
   * cohort apply one at a time. `change` answers the counts, and `generation` for a replace;
   * the answer carries the generation that was current before (`previous`). The audit entry
   * (docs/decisions/0009-audit-in-the-same-transaction.md: counts, not ids) is written in the same transaction.
   */
  private async commit(
    tenantId: string,
    user: string,
    origin: ChangeOrigin,
    name: string,
    staged: Generation | undefined,
    change: (
      manager: EntityManager,
      current: { generation: Generation; memberCount: number },
    ) => Promise<MemberChange & { generation?: number }>,
  ): Promise<MemberChange & { previous: number }> {
    return this.transactions.run(async (manager) => {
      const where = staged ? { tenantId, id: staged.cohortId } : { tenantId, name };
      const { affected } = await manager.update(CohortEntity, where, { lastUpdatedAt: this.clock.now(), lastUpdatedBy: user });
      const cohort = affected ? await manager.findOneBy(CohortEntity, where) : null;
      if (!cohort) throw new DomainError(ErrorCode.COHORT_NOT_FOUND, `cohort '${name}' does not exist`);
      const current = { generation: { tenantId, cohortId: cohort.id, generation: cohort.generation }, memberCount: cohort.memberCount };
      const { generation, ...counts } = await change(manager, current);
      await manager.update(
        CohortEntity,
        { tenantId, id: cohort.id },
        { memberCount: counts.memberCount, ...(generation === undefined ? {} : { generation }) },
      );
      await this.audit.record(manager, origin, [
        {
          tenantId,
          entityType: 'cohort',
          entityId: cohort.name,
          action: 'members',
          before: { memberCount: cohort.memberCount },
          after: counts,
        },
      ]);
      return { ...counts, previous: cohort.generation };
    });
  }
}
