import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditLog } from '../audit/audit-log.service';
import type { ChangeOrigin } from '../audit/audit.types';
import { CatalogueRevisionService } from '../catalogue/catalogue-revision.service';
import { Clock } from '../common/clock';
import { forUpdate } from '../database/row-lock';
import { ExposurePolicy, exposurePolicyOf } from './exposure-policy';
import { ExposurePolicyEntity } from './exposure-policy.entity';
import { policyOfRow } from './exposure-policy.reader';

/**
 * A tenant's exposure policy (docs/exposure-policy.md), replaced by an admin (read: `ExposurePolicyReader`). A write bumps
 * the tenant's catalogue revision in its transaction, so every instance enforces the new policy
 * within CACHE_REVALIDATE_MS (the SDK catalogue carries it, `ExposurePolicyReader`), and is audited
 * as an `exposurePolicy` entry (entityId: the tenant id).
 */
@Injectable()
export class ExposurePolicyService {
  constructor(
    private readonly catalogue: CatalogueRevisionService,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
  ) {}

  /** Validates `body` whole (400 naming each bad field), then replaces the policy. */
  async replace(tenantId: string, body: unknown, origin: ChangeOrigin): Promise<ExposurePolicy> {
    const policy = exposurePolicyOf(body);
    const now = this.clock.now();
    await this.catalogue.write(tenantId, async (manager) => {
      const before = await this.lockedPolicy(manager, tenantId, now);
      await manager.update(ExposurePolicyEntity, { tenantId }, { ...policy, updatedAt: now });
      await this.audit.record(manager, origin, [
        { tenantId, entityType: 'exposurePolicy', entityId: tenantId, action: 'update', before, after: policy },
      ]);
    });
    return policy;
  }

  /** The stored policy under the row's lock (created off first): two writers of one tenant queue, and each audits what it replaced. */
  private async lockedPolicy(manager: EntityManager, tenantId: string, now: number): Promise<ExposurePolicy> {
    await manager
      .createQueryBuilder()
      .insert()
      .into(ExposurePolicyEntity)
      .values({ tenantId, maxActions: null, window: null, updatedAt: now })
      .orIgnore()
      .execute();
    const row = await forUpdate(
      manager.createQueryBuilder(ExposurePolicyEntity, 'policy').where('policy.tenantId = :tenantId', { tenantId }),
    ).getOne();
    return policyOfRow(row);
  }
}
