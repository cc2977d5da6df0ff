import { applyDecorators, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  ApiBody,
  ApiHeader,
  ApiOperation,
  ApiParam,
  ApiPayloadTooLargeResponse,
  ApiTags,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import type { OpenAPIObject } from '@nestjs/swagger';
import { ChangeOrigin } from '../audit/change-origin';
import { TENANT_HEADER, USER_HEADER } from '../common/api-headers';
import { API_TAG } from '../api-docs/api-tags';
import { ApiBadRequest, ApiNotFound, BAD_TENANT_EXAMPLE, errorExamples } from '../common/api-error-responses';
import { ApiDataResponse, DataEnvelope, dataEnvelope, ErrorEnvelopeDto, NULL_DATA } from '../common/envelope';
import { ErrorCode } from '../common/error-code';
import type { ErrorExample } from '../common/api-error-responses';
import { OperatorUser, TenantId } from '../common/request-headers';
import { ValidBody } from '../common/validation';
import { CohortMembersService, MemberChange } from './cohort-members.service';
import type { CohortRecord } from './cohort-record';
import { CohortsService } from './cohorts.service';
import { CreateCohortDto, UpdateCohortDto } from './dto/cohort-body.dto';
import { CohortListDto, CohortRecordDto, MemberChangeDto, MembershipDto } from './dto/cohort-record.dto';
import { MemberUpload, MemberUploadBody } from './member-uploads';
import { RequiresRole } from '../security/admin-roles';

const BELOW_5_2 = { all: [{ attribute: 'appVersion', op: 'semverLt', value: '5.2' }] };
const TENTH_OF_APP = { all: [{ attribute: 'packageName', op: 'eq', value: 'com.example.app' }, { bucket: { from: 0, to: 10 } }] };

const STATIC_RECORD: CohortRecord = {
  name: 'beta-testers',
  description: 'Users who joined the beta programme',
  kind: 'static',
  rule: null,
  memberCount: 3,
  usedBy: ['12'],
  createdAt: 1795372967296,
  createdBy: 'alice@example.com',
  lastUpdatedAt: 1795372990000,
  lastUpdatedBy: 'alice@example.com',
  tenantId: 'default',
};
const RULE_RECORD: CohortRecord = {
  ...STATIC_RECORD,
  name: 'old-app-versions',
  description: 'Users on app versions below 5.2',
  kind: 'rule',
  rule: BELOW_5_2 as CohortRecord['rule'],
  memberCount: null,
  usedBy: [],
  lastUpdatedAt: null,
  lastUpdatedBy: null,
};

const NAME_PARAM = { name: 'name', description: 'the cohort name', example: 'beta-testers' };
const NOT_FOUND = (): MethodDecorator =>
  ApiNotFound('COHORT_NOT_FOUND: the tenant has no cohort of this name', [
    ErrorCode.COHORT_NOT_FOUND,
    "cohort 'beta-testers' does not exist",
  ]);
const BAD_TENANT = (): MethodDecorator => ApiBadRequest('INVALID_REQUEST: malformed x-tenant-id', BAD_TENANT_EXAMPLE);
const MISSING_USER: ErrorExample = [ErrorCode.INVALID_REQUEST, "header 'user' is required"];

const CSV_FORMAT =
  'As `text/csv` (or `text/plain`): one user id (a signed 64-bit decimal integer) per line, an optional first line ' +
  '`userId`, blank lines ignored; read as a stream, up to COHORT_UPLOAD_LIMIT_BYTES (default 256 MiB; more → 413 ' +
  'PAYLOAD_TOO_LARGE). As JSON: `{"userIds": [...]}` with up to 100,000 ids, JSON integers or decimal strings. ' +
  'One bad id → 400 INVALID_REQUEST naming its line (numbered from 1, the header line included) or its index, and ' +
  'nothing changes. A cohort holds at most 1,000,000 members.';
const CSV_EXAMPLE = 'userId\n1001\n1002\n-9223372036854775808\n';

const MEMBERS_BODY = {
  required: true,
  schema: {
    type: 'object',
    properties: {
      userIds: {
        type: 'array',
        items: {
          oneOf: [
            { type: 'integer', format: 'int64' },
            { type: 'string', pattern: '^-?\\d+$' },
          ],
        },
      },
    },
  },
  examples: { ids: { value: { userIds: [1001, '1002', '-9223372036854775808'] } } },
} as const;

const MEMBER_ERRORS = (): MethodDecorator =>
  ApiBadRequest(
    'INVALID_REQUEST: a bad id (the message names its line or index; nothing changed), a rule cohort, more than 100,000 JSON ids, more than 1,000,000 members, a missing user header',
    [ErrorCode.INVALID_REQUEST, 'line 4: "abc" is not a user id (a signed 64-bit integer)'],
    [ErrorCode.INVALID_REQUEST, 'userIds[1]: "x" is not a signed 64-bit integer'],
    [ErrorCode.INVALID_REQUEST, "cohort 'old-app-versions' is a rule cohort: only static cohorts have members"],
    MISSING_USER,
  );
const TOO_LARGE = (): MethodDecorator =>
  ApiPayloadTooLargeResponse({
    type: ErrorEnvelopeDto,
    description: 'PAYLOAD_TOO_LARGE: a CSV upload over COHORT_UPLOAD_LIMIT_BYTES, or a JSON body over 4 MiB',
    examples: errorExamples([[ErrorCode.PAYLOAD_TOO_LARGE, 'the upload is larger than 268435456 bytes (COHORT_UPLOAD_LIMIT_BYTES)']]),
  });
const WRONG_TYPE = (types: string): MethodDecorator =>
  ApiUnsupportedMediaTypeResponse({
    type: ErrorEnvelopeDto,
    description: `UNSUPPORTED_MEDIA_TYPE: a body that is not ${types}`,
    examples: errorExamples([[ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'Unsupported Media Type']]),
  });

/** Uploads: the JSON body here; `withCsvMemberBodies` adds the CSV one to the document. */
const ApiMemberUpload = (): MethodDecorator => ApiBody({ ...MEMBERS_BODY, description: CSV_FORMAT } as never);

const MEMBER_UPLOAD_PATH = /\/cohorts\/\{name\}\/members$/;

/**
 * The CSV bodies of the member uploads, beside their JSON ones (a decorator can give a
 * route one schema for all its media types only). Applied to the built document.
 */
export function withCsvMemberBodies(document: OpenAPIObject): OpenAPIObject {
  const csv = { schema: { type: 'string', description: CSV_FORMAT }, example: CSV_EXAMPLE };
  for (const [path, operations] of Object.entries(document.paths)) {
    if (!MEMBER_UPLOAD_PATH.test(path)) continue;
    for (const operation of [operations.post, operations.put]) {
      const body = operation?.requestBody;
      if (body && 'content' in body) Object.assign(body.content, { 'text/csv': csv, 'text/plain': csv });
    }
  }
  return document;
}

/** Cohorts (docs/decisions/0008-cohorts.md), under the admin prefix: static lists of users and rules over the launch's attributes. */
@ApiTags(API_TAG.cohorts)
@Controller('cohorts')
export class CohortsController {
  constructor(
    private readonly cohorts: CohortsService,
    private readonly members: CohortMembersService,
  ) {}

  @Post()
  @RequiresRole('editor')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a cohort',
    description:
      'A static cohort is a list of user ids (upload them with the members routes); a rule cohort holds for the launches ' +
      "whose client attributes and user id meet its rule. Name it in a CTA's `cohortEligibility.includes` or `excludes`.",
  })
  @ApiHeader(TENANT_HEADER)
  @ApiHeader(USER_HEADER)
  @ApiBody({
    type: CreateCohortDto,
    examples: {
      static: {
        summary: 'a list of users',
        value: { name: 'beta-testers', description: 'Users who joined the beta programme', kind: 'static' },
      },
      appVersion: { summary: 'users on app versions below 5.2', value: { name: 'old-app-versions', kind: 'rule', rule: BELOW_5_2 } },
      bucket: { summary: '10% of users of com.example.app', value: { name: 'example-app-10pct', kind: 'rule', rule: TENTH_OF_APP } },
    },
  })
  @ApiDataResponse(CohortRecordDto, { description: 'the new cohort', example: STATIC_RECORD })
  @ApiBadRequest(
    'INVALID_REQUEST: a bad name (characters, length, `all`), kind or rule (every problem named with its path); ' +
      'COHORT_DUPLICATE_NAME: the tenant has a cohort of this name',
    [ErrorCode.INVALID_REQUEST, "name 'all' is reserved: every user is in it"],
    [ErrorCode.INVALID_REQUEST, 'rule.all[0].attribute: "osVersion" is not one of appVersion, packageName, hotpatchVersion'],
    [ErrorCode.COHORT_DUPLICATE_NAME, "a cohort named 'beta-testers' already exists"],
    MISSING_USER,
  )
  async create(
    @TenantId() tenantId: string,
    @OperatorUser() user: string,
    @ValidBody(ErrorCode.INVALID_REQUEST) body: CreateCohortDto,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<DataEnvelope<CohortRecord>> {
    return dataEnvelope(await this.cohorts.create(tenantId, user, body, origin));
  }

  @Get()
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'List the cohorts of the tenant', description: 'By name.' })
  @ApiHeader(TENANT_HEADER)
  @ApiDataResponse(CohortListDto, { description: 'every cohort', example: { cohorts: [STATIC_RECORD, RULE_RECORD] } })
  @BAD_TENANT()
  async list(@TenantId() tenantId: string): Promise<DataEnvelope<CohortListDto>> {
    return dataEnvelope({ cohorts: await this.cohorts.list(tenantId) });
  }

  @Get(':name')
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'Read a cohort' })
  @ApiParam(NAME_PARAM)
  @ApiHeader(TENANT_HEADER)
  @ApiDataResponse(CohortRecordDto, { description: 'the cohort', example: STATIC_RECORD })
  @BAD_TENANT()
  @NOT_FOUND()
  async get(@TenantId() tenantId: string, @Param('name') name: string): Promise<DataEnvelope<CohortRecord>> {
    return dataEnvelope(await this.cohorts.get(tenantId, name));
  }

  @Put(':name')
  @RequiresRole('editor')
  @HttpCode(200)
  @ApiOperation({
    summary: "Update a cohort's description or rule",
    description: 'An omitted field keeps its value; the name and the kind never change.',
  })
  @ApiParam(NAME_PARAM)
  @ApiHeader(TENANT_HEADER)
  @ApiHeader(USER_HEADER)
  @ApiBody({ type: UpdateCohortDto, examples: { description: { value: { description: 'Users who joined the beta programme in 2026' } } } })
  @ApiDataResponse(CohortRecordDto, { description: 'the updated cohort', example: STATIC_RECORD })
  @ApiBadRequest(
    'INVALID_REQUEST: a bad description or rule, a rule for a static cohort, name or kind sent',
    [ErrorCode.INVALID_REQUEST, 'kind cannot be changed (delete the cohort and create it again)'],
    [ErrorCode.INVALID_REQUEST, 'rule: static cohorts have no rule (their members are uploaded)'],
    MISSING_USER,
  )
  @NOT_FOUND()
  async update(
    @TenantId() tenantId: string,
    @OperatorUser() user: string,
    @Param('name') name: string,
    @ValidBody(ErrorCode.INVALID_REQUEST) body: UpdateCohortDto,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<DataEnvelope<CohortRecord>> {
    return dataEnvelope(await this.cohorts.update(tenantId, user, name, body, origin));
  }

  @Delete(':name')
  @RequiresRole('editor')
  @ApiOperation({
    summary: 'Delete a cohort',
    description: 'Refused while a live, scheduled or paused CTA, or the rule of another cohort, names it.',
  })
  @ApiParam(NAME_PARAM)
  @ApiHeader(TENANT_HEADER)
  @ApiHeader(USER_HEADER)
  @ApiDataResponse(NULL_DATA, { description: 'deleted', example: null })
  @ApiBadRequest(
    "COHORT_IN_USE: live, scheduled or paused CTAs (named in the message), or another cohort's rule, name the cohort; INVALID_REQUEST: a missing user header",
    [
      ErrorCode.COHORT_IN_USE,
      "cohort 'beta-testers' is named by live, scheduled or paused CTAs 12; conclude, terminate or edit them first",
    ],
    MISSING_USER,
  )
  @NOT_FOUND()
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
  @MemberUploadRoute({ summary: 'Add members to a static cohort', description: `Adds the ids (members already in count 0). ${CSV_FORMAT}` })
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
  @MemberUploadRoute({
    summary: 'Replace the members of a static cohort',
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
  @RequiresRole('editor')
  @ApiOperation({
    summary: 'Remove members from a static cohort',
    description: 'JSON `{"userIds": [...]}` only (up to 100,000 ids); non-members count 0.',
  })
  @ApiParam(NAME_PARAM)
  @ApiHeader(TENANT_HEADER)
  @ApiHeader(USER_HEADER)
  @ApiBody(MEMBERS_BODY as never)
  @WRONG_TYPE('application/json')
  @ApiDataResponse(MemberChangeDto, { description: 'what changed', example: { added: 0, removed: 1, memberCount: 2 } })
  @MEMBER_ERRORS()
  @NOT_FOUND()
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
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'Whether a user is a member of a static cohort' })
  @ApiParam(NAME_PARAM)
  @ApiParam({ name: 'userId', description: 'a signed 64-bit decimal integer', example: '1001' })
  @ApiHeader(TENANT_HEADER)
  @ApiDataResponse(MembershipDto, { description: 'membership', example: { member: true } })
  @ApiBadRequest('INVALID_REQUEST: a userId that is not a signed 64-bit integer, or a rule cohort', [
    ErrorCode.INVALID_REQUEST,
    'userId "abc" is not a signed 64-bit integer',
  ])
  @NOT_FOUND()
  async isMember(
    @TenantId() tenantId: string,
    @Param('name') name: string,
    @Param('userId') userId: string,
  ): Promise<DataEnvelope<MembershipDto>> {
    return dataEnvelope({ member: await this.members.isMember(tenantId, name, userId) });
  }
}

/** The role, status and docs of the two upload routes (add and replace), which differ only in what they do. */
function MemberUploadRoute(operation: { summary: string; description: string }): MethodDecorator {
  // Listed as they would be stacked on a method; stacked decorators apply bottom-up, so the docs keep their order.
  const stacked = [
    RequiresRole('editor'),
    HttpCode(200),
    ApiOperation(operation),
    ApiParam(NAME_PARAM),
    ApiHeader(TENANT_HEADER),
    ApiHeader(USER_HEADER),
    ApiMemberUpload(),
    ApiDataResponse(MemberChangeDto, { description: 'what changed', example: { added: 3, removed: 0, memberCount: 3 } }),
    MEMBER_ERRORS(),
    NOT_FOUND(),
    TOO_LARGE(),
    WRONG_TYPE('application/json, text/csv or text/plain'),
  ];
  return applyDecorators(...stacked.reverse());
}
