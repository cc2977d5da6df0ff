import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import { CtaTestUserEntity } from './cta-test-user.entity';
import { CtaEntity } from './cta.entity';
import type { CtaStatus } from '../cta-lifecycle/cta-statuses';

export type CatalogueCtaRow = Pick<
  CtaEntity,
  'id' | 'status' | 'startTime' | 'endTime' | 'rule' | 'isTest' | 'expiresAt' | 'capExempt' | 'experiment'
>;
export type CatalogueTestUserRow = Pick<CtaTestUserEntity, 'userId' | 'ctaId'>;

/**
 * The CTA part of a tenant's SDK catalogue (docs/decisions/0007-catalogue-cache-and-periodic-jobs.md): what the launch
 * needs of the CTAs and their test users.
 */
@Injectable()
export class CtaCatalogueReader {
  constructor(@InjectOrchestrationDataSource() private readonly dataSource: DataSource) {}

  /** The tenant's CTAs (normal and test) in one of `statuses`. */
  ctasOf(tenantId: string, statuses: readonly CtaStatus[]): Promise<CatalogueCtaRow[]> {
    return this.dataSource.manager.find(CtaEntity, {
      select: {
        id: true,
        status: true,
        startTime: true,
        endTime: true,
        rule: true,
        isTest: true,
        expiresAt: true,
        capExempt: true,
        experiment: true,
      },
      where: { tenantId, status: In(statuses) },
    });
  }

  /** The names of the tenant's CTAs `ids`, by id (the explain tool names the CTAs it explains). */
  async namesOf(tenantId: string, ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) {
      return new Map();
    }
    const rows = await this.dataSource.manager.find(CtaEntity, { select: { id: true, name: true }, where: { tenantId, id: In(ids) } });
    return new Map(rows.map((row) => [Number(row.id), row.name]));
  }

  /** The users each of the given test CTAs is served to. */
  async testUsersOf(tenantId: string, testCtaIds: number[]): Promise<CatalogueTestUserRow[]> {
    if (testCtaIds.length === 0) {
      return [];
    }
    return this.dataSource.manager.find(CtaTestUserEntity, {
      select: { userId: true, ctaId: true },
      where: { tenantId, ctaId: In(testCtaIds) },
    });
  }
}
