import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, In, LessThanOrEqual } from 'typeorm';
import { Clock } from '../common/clock';
import { idsByTenant, PeriodicJobsService, runInBatches } from '../scheduling/periodic-jobs.service';
import { insertDocuments } from '../database/document-writes';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import { TransactionRunner } from '../database/transaction-runner';
import type { NudgePreview, WriteNudgePreviewDto } from './dto/nudge-preview.dto';
import { previewToStore, readablePreview } from './nudge-preview-rules';
import { NudgePreviewEntity } from './nudge-preview.entity';

/**
 * Nudge previews (docs/behaviour.md#nudge-previews): upserted by (tenant, id), readable until write
 * time + ttl, then absent; the periodic job deletes the expired ones.
 */
@Injectable()
export class NudgePreviewService implements OnModuleInit {
  constructor(
    @InjectOrchestrationDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
    private readonly periodicJobs: PeriodicJobsService,
  ) {}

  onModuleInit(): void {
    this.periodicJobs.register('nudge-preview-purge', () => this.purgeExpired());
  }

  async write(tenantId: string, body: WriteNudgePreviewDto): Promise<void> {
    const now = this.clock.now();
    const preview = previewToStore(body, now);
    // One statement, so racing writes of one id never fail on the key: the last one wins.
    await this.transactions.run((manager) =>
      insertDocuments(manager, NudgePreviewEntity, [{ tenantId, ...preview, updatedAt: now }], {
        key: ['tenantId', 'id'],
        overwrite: ['template', 'ttl', 'expiresAt', 'updatedAt'],
      }),
    );
  }

  /** The preview, or null when there is none or it has expired. */
  async read(tenantId: string, id: string): Promise<NudgePreview | null> {
    return readablePreview(await this.dataSource.manager.findOneBy(NudgePreviewEntity, { tenantId, id }), this.clock.now());
  }

  /**
   * Deletes expired previews of all tenants in batches of up to JOB_BATCH_ROWS
   * (docs/decisions/0007-catalogue-cache-and-periodic-jobs.md).
   */
  async purgeExpired(): Promise<void> {
    const now = this.clock.now();
    await runInBatches(
      (limit) =>
        this.dataSource.manager.find(NudgePreviewEntity, {
          select: { tenantId: true, id: true },
          where: { expiresAt: LessThanOrEqual(now) },
          order: { expiresAt: 'ASC' },
          take: limit,
        }),
      (expired) =>
        // Still expired: a preview rewritten since the read keeps its new life.
        this.transactions.run((manager) =>
          manager
            .createQueryBuilder()
            .delete()
            .from(NudgePreviewEntity)
            .where(
              [...idsByTenant(expired, (preview) => preview.id)].map(([tenantId, ids]) => ({
                tenantId,
                id: In(ids),
                expiresAt: LessThanOrEqual(now),
              })),
            )
            .execute(),
        ),
    );
  }
}
