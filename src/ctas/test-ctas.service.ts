import { randomUUID } from 'node:crypto';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager, In, LessThanOrEqual } from 'typeorm';
import { CatalogueRevisionService } from '../catalogue/catalogue-revision.service';
import { Clock } from '../common/clock';
import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import { JOB_BATCH_ROWS, JOB_MAX_BATCHES_PER_RUN, PeriodicJobsService } from '../common/periodic-jobs.service';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import { parseCtaId, parseCtaIdValue, unknownCta } from './cta-id';
import { validateCtaRule } from './cta-rule';
import { CtaTestUserEntity } from './cta-test-user.entity';
import { CtaEntity, ruleColumnValue } from './cta.entity';
import type { CreateTestCtaDto } from './dto/test-cta-body.dto';
import { parseTestUserIds } from './test-user-ids';

const MINUTE_MS = 60 * 1000;
export const TEST_CTA_TEAM = 'test';

/**
 * Test CTAs (DESIGN §8): live at once, served by the SDK launch only to the
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
  ) {}

  onModuleInit(): void {
    this.periodicJobs.register('test-cta-purge', () => this.purgeExpired());
  }

  async create(tenantId: string, user: string, body: CreateTestCtaDto): Promise<number> {
    const userIds = parseTestUserIds(body.userIds);
    const previousCtaId = this.previousCtaId(body.previousCtaId);
    const rule = validateCtaRule(body.rule, ErrorCode.CTA_CREATION_ERROR);
    const now = this.clock.now();
    return this.catalogue.write(tenantId, async (manager) => {
      if (previousCtaId !== null) {
        // Replaces the previous test CTA; unknown ids (a retry) and normal CTAs are left alone.
        await this.deleteTestCtas(manager, tenantId, [previousCtaId]);
      }
      const inserted = await manager.insert(CtaEntity, {
        tenantId,
        // The id is known only after the insert; the placeholder is unique until the rename below.
        name: `test-pending-${randomUUID()}`,
        description: null,
        team: TEST_CTA_TEAM,
        status: 'live',
        startTime: now,
        endTime: null,
        rule: ruleColumnValue(rule),
        isTest: true,
        expiresAt: now + body.expiresInMinutes * MINUTE_MS,
        createdAt: now,
        createdBy: user,
        lastUpdatedAt: null,
        lastUpdatedBy: null,
      });
      const id = Number(inserted.identifiers[0].id);
      await manager.update(CtaEntity, { tenantId, id }, { name: `test-${id}` });
      await manager.insert(
        CtaTestUserEntity,
        userIds.map((userId) => ({ tenantId, userId, ctaId: id })),
      );
      return id;
    });
  }

  async delete(tenantId: string, rawId: string): Promise<void> {
    const id = parseCtaId(rawId);
    await this.catalogue.write(tenantId, async (manager) => {
      if ((await this.deleteTestCtas(manager, tenantId, [id])) === 0) {
        throw unknownCta(id);
      }
    });
  }

  /**
   * Deletes expired test CTAs and their targeting, set-based over all tenants
   * (DESIGN §14): batches of up to JOB_BATCH_ROWS, each one read, two deletes and
   * one revision bump; idempotent.
   */
  async purgeExpired(): Promise<void> {
    const now = this.clock.now();
    for (let batch = 0; batch < JOB_MAX_BATCHES_PER_RUN; batch++) {
      const expired = await this.dataSource.manager.find(CtaEntity, {
        select: { id: true, tenantId: true },
        where: { isTest: true, expiresAt: LessThanOrEqual(now) },
        order: { expiresAt: 'ASC' },
        take: JOB_BATCH_ROWS,
      });
      if (expired.length === 0) {
        return;
      }
      const idsByTenant = new Map<string, number[]>();
      for (const cta of expired) {
        idsByTenant.set(cta.tenantId, [...(idsByTenant.get(cta.tenantId) ?? []), Number(cta.id)]);
      }
      await this.catalogue.writeMany([...idsByTenant.keys()], async (manager) => {
        await manager.delete(CtaEntity, { id: In(expired.map((cta) => Number(cta.id))), isTest: true, expiresAt: LessThanOrEqual(now) });
        await manager
          .createQueryBuilder()
          .delete()
          .from(CtaTestUserEntity)
          .where([...idsByTenant].map(([tenantId, ids]) => ({ tenantId, ctaId: In(ids) })))
          .execute();
      });
      if (expired.length < JOB_BATCH_ROWS) {
        return;
      }
    }
  }

  /** Deletes those of `ids` that are test CTAs of the tenant, with their targeting rows; answers how many. */
  private async deleteTestCtas(manager: EntityManager, tenantId: string, ids: number[]): Promise<number> {
    const { affected } = await manager.delete(CtaEntity, { tenantId, id: In(ids), isTest: true });
    if (affected) {
      await manager.delete(CtaTestUserEntity, { tenantId, ctaId: In(ids) });
    }
    return affected ?? 0;
  }

  private previousCtaId(value: unknown): number | null {
    if (value === undefined || value === null) {
      return null;
    }
    const id = parseCtaIdValue(value);
    if (id === null) {
      throw new DomainError(ErrorCode.CTA_CREATION_ERROR, 'previousCtaId must be a CTA id: a positive integer (number or decimal string)');
    }
    return id;
  }
}
