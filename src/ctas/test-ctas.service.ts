import { randomUUID } from 'node:crypto';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager, In, LessThanOrEqual } from 'typeorm';
import { AuditLog, TenantChange } from '../audit/audit-log.service';
import type { ChangeOrigin } from '../audit/audit.types';
import { CatalogueRevisionService } from '../catalogue/catalogue-revision.service';
import { Clock } from '../common/clock';
import { ErrorCode } from '../common/error-code';
import { idsByTenant, PeriodicJobsService, runInBatches } from '../scheduling/periodic-jobs.service';
import { insertDocuments } from '../database/document-writes';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import { forUpdate } from '../database/row-lock';
import { parseCtaId, unknownCta } from '../common/cta-id';
import type { CtaRecord } from './cta-record';
import { CtaRecords } from './cta-records.service';
import { validateCtaRule } from '../rule/cta-rule';
import { CtaTestUserEntity } from './cta-test-user.entity';
import { CtaEntity } from './cta.entity';
import type { CreateTestCtaDto } from './dto/test-cta-body.dto';
import { readPreviousCtaId, readTestUserIds } from './test-user-ids';

const MINUTE_MS = 60 * 1000;
export const TEST_CTA_TEAM = 'test';

/** A test CTA in the audit history: the CTA record (`rule.ctaValidTill` is its expiry) and the users it is served to. */
export type TestCtaRecord = CtaRecord & { userIds: string[] };

const byNumericValue = (a: string, b: string): number => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);

/**
 * Test CTAs (docs/decisions/0005-test-ctas.md): live at once, served by the SDK launch only to the
 * listed users until they expire, never listed by the admin API. Their names
 * (`test-<id>`) live in their own name space of the (tenant_id, is_test, name)
 * key, so they never collide with, or block, a normal CTA's name.
 *
 * Users' SDK state of a deleted test CTA needs no clean-up here: each user's
 * state is one document, and the launch drops the state of CTAs that are no
 * longer in the catalogue (ids are never reused).
 */
@Injectable()
export class TestCtasService implements OnModuleInit {
  constructor(
    @InjectOrchestrationDataSource() private readonly dataSource: DataSource,
    private readonly catalogue: CatalogueRevisionService,
    private readonly clock: Clock,
    private readonly periodicJobs: PeriodicJobsService,
    private readonly audit: AuditLog,
    private readonly records: CtaRecords,
  ) {}

  onModuleInit(): void {
    this.periodicJobs.register('test-cta-purge', () => this.purgeExpired());
  }

  async create(tenantId: string, user: string, body: CreateTestCtaDto, origin: ChangeOrigin): Promise<number> {
    const { userIds, problems } = readTestUserIds(body.userIds);
    const previous = readPreviousCtaId(body.previousCtaId);
    // Every problem of the body at once: the ids, the replaced test CTA, the rule.
    const rule = validateCtaRule(body.rule, ErrorCode.CTA_CREATION_ERROR, { testCta: true }, [
      ...problems,
      ...(previous.problem === null ? [] : [previous.problem]),
    ]);
    const previousCtaId = previous.id;
    const now = this.clock.now();
    return this.catalogue.write(tenantId, async (manager) => {
      // Replaces the previous test CTA; unknown ids (a retry) and normal CTAs are left alone.
      const replaced = previousCtaId === null ? null : await this.testCtaRecord(manager, tenantId, previousCtaId);
      if (replaced) {
        await this.deleteTestCtas(manager, tenantId, [replaced.id]);
      }
      const row: Omit<CtaEntity, 'id'> = {
        tenantId,
        // The id is known only after the insert; the placeholder is unique until the rename below.
        name: `test-pending-${randomUUID()}`,
        description: null,
        team: TEST_CTA_TEAM,
        status: 'live',
        startTime: now,
        endTime: null,
        rule,
        experiment: null,
        capExempt: false,
        isTest: true,
        expiresAt: now + body.expiresInMinutes * MINUTE_MS,
        createdAt: now,
        createdBy: user,
        lastUpdatedAt: null,
        lastUpdatedBy: null,
        contentRevision: 1,
        contentChangedBy: null,
      };
      const { insertId: id } = await insertDocuments(manager, CtaEntity, [row]);
      const name = `test-${id}`;
      await manager.update(CtaEntity, { tenantId, id }, { name });
      await insertDocuments(
        manager,
        CtaTestUserEntity,
        userIds.map((userId) => ({ tenantId, userId, ctaId: id })),
      );
      const created: TestCtaRecord = {
        ...(await this.records.writtenRecord(manager, { ...row, id, name })),
        userIds: [...userIds].sort(byNumericValue),
      };
      await this.audit.record(manager, origin, [...(replaced ? [deletion(tenantId, replaced)] : []), creation(tenantId, created)]);
      return id;
    });
  }

