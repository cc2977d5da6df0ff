import { Column, Entity, Unique } from 'typeorm';
import { TenantNamedRow } from '../database/entity-columns';
import { bigintTransformer, jsonTransformer } from '../database/transformers';
import type { CohortKind, CohortRule } from './cohort-rule';

/**
 * A cohort (docs/decisions/0008-cohorts.md). A static cohort's members are the rows of `cohort_members`
 * of its current `generation`; `next_generation` numbers the uploads in progress.
 */
@Entity({ name: 'cohorts' })
@Unique('uq_cohorts_tenant_name', ['tenantId', 'name'])
export class CohortEntity extends TenantNamedRow {
  @Column({ type: 'varchar', length: 16 })
  kind: CohortKind;

  @Column({ type: 'text', nullable: true, transformer: jsonTransformer })
  rule: CohortRule | null;

  @Column({ type: 'bigint', transformer: bigintTransformer })
  generation: number;

  @Column({ name: 'next_generation', type: 'bigint', transformer: bigintTransformer })
  nextGeneration: number;

  @Column({ name: 'member_count', type: 'bigint', transformer: bigintTransformer })
  memberCount: number;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintTransformer })
  createdAt: number;

  @Column({ name: 'created_by', type: 'varchar', length: 255 })
  createdBy: string;

  @Column({ name: 'last_updated_at', type: 'bigint', nullable: true, transformer: bigintTransformer })
  lastUpdatedAt: number | null;

  @Column({ name: 'last_updated_by', type: 'varchar', length: 255, nullable: true })
  lastUpdatedBy: string | null;
}
