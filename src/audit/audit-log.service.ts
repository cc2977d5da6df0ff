import { Injectable, OnModuleInit } from '@nestjs/common';
import { compare, Operation } from 'fast-json-patch';
import { DataSource, EntityManager, In } from 'typeorm';
import { Clock } from '../common/clock';
import { PeriodicJobsService, runInBatches } from '../scheduling/periodic-jobs.service';
import { insertDocuments } from '../database/document-writes';
import { forUpdate } from '../database/row-lock';
import { jsonColumnText } from '../database/transformers';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import { TransactionRunner } from '../database/transaction-runner';
import { InjectSettings, OrchestrationSettings } from '../orchestration-options';
import { AuditEntryEntity } from './audit-entry.entity';
import type { AuditedChange, AuditEntityType, AuditEntry, AuditPage, ChangeOrigin } from './audit.types';
import { RecordedDocuments, withUserIdErased } from './erased-user-ids';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Entries read at a time when looking for an app user's id. */
const USER_SCAN_BATCH = 500;

/** Which entries a page holds; every field is an exact match, `from`/`to` bound `at` inclusively. */
export interface AuditFilter {
  /** One type, or any of several (a CTA's history holds its entries as a CTA and as a test CTA). */
  entityType?: string | readonly string[];
  entityId?: string;
  actor?: string;
  user?: string;
  action?: string;
  from?: number;
  to?: number;
}

export interface AuditPaging {
  pageNumber: number;
  pageSize: number;
}

/** A change of one tenant's record, as a service hands it to `record`. */
export interface TenantChange extends AuditedChange {
  tenantId: string;
}

/** RFC 6902 patch from `before` to `after`; a record appearing or disappearing replaces the whole document. */
export function patchBetween(before: object | null, after: object | null): Operation[] {
  return before === null || after === null ? [{ op: 'replace', path: '', value: after }] : compare(before, after);
}

/**
 * `patchBetween` as JSON text, given `afterText`, the text of `after`: a whole-document replacement is
 * written around it, so the record is serialised once for both columns.
 */
export function patchText(before: object | null, after: object | null, afterText: string | null): string {
  return before === null || after === null
    ? `[{"op":"replace","path":"","value":${afterText ?? 'null'}}]`
    : JSON.stringify(patchBetween(before, after));
}

/** An entry's documents as its columns take them: `before`, `after` and the patch between them, each record serialised once. */
function entryDocuments({ before, after }: AuditedChange): Pick<AuditEntryEntity, 'before' | 'after' | 'changes'> {
  const afterText = after === null ? null : JSON.stringify(after);
  return {
    before: before === null ? null : jsonColumnText(JSON.stringify(before)),
    after: afterText === null ? null : jsonColumnText(afterText),
    changes: jsonColumnText(patchText(before, after, afterText)),
  };
}

/**
 * The version of one record an entry holds, for a restore: the entry's `after` when the entry is about
 * that record and the change left one; null for another record's entry, a delete, or no entry.
 */
export function recordedVersion(entry: AuditEntry | null, entityType: AuditEntityType, entityId: string): object | null {
  return entry !== null && entry.entityType === entityType && entry.entityId === entityId ? entry.after : null;
}

const toEntry = (row: AuditEntryEntity): AuditEntry => ({
  id: Number(row.id),
  at: Number(row.at),
  actor: row.actor,
  user: row.user,
  requestId: row.requestId,
  entityType: row.entityType,
  entityId: row.entityId,
  action: row.action,
  before: row.before,
  after: row.after,
  changes: row.changes,
});

/**
 * The audit history (docs/decisions/0009-audit-in-the-same-transaction.md). Services call `record` with the manager of
 * the transaction that makes the change, so the change and its entry commit
 * or roll back together; a refused request throws before it and writes none.
 */
@Injectable()
export class AuditLog implements OnModuleInit {
  constructor(
    @InjectOrchestrationDataSource() private readonly dataSource: DataSource,
    @InjectSettings() private readonly settings: OrchestrationSettings,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
    private readonly periodicJobs: PeriodicJobsService,
  ) {}

  onModuleInit(): void {
    if (this.settings.auditRetentionDays > 0) {
      this.periodicJobs.register('audit-retention-purge', () => this.purgeExpired());
    }
  }

  /** Appends one entry per change, in one statement, inside the caller's transaction. */
  async record(manager: EntityManager, origin: ChangeOrigin, changes: TenantChange[]): Promise<void> {
    if (changes.length === 0) {
      return;
    }
    const at = this.clock.now();
    await insertDocuments(
      manager,
      AuditEntryEntity,
      changes.map((change) => ({ ...change, ...origin, at, ...entryDocuments(change) })),
    );
  }

