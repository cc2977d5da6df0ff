import { Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminEndpoint, type AdminEndpointDoc } from '../api-docs/endpoint';
import { API_TAG } from '../api-docs/api-tags';
import { USER_HEADER } from '../common/api-headers';
import { DataEnvelope, dataEnvelope, NULL_DATA } from '../common/envelope';
import { ErrorCode } from '../common/error-code';
import { TenantId } from '../common/request-headers';
import { OperatorUser } from '../security/operator';
import { CheckedBody, ValidQuery } from '../common/validation';
import { ChangeOrigin } from '../audit/change-origin';
import {
  COHORT_BODY_EXAMPLES,
  COHORT_ERRORS,
  COHORT_EXAMPLE_NEEDS,
  COHORT_NAME_PARAM,
  DELETED_COHORT_PARAM,
  CSV_FORMAT,
  CSV_MEMBER_BODIES,
  MEMBER_CHANGE_EXAMPLES,
  MEMBER_ID_PARAM,
  MEMBER_IDS_BODY,
  RULE_RECORD,
  STATIC_RECORD,
} from './cohort-api-examples';
import { createCohortProblems, updateCohortProblems } from './cohort-body';
import { ALL_USERS_COHORT } from './cohort-provider';
import { CohortMembersService, MemberChange } from './cohort-members.service';
import type { CohortRecord } from './cohort-record';
import { CohortsService } from './cohorts.service';
import { CreateCohortDto, UpdateCohortDto } from './dto/cohort-body.dto';
import { CohortListDto, CohortNamesQueryDto, CohortRecordDto, MemberChangeDto, MembershipDto } from './dto/cohort-record.dto';
import { MemberUpload, MemberUploadBody } from './member-uploads';

/** What the two upload routes (add and replace) share: they differ only in what they do. */
const MEMBER_UPLOAD = {
  role: 'editor',
  params: [COHORT_NAME_PARAM],
  headers: [USER_HEADER],
  body: { ...MEMBER_IDS_BODY, description: CSV_FORMAT },
  otherBodyMediaTypes: CSV_MEMBER_BODIES,
  answers: { data: MemberChangeDto, description: 'what changed', example: MEMBER_CHANGE_EXAMPLES.upload },
  errors: COHORT_ERRORS.uploadMembers,
} satisfies Omit<AdminEndpointDoc, 'summary'>;

/** Cohorts (docs/decisions/0008-cohorts.md), under the admin prefix: static lists of users and rules over the launch's attributes. */
@ApiTags(API_TAG.cohorts)
@Controller('cohorts')
export class CohortsController {
  constructor(
    private readonly cohorts: CohortsService,
    private readonly members: CohortMembersService,
  ) {}