  async delete(tenantId: string, rawId: string, origin: ChangeOrigin): Promise<void> {
    const id = parseCtaId(rawId);
    await this.catalogue.write(tenantId, async (manager) => {
      const deleted = await this.testCtaRecord(manager, tenantId, id);
      if (!deleted) {
        throw unknownCta(id);
      }
      await this.deleteTestCtas(manager, tenantId, [id]);
      await this.audit.record(manager, origin, [deletion(tenantId, deleted)]);
    });
  }

  /**
   * Deletes expired test CTAs and their targeting, set-based over all tenants
   * (docs/decisions/0007-catalogue-cache-and-periodic-jobs.md): batches of up to JOB_BATCH_ROWS, each one read, two deletes and
   * one revision bump; idempotent.
   */
  async purgeExpired(): Promise<void> {
    const now = this.clock.now();
    await runInBatches(
      (limit) =>
        this.dataSource.manager.find(CtaEntity, {
          select: { id: true, tenantId: true },
          where: { isTest: true, expiresAt: LessThanOrEqual(now) },
          order: { expiresAt: 'ASC' },
          take: limit,
        }),
      (expired) => {
        const ctaIds = idsByTenant(expired, (cta) => Number(cta.id));
        return this.catalogue.writeMany([...ctaIds.keys()], async (manager) => {
          await manager.delete(CtaEntity, { id: In(expired.map((cta) => Number(cta.id))), isTest: true, expiresAt: LessThanOrEqual(now) });
          await manager
            .createQueryBuilder()
            .delete()
            .from(CtaTestUserEntity)
            .where([...ctaIds].map(([tenantId, ids]) => ({ tenantId, ctaId: In(ids) })))
            .execute();
        });
      },
    );
  }

  /** The ids of the tenant's test CTAs that list the user (expired ones not purged yet included), ascending. */
  async testCtasOf(manager: EntityManager, tenantId: string, userId: string): Promise<number[]> {
    const rows = await manager.find(CtaTestUserEntity, { select: { ctaId: true }, where: { tenantId, userId } });
    return rows.map((row) => Number(row.ctaId)).sort((a, b) => a - b);
  }

  /**
   * Takes the user off the tenant's test CTA lists and deletes the test CTAs left with nobody
   * (docs/decisions/0017-user-data-export-and-erase.md); answers how many lists held the user. The
   * lists are part of the SDK catalogue: the caller's transaction bumps the tenant's revision.
   *
   * The user's rows are read locked, so as committed: an erase racing this one waits for it and then
   * finds nothing, and the two answers add up to one erase.
   */
  async removeUser(manager: EntityManager, tenantId: string, userId: string): Promise<number> {
    const listing = await forUpdate(
      manager
        .createQueryBuilder(CtaTestUserEntity, 'row')
        .select('row.ctaId')
        .where('row.tenantId = :tenantId AND row.userId = :userId', { tenantId, userId }),
    ).getMany();
    const ctaIds = listing.map((row) => Number(row.ctaId));
    if (ctaIds.length === 0) {
      return 0;
    }
    // The lists read: one a test CTA create commits meanwhile is new, and left to it.
    await manager.delete(CtaTestUserEntity, { tenantId, userId, ctaId: In(ctaIds) });
    const remaining = await manager.find(CtaTestUserEntity, { select: { ctaId: true }, where: { tenantId, ctaId: In(ctaIds) } });
    const listingOthers = new Set(remaining.map((row) => Number(row.ctaId)));
    const leftWithNobody = ctaIds.filter((id) => !listingOthers.has(id));
    await this.deleteTestCtas(manager, tenantId, leftWithNobody);
    return ctaIds.length;
  }

  /** Deletes those of `ids` that are test CTAs of the tenant, with their targeting rows; answers how many. */
  private async deleteTestCtas(manager: EntityManager, tenantId: string, ids: number[]): Promise<number> {
    if (ids.length === 0) {
      return 0;
    }
    const { affected } = await manager.delete(CtaEntity, { tenantId, id: In(ids), isTest: true });
    if (affected) {
      await manager.delete(CtaTestUserEntity, { tenantId, ctaId: In(ids) });
    }
    return affected ?? 0;
  }

  /** The tenant's test CTA of that id, locked, as the audit history shows it; null when there is none. */
  private async testCtaRecord(manager: EntityManager, tenantId: string, id: number): Promise<TestCtaRecord | null> {
    const record = await this.records.load(manager, tenantId, id, { isTest: true, locked: true });
    if (!record) {
      return null;
    }
    const users = await manager.find(CtaTestUserEntity, { select: { userId: true }, where: { tenantId, ctaId: id } });
    return { ...record, userIds: users.map((user) => user.userId).sort(byNumericValue) };
  }
}

const creation = (tenantId: string, record: TestCtaRecord): TenantChange => ({
  tenantId,
  entityType: 'testCta',
  entityId: String(record.id),
  action: 'create',
  before: null,
  after: record,
});

const deletion = (tenantId: string, record: TestCtaRecord): TenantChange => ({
  tenantId,
  entityType: 'testCta',
  entityId: String(record.id),
  action: 'delete',
  before: record,
  after: null,
});
