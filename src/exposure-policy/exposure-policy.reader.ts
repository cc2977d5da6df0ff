import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import { ExposurePolicy, NO_EXPOSURE_POLICY } from './exposure-policy';
import { ExposurePolicyEntity } from './exposure-policy.entity';

/** A stored policy row as the API shows it; no row is off. */
export const policyOfRow = (row: Pick<ExposurePolicyEntity, 'maxActions' | 'window'> | null): ExposurePolicy =>
  row ? { maxActions: row.maxActions, window: row.window } : NO_EXPOSURE_POLICY;

/** A tenant's exposure policy as stored: for `GET /exposure-policy` and for the SDK catalogue, which loads it with the rest. */
@Injectable()
export class ExposurePolicyReader {
  constructor(@InjectOrchestrationDataSource() private readonly dataSource: DataSource) {}

  async policyOf(tenantId: string): Promise<ExposurePolicy> {
    return policyOfRow(
      await this.dataSource.manager.findOne(ExposurePolicyEntity, { select: { maxActions: true, window: true }, where: { tenantId } }),
    );
  }
}
