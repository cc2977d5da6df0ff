import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, In, LessThanOrEqual, MoreThan } from 'typeorm';
import { Clock } from '../common/clock';
import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import { joinProblemTexts } from '../common/problems';
import { idsByTenant, PeriodicJobsService, runInBatches } from '../scheduling/periodic-jobs.service';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import { TransactionRunner } from '../database/transaction-runner';
import { DEFAULT_PREVIEW_TTL_SECONDS, NudgePreview, WriteNudgePreviewDto } from './dto/nudge-preview.dto';
import { NudgePreviewEntity } from './nudge-preview.entity';

/** Null, absent, empty or blank: what the seed calls "null or empty". */
const isNullOrEmpty = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** "id must not be null or empty", and the same of template: each of the two that is (the body's other checks are its DTO's). */
export const emptyPreviewFields = (body: { id?: unknown; template?: unknown }): string[] =>
  (['id', 'template'] as const).filter((field) => isNullOrEmpty(body[field])).map((field) => `${field} must not be null or empty`);

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
    const empty = emptyPreviewFields(body);
    if (empty.length > 0) {
      throw new DomainError(ErrorCode.NUDGE_PREVIEW_TEMPLATE_NOT_FOUND_EXCEPTION, joinProblemTexts(empty));
    }
    const { id, template } = body as { id: string; template: string };
    const ttl = body.ttl ?? DEFAULT_PREVIEW_TTL_SECONDS;
    const now = this.clock.now();
    // One statement, so racing writes of one id never fail on the key: the last one wins.
    await this.transactions.run((manager) =>
      manager
        .createQueryBuilder()
        .insert()
        .into(NudgePreviewEntity)
        .values({ tenantId, id, template, ttl, expiresAt: now + ttl * 1000, updatedAt: now })
        .orUpdate(['template', 'ttl', 'expires_at', 'updated_at'], ['tenant_id', 'preview_id'])
        .execute(),
    );
  }

  /** The preview, or null when there is none or it has expired. */
  async read(tenantId: string, id: string): Promise<NudgePreview | null> {
    const preview = await this.dataSource.manager.findOneBy(NudgePreviewEntity, { tenantId, id, expiresAt: MoreThan(this.clock.now()) });
    return preview && { id: preview.id, template: preview.template, tenantId: preview.tenantId, ttl: preview.ttl };
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
