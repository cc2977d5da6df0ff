import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import type { CohortDefinitionRow } from './cohort-targeting';
import { CohortEntity } from './cohort.entity';

/** The cohort definitions of a tenant's SDK catalogue (docs/decisions/0008-cohorts.md), from which `CohortTargeting` is built. */
@Injectable()
export class CohortDefinitionReader {
  constructor(@InjectOrchestrationDataSource() private readonly dataSource: DataSource) {}

  definitionsOf(tenantId: string): Promise<CohortDefinitionRow[]> {
    return this.dataSource.manager.find(CohortEntity, { select: { id: true, name: true, kind: true, rule: true }, where: { tenantId } });
  }
}
