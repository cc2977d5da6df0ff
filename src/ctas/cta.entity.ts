import { Column, Entity, Index, Unique } from 'typeorm';
import { TenantNamedRow, withAuthorship } from '../database/entity-columns';
import { booleanTransformer, jsonTransformer } from '../database/transformers';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { CtaExperiment } from './cta-experiment';
import type { CtaRule } from '../rule/rule.types';
import type { CtaStatus } from '../cta-lifecycle/cta-statuses';

/**
 * A CTA, normal or test (docs/decisions/0002-status-lifecycle-and-live-edits.md, docs/decisions/0005-test-ctas.md).
 * Searchable attributes are real columns.
 */
@Entity({ name: 'ctas' })
// Test CTAs (`test-<id>`) have their own name space: they never block or collide with a normal CTA's name.
@Unique('uq_ctas_tenant_test_name', ['tenantId', 'isTest', 'name'])
// The list's counts per status over the other filters, read from these indexes alone.
@Index('ix_ctas_tenant_test_status', ['tenantId', 'isTest', 'status', 'id', 'name'])
@Index('ix_ctas_tenant_test_team', ['tenantId', 'isTest', 'team', 'status'])
@Index('ix_ctas_tenant_test_created_by', ['tenantId', 'isTest', 'createdBy', 'status'])
// The periodic job's scans over every tenant for due transitions and expired test CTAs.
@Index('ix_ctas_due_start', ['isTest', 'status', 'startTime'])
@Index('ix_ctas_due_end', ['isTest', 'status', 'endTime'])
@Index('ix_ctas_test_expiry', ['isTest', 'expiresAt'])
export class CtaEntity extends withAuthorship(TenantNamedRow) {
  @Column({ type: 'varchar', length: 255 })
  team: string;

  @Column({ type: 'varchar', length: 16 })
  status: CtaStatus;

  @Column({ name: 'start_time', type: 'bigint', nullable: true })
  startTime: number | null;

  @Column({ name: 'end_time', type: 'bigint', nullable: true })
  endTime: number | null;

  /** The rule as sent (unknown keys kept), without the derived `ctaValidTill`. */
  @Column({ type: 'text', transformer: jsonTransformer })
  rule: CtaRule;

  /** The CTA's experiment with its defaults filled in (docs/decisions/0026-experiments.md); null: none. Never sent to devices. */
  @Column({ type: 'text', nullable: true, transformer: jsonTransformer })
  experiment: CtaExperiment | null;

  @Column({ name: 'is_test', type: 'boolean', default: false, transformer: booleanTransformer })
  isTest: boolean;

  /** Served however many actions the user had (the exposure policy, docs/exposure-policy.md); its actions still count. */
  @Column({ name: 'cap_exempt', type: 'boolean', default: false, transformer: booleanTransformer })
  capExempt: boolean;

  /** Test CTAs only: when the test CTA stops being served and is purged. */
  @Column({ name: 'expires_at', type: 'bigint', nullable: true })
  expiresAt: number | null;

  /**
   * 1 at create, one more at each update or restore: an approval names the revision it approves, so
   * any later content change voids it (docs/decisions/0015-approvals.md).
   */
  @Column({ name: 'content_revision', type: 'integer', default: 1 })
  contentRevision: number;

  /** The admin key (the audit actor) that made the latest content change; null when no key was named. */
  @Column({ name: 'content_changed_by', type: 'varchar', length: 255, nullable: true })
  contentChangedBy: string | null;
}

/** A rule as an insert/update value: TypeORM's deep-partial typing cannot follow the rule's open (unknown-valued) keys. */
export const ruleColumnValue = (rule: CtaRule): QueryDeepPartialEntity<CtaRule> => rule as unknown as QueryDeepPartialEntity<CtaRule>;
