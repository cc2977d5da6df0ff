/**
 * What a host gateway imports (docs/decisions/0019-importable-module.md): the module and its options, the
 * cohort port, the schema to register and migrate on the host's connection,
 * the wire DTOs and types, and the error codes.
 */

// The module and its options.
export { CtaOrchestrationModule } from './cta-orchestration.module';
export type {
  CtaOrchestrationAsyncOptions,
  CtaOrchestrationOptions,
  CtaOrchestrationRoutingOptions,
  CtaOrchestrationRuntimeOptions,
} from './orchestration-options';

// The host's FastifyAdapter options the routes need (paths with and without a trailing slash).
export { ORCHESTRATION_FASTIFY_OPTIONS } from './http/fastify-options';
// The JSON body handling (empty body as none, the nesting limit): a host registers it on its Fastify instance before `app.init()`.
export { registerJsonBodyParser } from './http/json-body-parser';
export { MAX_JSON_DEPTH } from './common/json-text';
// The SDK routes' body limit and one request per app user at a time: a host registers them before `app.init()`.
export { DEFAULT_SDK_BODY_LIMIT_BYTES, MAX_WAITING_PER_USER, registerSdkRequestLimits } from './http/sdk-request-limits';
// A lane of their own for bodies over 64 KiB, on every route (admin and SDK): a host registers it before `app.init()`.
export { DEFAULT_LARGE_BODY_LANE, LARGE_BODY_BYTES, type LargeBodyLaneOptions, registerLargeBodyLane } from './http/large-body-lane';

// App-user tokens on the SDK state-machine routes (docs/decisions/0010-roles-keys-and-tokens.md): options of the built-in
// verifier, or the port of a host's own.
export type { AppUserTokenOptions, AppUserTokenVerifier } from './security/app-user-tokens';

// Cohorts (docs/decisions/0008-cohorts.md).
export { ALL_USERS_COHORT, AllUsersCohortProvider, COHORT_PROVIDER, InjectCohortProvider } from './cohorts/cohort-provider';
export type { CohortClient, CohortProvider } from './cohorts/cohort-provider';
// Member uploads as CSV streams: a host registers the parser on its Fastify instance before `app.init()`.
export { DEFAULT_COHORT_UPLOAD_LIMIT_BYTES, registerMemberUploads } from './cohorts/member-uploads';
export type { CohortRecord } from './cohorts/cohort-record';
export type { CohortCondition, CohortKind, CohortRule } from './cohorts/cohort-rule';

// Schema: register the entities on the host's connection, run the migrations with the host's own.
export { ORCHESTRATION_ENTITIES, ORCHESTRATION_MIGRATIONS } from './orchestration-schema';
export { ORCHESTRATION_MYSQL_OPTIONS } from './database/database-options';
export { CtaApprovalEntity } from './approvals/cta-approval.entity';
export { BehaviourTagCtaEntity } from './behaviour-tags/behaviour-tag-cta.entity';
export { BehaviourTagEntity } from './behaviour-tags/behaviour-tag.entity';
export { CatalogueRevisionEntity } from './catalogue/catalogue-revision.entity';
export { CohortEntity } from './cohorts/cohort.entity';
export { CohortMemberEntity } from './cohorts/cohort-member.entity';
export { CtaCohortEntity } from './cohorts/cta-cohort.entity';
export { CtaTagEntity } from './ctas/cta-tag.entity';
export { CtaTestUserEntity } from './ctas/cta-test-user.entity';
export { CtaEntity } from './ctas/cta.entity';
export { EventDefinitionEntity } from './events/event-definition.entity';
export { ExposurePolicyEntity } from './exposure-policy/exposure-policy.entity';
export { NudgePreviewEntity } from './nudge-preview/nudge-preview.entity';
export { UserStateEntity } from './sdk/user-state.entity';

// Request and response bodies.
export * from './behaviour-tags/dto/behaviour-tag-body.dto';
export * from './behaviour-tags/dto/behaviour-tag-record.dto';
export * from './cohorts/dto/cohort-body.dto';
export * from './ctas/dto/cta-body.dto';
export * from './ctas/dto/list-ctas-query.dto';
export * from './ctas/dto/test-cta-body.dto';
export * from './events/dto/event-definition.dto';
export * from './exposure-policy/dto/exposure-policy.dto';
export * from './nudge-preview/dto/nudge-preview.dto';
export * from './sdk/dto/snapshot-request.dto';
export type { CtaRecord } from './ctas/cta-record';
export type { CtaFrequency, CtaRule, Limit, StateTransitionCondition, WindowUnit } from './rule/rule.types';
export type { CtaStatus } from './cta-lifecycle/cta-statuses';
export type { CtaRelation, CtaRelationRule, CtaRelationSide, TagExposureRule } from './behaviour-tags/behaviour-tag.types';
export type { EventDefinition, EventProperty } from './events/event-definition.types';
export type { CalendarDayWindow, ExposurePolicy, ExposureWindow, RollingWindow } from './exposure-policy/exposure-policy';
export { ErrorEnvelopeDto } from './common/envelope';
export type { DataEnvelope, EmptyEnvelope, ErrorEnvelope, EventEnvelope } from './common/envelope';

// Errors: the codes the API answers with; a host guard may throw a DomainError to answer in the same envelope.
export { ErrorCode, HTTP_STATUS_OF } from './common/error-code';
export { DomainError } from './common/domain-error';

// Operator roles (docs/decisions/0010-roles-keys-and-tokens.md): the role each admin route needs, for a host's own guard;
// naming the operator in the audit history.
export { ADMIN_ROLES, RequiresRole, requiredRoleOf, roleAllows } from './security/admin-roles';
export type { AdminRole } from './security/admin-roles';
export { setAuditActor } from './security/operator';
export { AuditEntryEntity } from './audit/audit-entry.entity';
export type { AuditAction, AuditEntityType, AuditEntry, AuditPage } from './audit/audit.types';

// Time: hosts and their tests may bind their own clock (e.g. `overrideProvider(Clock)`).
export { Clock } from './common/clock';