  @Post()
  @AdminEndpoint({
    summary: 'Create a cohort',
    description:
      'A static cohort is a list of user ids (upload them with the members routes); a rule cohort holds for the launches ' +
      "whose client attributes and user id meet its rule. Name it in a CTA's `cohortEligibility.includes` or `excludes`.",
    role: 'editor',
    headers: [USER_HEADER],
    body: { type: CreateCohortDto, examples: COHORT_BODY_EXAMPLES.create },
    answers: { data: CohortRecordDto, description: 'the new cohort', example: STATIC_RECORD },
    errors: COHORT_ERRORS.create,
  })
  async create(
    @TenantId() tenantId: string,
    @OperatorUser() user: string,
    @CheckedBody(ErrorCode.INVALID_REQUEST, createCohortProblems) body: CreateCohortDto,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<DataEnvelope<CohortRecord>> {
    return dataEnvelope(await this.cohorts.create(tenantId, user, body, origin));
  }

  @Get()
  @AdminEndpoint({
    summary: 'List the cohorts of the tenant',
    description: 'By name.',
    role: 'viewer',
    answers: { data: CohortListDto, description: 'every cohort', example: { cohorts: [STATIC_RECORD, RULE_RECORD] } },
    errors: COHORT_ERRORS.list,
  })
  async list(@TenantId() tenantId: string): Promise<DataEnvelope<CohortListDto>> {
    return dataEnvelope({ cohorts: await this.cohorts.list(tenantId) });
  }

  @Get(':name')
  @AdminEndpoint({
    summary: 'Read a cohort',
    exampleNeeds: COHORT_EXAMPLE_NEEDS.staticCohort,
    role: 'viewer',
    params: [COHORT_NAME_PARAM],
    answers: { data: CohortRecordDto, description: 'the cohort', example: STATIC_RECORD },
    errors: COHORT_ERRORS.get,
  })
  async get(@TenantId() tenantId: string, @Param('name') name: string): Promise<DataEnvelope<CohortRecord>> {
    return dataEnvelope(await this.cohorts.get(tenantId, name));
  }

  @Put(':name')
  @AdminEndpoint({
    summary: "Update a cohort's description or rule",
    exampleNeeds: COHORT_EXAMPLE_NEEDS.staticCohort,
    description: 'An omitted field keeps its value; the name and the kind never change.',
    role: 'editor',
    params: [COHORT_NAME_PARAM],
    headers: [USER_HEADER],
    body: { type: UpdateCohortDto, examples: COHORT_BODY_EXAMPLES.update },
    answers: { data: CohortRecordDto, description: 'the updated cohort', example: STATIC_RECORD },
    errors: COHORT_ERRORS.update,
  })
  async update(
    @TenantId() tenantId: string,
    @OperatorUser() user: string,
    @Param('name') name: string,
    @CheckedBody(ErrorCode.INVALID_REQUEST, updateCohortProblems) body: UpdateCohortDto,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<DataEnvelope<CohortRecord>> {
    return dataEnvelope(await this.cohorts.update(tenantId, user, name, body, origin));
  }

  @Delete(':name')
  @AdminEndpoint({
    summary: 'Delete a cohort',
    exampleNeeds: COHORT_EXAMPLE_NEEDS.deletedCohort,
    description: 'Refused while a live, scheduled or paused CTA, or the rule of another cohort, names it.',
    role: 'editor',
    params: [DELETED_COHORT_PARAM],
    headers: [USER_HEADER],
    answers: { data: NULL_DATA, description: 'deleted', example: null },
    errors: COHORT_ERRORS.delete,
  })
  async delete(
    @TenantId() tenantId: string,
    @OperatorUser() _user: string,
    @Param('name') name: string,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<DataEnvelope<null>> {
    await this.cohorts.delete(tenantId, name, origin);
    return dataEnvelope(null);
  }

  @Post(':name/members')
  @AdminEndpoint({
    ...MEMBER_UPLOAD,
    summary: 'Add members to a static cohort',
    exampleNeeds: COHORT_EXAMPLE_NEEDS.staticCohort,
    description: `Adds the ids (members already in count 0). ${CSV_FORMAT}`,
  })
  async addMembers(
    @TenantId() tenantId: string,
    @OperatorUser() user: string,
    @Param('name') name: string,
    @MemberUploadBody() upload: MemberUpload,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<DataEnvelope<MemberChange>> {
    return dataEnvelope(await this.members.add(tenantId, user, name, upload, origin));
  }

  @Put(':name/members')
  @AdminEndpoint({
    ...MEMBER_UPLOAD,
    summary: 'Replace the members of a static cohort',
    exampleNeeds: COHORT_EXAMPLE_NEEDS.staticCohort,
    description: `Atomic: a launch sees the old list or the new one, never a mix, and is not blocked while the upload runs. ${CSV_FORMAT}`,
  })
  async replaceMembers(
    @TenantId() tenantId: string,
    @OperatorUser() user: string,
    @Param('name') name: string,
    @MemberUploadBody() upload: MemberUpload,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<DataEnvelope<MemberChange>> {
    return dataEnvelope(await this.members.replace(tenantId, user, name, upload, origin));
  }

  @Delete(':name/members')
  @AdminEndpoint({
    summary: 'Remove members from a static cohort',
    exampleNeeds: COHORT_EXAMPLE_NEEDS.staticCohort,
    description: 'JSON `{"userIds": [...]}` only (up to 100,000 ids); non-members count 0.',
    role: 'editor',
    params: [COHORT_NAME_PARAM],
    headers: [USER_HEADER],
    body: MEMBER_IDS_BODY,
    answers: { data: MemberChangeDto, description: 'what changed', example: MEMBER_CHANGE_EXAMPLES.remove },
    errors: COHORT_ERRORS.removeMembers,
  })
  async removeMembers(
    @TenantId() tenantId: string,
    @OperatorUser() user: string,
    @Param('name') name: string,
    @MemberUploadBody() upload: MemberUpload,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<DataEnvelope<MemberChange>> {
    return dataEnvelope(await this.members.remove(tenantId, user, name, upload, origin));
  }

  @Get(':name/members/:userId')
  @AdminEndpoint({
    summary: 'Whether a user is a member of a static cohort',
    exampleNeeds: COHORT_EXAMPLE_NEEDS.staticCohort,
    role: 'viewer',
    params: [COHORT_NAME_PARAM, MEMBER_ID_PARAM],
    answers: { data: MembershipDto, description: 'membership', example: { member: true } },
    errors: COHORT_ERRORS.isMember,
  })
  async isMember(
    @TenantId() tenantId: string,
    @Param('name') name: string,
    @Param('userId') userId: string,
  ): Promise<DataEnvelope<MembershipDto>> {
    return dataEnvelope({ member: await this.members.isMember(tenantId, name, userId) });
  }
}

/**
 * `GET /cohort-names`: the names a CTA can target, `all` first, as the cohort picker of the real admin panel reads
 * them (`data` an array of names; it sends a `userId` of its own, which is ignored): docs/admin-panel.md.
 */
@ApiTags(API_TAG.cohorts)
@Controller('cohort-names')
export class CohortNamesController {
  constructor(private readonly cohorts: CohortsService) {}

  @Get()
  @AdminEndpoint({
    summary: 'The cohort names a CTA can target: `all`, then every cohort of the tenant by name',
    description:
      "For cohort pickers (the real admin panel's NEXT_PUBLIC_COHORT_URL): `all` is every user; the rest are the tenant's " +
      'static and rule cohorts, sorted. A `userId` query parameter is accepted and ignored.',
    role: 'viewer',
    answers: {
      data: { type: 'array', items: { type: 'string' } },
      description: '`all` and every cohort name',
      example: [ALL_USERS_COHORT, STATIC_RECORD.name, RULE_RECORD.name],
    },
    errors: COHORT_ERRORS.list,
  })
  async names(@TenantId() tenantId: string, @ValidQuery() _query: CohortNamesQueryDto): Promise<DataEnvelope<string[]>> {
    return dataEnvelope(await this.cohorts.names(tenantId));
  }
}
