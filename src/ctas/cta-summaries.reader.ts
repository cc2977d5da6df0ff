import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AuditedCtas } from '../audit/audited-ctas';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import { CtaEntity } from './cta.entity';
import type { CtaStatus } from '../cta-lifecycle/cta-statuses';

/** A CTA's id, name and status: what a report about CTAs names them by. */
export interface CtaSummary {
  id: number;
  name: string;
  status: CtaStatus;
}

const SUMMARY = { id: true, name: true, status: true } as const;
const toSummary = ({ id, name, status }: Pick<CtaEntity, 'id' | 'name' | 'status'>): CtaSummary => ({ id: Number(id), name, status });

/** The tenant's CTAs (test CTAs aside) by id, name and status, read from the status index alone. */
@Injectable()
export class CtaSummaries implements AuditedCtas {
  constructor(@InjectOrchestrationDataSource() private readonly dataSource: DataSource) {}

  /** Whether the tenant has a CTA of that id, a test CTA included. */
  async known(tenantId: string, id: number): Promise<boolean> {
    return this.dataSource.manager.exists(CtaEntity, { where: { tenantId, id } });
  }

  /** The CTA of that id, or null. */
  async one(tenantId: string, id: number): Promise<CtaSummary | null> {
    const row = await this.dataSource.manager.findOne(CtaEntity, { select: SUMMARY, where: { tenantId, isTest: false, id } });
    return row && toSummary(row);
  }

  async all(tenantId: string): Promise<CtaSummary[]> {
    const rows = await this.dataSource.manager.find(CtaEntity, { select: SUMMARY, where: { tenantId, isTest: false } });
    return rows.map(toSummary);
  }
}
