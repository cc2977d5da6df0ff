import type { DataSourceOptions } from 'typeorm';
import { CtaApprovalEntity } from './approvals/cta-approval.entity';
import { AuditEntryEntity } from './audit/audit-entry.entity';
import { BehaviourTagCtaEntity } from './behaviour-tags/behaviour-tag-cta.entity';
import { BehaviourTagEntity } from './behaviour-tags/behaviour-tag.entity';
import { CatalogueRevisionEntity } from './catalogue/catalogue-revision.entity';
import { CohortMemberEntity } from './cohorts/cohort-member.entity';
import { CohortEntity } from './cohorts/cohort.entity';
import { CtaCohortEntity } from './cohorts/cta-cohort.entity';
import { CtaTagEntity } from './ctas/cta-tag.entity';
import { CtaTestUserEntity } from './ctas/cta-test-user.entity';
import { CtaEntity } from './ctas/cta.entity';
import { ExperimentArmEntity } from './insights/experiment-arm.entity';
import { ExposurePolicyEntity } from './exposure-policy/exposure-policy.entity';
import { EventDefinitionEntity } from './events/event-definition.entity';
import { InsightCtaEntity } from './insights/insight-cta.entity';
import { InsightDayEntity } from './insights/insight-day.entity';
import { InsightMonthEntity } from './insights/insight-month.entity';
import { InsightStateEntity } from './insights/insight-state.entity';
import { NudgePreviewEntity } from './nudge-preview/nudge-preview.entity';
import { PeriodicJobLeaseEntity } from './scheduling/periodic-job-lease.entity';
import { UserStateEntity } from './sdk/user-state.entity';
import { connectionOptions } from './database/database-options';
import { CreateCtas1767225600000 } from './database/migrations/1767225600000-CreateCtas';
import { CreateBehaviourTags1767225600001 } from './database/migrations/1767225600001-CreateBehaviourTags';
import { CreateCatalogueRevisions1767225600002 } from './database/migrations/1767225600002-CreateCatalogueRevisions';
import { CreateEventDefinitions1767225600003 } from './database/migrations/1767225600003-CreateEventDefinitions';
import { CreateNudgePreviews1767225600004 } from './database/migrations/1767225600004-CreateNudgePreviews';
import { CreateSdkUserStates1767225600600 } from './database/migrations/1767225600600-CreateSdkUserStates';
import { CreatePeriodicJobLeases1767225601500 } from './database/migrations/1767225601500-CreatePeriodicJobLeases';
import { CreateCohorts1767225601900 } from './database/migrations/1767225601900-CreateCohorts';
import { CreateAuditEntries1767225602000 } from './database/migrations/1767225602000-CreateAuditEntries';
import { AddCampaignInsights1767225603100 } from './database/migrations/1767225603100-AddCampaignInsights';
import { AddCtaApprovals1767225603300 } from './database/migrations/1767225603300-AddCtaApprovals';
import { AddExposurePolicy1767225603500 } from './database/migrations/1767225603500-AddExposurePolicy';
import { AddCtaExperiments1767225603600 } from './database/migrations/1767225603600-AddCtaExperiments';

/**
 * Every entity of the service, by the feature that owns the table (only that feature's folder
 * reads or writes it; others go through what its module exports). A host registers them on its
 * own connection. Here rather than in `database/`, which knows no feature.
 */
export const ORCHESTRATION_ENTITIES = [
  // ctas
  CtaEntity,
  CtaTagEntity,
  CtaTestUserEntity,
  // behaviour-tags
  BehaviourTagEntity,
  BehaviourTagCtaEntity,
  // catalogue
  CatalogueRevisionEntity,
  // events
  EventDefinitionEntity,
  // nudge-preview
  NudgePreviewEntity,
  // sdk
  UserStateEntity,
  // scheduling (the periodic jobs' leases)
  PeriodicJobLeaseEntity,
  // cohorts
  CohortEntity,
  CohortMemberEntity,
  CtaCohortEntity,
  // audit
  AuditEntryEntity,
  // approvals
  CtaApprovalEntity,
  // insights
  InsightDayEntity,
  InsightMonthEntity,
  InsightCtaEntity,
  InsightStateEntity,
  ExperimentArmEntity,
  // exposure-policy
  ExposurePolicyEntity,
];

/** Every migration, in order; a host runs them with its own. */
export const ORCHESTRATION_MIGRATIONS = [
  CreateCtas1767225600000,
  CreateBehaviourTags1767225600001,
  CreateCatalogueRevisions1767225600002,
  CreateEventDefinitions1767225600003,
  CreateNudgePreviews1767225600004,
  CreateSdkUserStates1767225600600,
  CreatePeriodicJobLeases1767225601500,
  CreateCohorts1767225601900,
  CreateAuditEntries1767225602000,
  AddCampaignInsights1767225603100,
  AddCtaApprovals1767225603300,
  AddExposurePolicy1767225603500,
  AddCtaExperiments1767225603600,
];

/**
 * The standalone service's connection for `DB_URL` (docs/decisions/0013-persistence-and-migrations.md): the driver's
 * options and this schema.
 */
export function dataSourceOptions(dbUrl: string | undefined, migrationsRun = true): DataSourceOptions {
  return { ...connectionOptions(dbUrl), entities: ORCHESTRATION_ENTITIES, migrations: ORCHESTRATION_MIGRATIONS, migrationsRun };
}