  /** One page of the tenant's entries matching `filter`, newest first. */
  async page(tenantId: string, filter: AuditFilter, { pageNumber, pageSize }: AuditPaging): Promise<AuditPage> {
    const query = this.dataSource.manager.createQueryBuilder(AuditEntryEntity, 'entry').where('entry.tenantId = :tenantId', { tenantId });
    if (Array.isArray(filter.entityType)) {
      query.andWhere('entry.entityType IN (:...entityTypes)', { entityTypes: filter.entityType });
    }
    for (const field of ['entityType', 'entityId', 'actor', 'user', 'action'] as const) {
      if (filter[field] !== undefined && !Array.isArray(filter[field])) {
        query.andWhere(`entry.${field} = :${field}`, { [field]: filter[field] });
      }
    }
    if (filter.from !== undefined) {
      query.andWhere('entry.at >= :from', { from: filter.from });
    }
    if (filter.to !== undefined) {
      query.andWhere('entry.at <= :to', { to: filter.to });
    }
    const totalEntries = await query.getCount();
    const rows =
      totalEntries > pageNumber * pageSize
        ? await query
            .orderBy('entry.id', 'DESC')
            .limit(pageSize)
            .offset(pageNumber * pageSize)
            .getMany()
        : [];
    return { entries: rows.map(toEntry), totalEntries, totalPages: Math.ceil(totalEntries / pageSize), pageNumber, pageSize };
  }

  /** The tenant's entry of that id, or null. */
  async entry(manager: EntityManager, tenantId: string, id: number): Promise<AuditEntry | null> {
    const row = await manager.findOneBy(AuditEntryEntity, { tenantId, id });
    return row ? toEntry(row) : null;
  }

  /** The ids of the tenant's entries that name the app user (in test CTA `userIds`), ascending. */
  async entriesNaming(manager: EntityManager, tenantId: string, userId: string): Promise<number[]> {
    const ids: number[] = [];
    for await (const batch of this.entriesWithUserErased(manager, tenantId, userId)) {
      ids.push(...batch.map((entry) => entry.id));
    }
    return ids;
  }

  /**
   * Replaces the app user's id with "erased" in the tenant's entries (test CTA `userIds` in `before`,
   * `after` and `changes`), in the caller's transaction; answers how many entries changed.
   *
   * The scan reads the transaction's snapshot, which an erase of the same user committed meanwhile
   * may have changed: the entries found are read again locked, so as committed, and only those still
   * naming the user change and count. An erase racing this one waits for it and then counts none.
   */
  async eraseUserId(manager: EntityManager, tenantId: string, userId: string): Promise<number> {
    let erased = 0;
    for await (const batch of this.entriesWithUserErased(manager, tenantId, userId)) {
      const ids = batch.map((entry) => entry.id);
      const current = await forUpdate(
        manager
          .createQueryBuilder(AuditEntryEntity, 'entry')
          .where('entry.tenantId = :tenantId AND entry.id IN (:...ids)', { tenantId, ids }),
      ).getMany();
      for (const row of current) {
        const documents = withUserIdErased(row, userId);
        if (documents) {
          await manager.update(AuditEntryEntity, { tenantId, id: row.id }, documents);
          erased++;
        }
      }
    }
    return erased;
  }

  /**
   * The tenant's test CTA entries naming the user, in batches by id, each with its documents as they
   * are once the id is erased. The database narrows them down by the id's JSON text (`"42"`, as the
   * records store ids); each candidate is then checked in its `userIds` lists.
   */
  private async *entriesWithUserErased(
    manager: EntityManager,
    tenantId: string,
    userId: string,
  ): AsyncGenerator<{ id: number; documents: RecordedDocuments }[]> {
    const pattern = `%${JSON.stringify(userId)}%`;
    for (let after = 0; ;) {
      const rows = await manager
        .createQueryBuilder(AuditEntryEntity, 'entry')
        .where('entry.tenantId = :tenantId AND entry.entityType = :entityType AND entry.id > :after', {
          tenantId,
          entityType: 'testCta',
          after,
        })
        .andWhere('(entry.before LIKE :pattern OR entry.after LIKE :pattern OR entry.changes LIKE :pattern)', { pattern })
        .orderBy('entry.id', 'ASC')
        .limit(USER_SCAN_BATCH)
        .getMany();
      const naming = rows.flatMap((row) => {
        const documents = withUserIdErased(row, userId);
        return documents ? [{ id: Number(row.id), documents }] : [];
      });
      if (naming.length > 0) yield naming;
      if (rows.length < USER_SCAN_BATCH) return;
      after = Number(rows[rows.length - 1].id);
    }
  }

  /**
   * Deletes entries older than the retention, oldest first, in batches over the primary key
   * (ids grow with time, so the old entries are the first ones): each batch reads the
   * JOB_BATCH_ROWS lowest ids and deletes those past the retention; a batch holding a younger entry is the last.
   */
  async purgeExpired(): Promise<void> {
    const cutoff = this.clock.now() - this.settings.auditRetentionDays * DAY_MS;
    await runInBatches(
      async (limit) => {
        const oldest = await this.dataSource.manager.find(AuditEntryEntity, {
          select: { id: true, at: true },
          order: { id: 'ASC' },
          take: limit,
        });
        return oldest.filter((row) => Number(row.at) < cutoff).map((row) => row.id);
      },
      (expired) => this.transactions.run((manager) => manager.delete(AuditEntryEntity, { id: In(expired) })),
    );
  }
}
