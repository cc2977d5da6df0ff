import type { CohortEntity } from './cohort.entity';
import type { CohortKind, CohortRule } from './cohort-rule';

/** A cohort as the admin API shows it (docs/decisions/0008-cohorts.md). */
export interface CohortRecord {
  name: string;
  description: string | null;
  kind: CohortKind;
  rule: CohortRule | null;
  /** Static cohorts: how many users; rule cohorts: null. */
  memberCount: number | null;
  /** Ids of the CTAs whose includes or excludes name it, as strings, ascending. */
  usedBy: string[];
  createdAt: number;
  createdBy: string;
  lastUpdatedAt: number | null;
  lastUpdatedBy: string | null;
  tenantId: string;
}

export function toCohortRecord(cohort: CohortEntity, usedBy: number[]): CohortRecord {
  return {
    name: cohort.name,
    description: cohort.description,
    kind: cohort.kind,
    rule: cohort.kind === 'rule' ? cohort.rule : null,
    memberCount: cohort.kind === 'static' ? cohort.memberCount : null,
    usedBy: [...usedBy].sort((a, b) => a - b).map(String),
    createdAt: cohort.createdAt,
    createdBy: cohort.createdBy,
    lastUpdatedAt: cohort.lastUpdatedAt,
    lastUpdatedBy: cohort.lastUpdatedBy,
    tenantId: cohort.tenantId,
  };
}
