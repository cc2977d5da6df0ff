import { Body, Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { API_TAG } from '../api-docs/api-tags';
import { ApiBadRequest, BAD_TENANT_EXAMPLE } from '../common/api-error-responses';
import { ApiDataResponse, ApiEmptyResponse, DataEnvelope, dataEnvelope, EmptyEnvelope, emptyEnvelope } from '../common/envelope';
import { ErrorCode } from '../common/error-code';
import { OperatorUser, TenantId } from '../common/request-headers';
import { ValidQuery } from '../common/validation';
import { CtaBodyPipe, CtaUpdateBodyPipe } from './cta-body.pipe';
import { CtaListingService, CtaPage, FilterValues } from './cta-listing.service';
import type { CtaRecord } from './cta-record';
import { CtaValidationReport, CtaValidationService } from './cta-validation.service';
import { CtasService } from './ctas.service';
import { CreateCtaDto, UpdateCtaDto, ValidateCtaDto } from './dto/cta-body.dto';
import { CREATE_EXAMPLE, FLOW_CTA_ID, RECORD_EXAMPLE, RULE_EXAMPLE, UPDATE_EXAMPLE } from './cta-api-examples';
import { CTA_ID_SCHEMA, CtaFilterValuesDto, CtaPageDto, CtaRecordDto, CtaValidationReportDto } from './dto/cta-record.dto';
import { ListCtasQueryDto } from './dto/list-ctas-query.dto';
import { TENANT_HEADER, USER_HEADER } from '../common/api-headers';
import { FLOW_CTA_AUDIT_ID } from '../audit/audit-api-examples';
import { ChangeOrigin } from '../audit/change-origin';
import { RequiresRole } from '../security/admin-roles';

const PAGE_EXAMPLE = {
  ctas: [RECORD_EXAMPLE],
  totalEntries: 1,
  totalPages: 1,
  pageNumber: 0,
  pageSize: 10,
  statusWiseCount: { draft: 0, paused: 0, live: 1, scheduled: 0, concluded: 0, terminated: 0 },
};

/** A rule with problems of both kinds, for the validate endpoint's examples. */
const INVALID_EXAMPLE = {
  ...CREATE_EXAMPLE,
  rule: {
    ...RULE_EXAMPLE,
    stateToAction: { '1': 'store_banner', '2': 'popup' },
    stateTransition: {
      store_opened: {
        '0': [
          {
            transitionTo: 1,
            filters: {
              operator: 'AND',
              filter: [{ propertyName: 'source', propertyType: 'string', comparisonType: 'EQUALS', comparisonValue: 'home' }],
            },
          },
        ],
      },
    },
  },
};

/** What an empty tenant (no event definitions, no cohorts) answers for the two body examples. */
const NO_DEFINITIONS_WARNINGS = {
  storeOpened: { path: 'rule.stateTransition.store_opened', message: 'event "store_opened" is not in the tenant\'s event definitions' },
  groupByKey: { path: 'rule.groupByConfig.groupByKeys[0]', message: '"storeId" is not a property of any event of rule.stateTransition' },
  contextParam: { path: 'rule.contextParams[0]', message: '"storeId" is not a property of any event of rule.stateTransition' },
  cohort: { path: 'rule.cohortEligibility.excludes[0]', message: '"paying_users" is not a cohort of the tenant: no user is in it' },
};

const VALIDATION_EXAMPLES = {
  valid: {
    summary: 'valid, with warnings (no event definitions yet)',
    value: {
      data: {
        valid: true,
        errors: [],
        warnings: [
          NO_DEFINITIONS_WARNINGS.storeOpened,
          {
            path: 'rule.stateTransition.purchase_completed',
            message: 'event "purchase_completed" is not in the tenant\'s event definitions',
          },
          NO_DEFINITIONS_WARNINGS.groupByKey,
          NO_DEFINITIONS_WARNINGS.contextParam,
          NO_DEFINITIONS_WARNINGS.cohort,
        ],
      },
    },
  },
  invalid: {
    summary: 'invalid: every problem at its path',
    value: {
      data: {
        valid: false,
        errors: [
          { path: 'rule.stateToAction.2', message: '"popup" is not an actionId of rule.actions' },
          {
            path: 'rule.stateTransition.store_opened.0[0].filters.filter[0].comparisonType',
            message: '"EQUALS" is not one of =, != for propertyType string',
          },
        ],
        warnings: [
          NO_DEFINITIONS_WARNINGS.storeOpened,
          { path: 'rule.stateToAction.2', message: 'state "2" is never reached: no transition leads to it from "0"' },
          { path: 'rule.resetStates[0]', message: 'state "3" is never reached: no transition leads to it from "0"' },
          NO_DEFINITIONS_WARNINGS.groupByKey,
          NO_DEFINITIONS_WARNINGS.contextParam,
          NO_DEFINITIONS_WARNINGS.cohort,
        ],
      },
    },
  },
};

const ID_PARAM = {
  name: 'ctaId',
  description: `numeric CTA id (${FLOW_CTA_ID}: the CTA the create example makes on an empty database)`,
  example: String(FLOW_CTA_ID),
};

const UNKNOWN_CTA_EXAMPLE = [ErrorCode.CTA_ID_INVALID, 'CTA 99 does not exist'] as const;

/** CTA create, read, update and list (docs/behaviour.md#ctas). */
@ApiTags(API_TAG.ctas)
@ApiHeader(TENANT_HEADER)
@Controller('ctas')
export class CtasController {
  constructor(
    private readonly ctas: CtasService,
    private readonly listing: CtaListingService,
    private readonly validation: CtaValidationService,
  ) {}

  @Post()
  @HttpCode(200)
  @RequiresRole('editor')
  @ApiOperation({ summary: 'Create a CTA (starts in draft)' })
  @ApiHeader(USER_HEADER)
  @ApiBody({
    type: CreateCtaDto,
    examples: { 'first-purchase-reminder': { summary: 'a banner, then a popup, for new users in the store', value: CREATE_EXAMPLE } },
  })
  @ApiDataResponse(CTA_ID_SCHEMA, { description: 'the new CTA id', example: FLOW_CTA_ID })
  @ApiBadRequest(
    'INVALID_REQUEST: missing or invalid fields or rule (the message lists every problem with its field path), a time outside ' +
      '[now - 2 min, now + 5 years], endTime not after startTime, or a missing user header; ' +
      'CTA_DUPLICATE_NAME: the tenant already has a CTA of that name (case-sensitive)',
    [ErrorCode.INVALID_REQUEST, 'name must be a string; tags must be an array; rule is required'],
    [ErrorCode.INVALID_REQUEST, "header 'user' is required"],
    [ErrorCode.CTA_DUPLICATE_NAME, "a CTA named 'first-purchase-reminder' already exists"],
  )
  async create(
    @TenantId() tenantId: string,
    @OperatorUser() user: string,
    @Body(CtaBodyPipe) body: CreateCtaDto,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<DataEnvelope<number>> {
    return dataEnvelope(await this.ctas.create(tenantId, user, body, origin));
  }

  @Post('validate')
  @HttpCode(200)
  @RequiresRole('editor')
  @ApiOperation({
    summary: 'Check a CTA body without saving it',
    description:
      'Takes a create body (`name` optional) and answers what create would refuse (`errors`, each with its JSON path) and ' +
      'what it accepts but an operator should see before going live (`warnings`): events and filter properties missing from ' +
      "the tenant's event definitions or typed differently, states no transition reaches, cohorts the tenant does not have, " +
      'groupByKeys and contextParams no event of the rule carries. Never writes. The rule grammar: docs/rule-reference.md.',
  })
  @ApiBody({ type: ValidateCtaDto, examples: { valid: { value: CREATE_EXAMPLE }, invalid: { value: INVALID_EXAMPLE } } })
  @ApiDataResponse(CtaValidationReportDto, {
    description: 'the report',
    example: VALIDATION_EXAMPLES.invalid.value.data,
    examples: VALIDATION_EXAMPLES,
  })
  @ApiBadRequest('INVALID_REQUEST: the body is not a JSON object, or a malformed x-tenant-id', [
    ErrorCode.INVALID_REQUEST,
    'the body must be a JSON object: a CTA create body (name optional)',
  ])
  async validate(@TenantId() tenantId: string, @Body() body: unknown): Promise<DataEnvelope<CtaValidationReport>> {
    return dataEnvelope(await this.validation.validate(tenantId, body));
  }

  @Get()
  @RequiresRole('viewer')
  @ApiOperation({
    summary: 'List CTAs, newest first',
    description:
      'Filters combine with AND; teams and tags match any of their comma-separated values; empty values are ignored. ' +
      'statusWiseCount counts all six statuses over every filter except status. Test CTAs are never listed.',
  })
  @ApiDataResponse(CtaPageDto, { description: 'one page', example: PAGE_EXAMPLE })
  @ApiBadRequest(
    'CTA_STATUS_INVALID: status is not one of draft, paused, live, scheduled, concluded, terminated; ' +
      'INVALID_REQUEST: pageSize not a decimal integer 1-100, pageNumber not a decimal integer ≥ 0, or a repeated parameter',
    [ErrorCode.CTA_STATUS_INVALID, 'status must be one of draft, paused, live, scheduled, concluded, terminated'],
    [ErrorCode.INVALID_REQUEST, 'pageSize must be a decimal integer between 1 and 100'],
  )
  async list(@TenantId() tenantId: string, @ValidQuery(ErrorCode.INVALID_REQUEST) query: ListCtasQueryDto): Promise<DataEnvelope<CtaPage>> {
    return dataEnvelope(await this.listing.list(tenantId, query));
  }

  @Get(':ctaId')
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'Get one CTA with its behaviour tags and full rule (including the derived ctaValidTill)' })
  @ApiParam(ID_PARAM)
  @ApiDataResponse(CtaRecordDto, { description: 'the CTA', example: RECORD_EXAMPLE })
  @ApiBadRequest('CTA_ID_INVALID: no such CTA in the tenant, a non-numeric id, or a test CTA', UNKNOWN_CTA_EXAMPLE)
  async get(@TenantId() tenantId: string, @Param('ctaId') ctaId: string): Promise<DataEnvelope<CtaRecord>> {
    return dataEnvelope(await this.ctas.get(tenantId, ctaId));
  }

  @Put(':ctaId')
  @RequiresRole('editor')
  @ApiOperation({
    summary: 'Update a CTA (a live or scheduled one only in ways devices can absorb)',
    description:
      'Replaces tags, team and rule; an omitted description, startTime or endTime keeps its value, an explicit null clears it. ' +
      '`name` cannot be sent. Draft and paused CTAs take any valid body. Live and scheduled CTAs take an update that keeps ' +
      'the state graph — the same states (stateTransition, transitionTo, stateToAction, resetStates) and the same ' +
      'groupByConfig.groupByKeys — so texts, templates, actions, filters, priority, frequency, cohorts, tags and team may ' +
      "change; a live CTA's startTime may be omitted, kept or set to a time not in the future, a scheduled one's may move " +
      'but not into the past, and endTime must not be in the past. Anything else needs a pause first. Concluded and terminated ' +
      'CTAs cannot be edited. Devices get the new rule at their next launch.',
  })
  @ApiParam(ID_PARAM)
  @ApiHeader(USER_HEADER)
  @ApiBody({
    type: UpdateCtaDto,
    examples: {
      'first-purchase-reminder': {
        summary: 'the created CTA, unchanged (times omitted, so kept): also taken while it is live',
        value: UPDATE_EXAMPLE,
      },
    },
  })
  @ApiEmptyResponse('updated')
  @ApiBadRequest(
    'INVALID_REQUEST: invalid fields or rule (every problem listed), `name` in the body, a time outside the window, endTime not after startTime, ' +
      'or a missing user header; CTA_ID_INVALID: no such CTA (or a test CTA); CTA_STATUS_UPDATE_INVALID: the CTA is concluded or ' +
      'terminated, or it is live or scheduled and the update changes its state graph or moves its times as the status does not allow ' +
      '(the message names what differs and the way out)',
    [ErrorCode.INVALID_REQUEST, 'name cannot be changed on update'],
    UNKNOWN_CTA_EXAMPLE,
    [ErrorCode.CTA_STATUS_UPDATE_INVALID, 'rule.stateTransition: state "4" is new; pause CTA 1 to change its states'],
    [ErrorCode.CTA_STATUS_UPDATE_INVALID, 'CTA 1 is concluded; concluded and terminated CTAs cannot be edited'],
  )
  async update(
    @TenantId() tenantId: string,
    @OperatorUser() user: string,
    @Param('ctaId') ctaId: string,
    @Body(CtaUpdateBodyPipe) body: UpdateCtaDto,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<EmptyEnvelope> {
    await this.ctas.update(tenantId, user, ctaId, body, origin);
    return emptyEnvelope();
  }

  @Post(':ctaId/restore/:auditId')
  @HttpCode(200)
  @RequiresRole('publisher')
  @ApiTags(API_TAG.audit)
  @ApiOperation({
    summary: 'Restore a CTA to a version in its history',
    description:
      "Puts description, tags, team, startTime, endTime and rule back to the `after` of one of the CTA's audit entries " +
      '(GET /ctas/{ctaId}/history). It is an update in every respect — the same validation, and a live or scheduled CTA ' +
      'only to a version with the same state graph and times its status allows — and is recorded as a `restore` entry. ' +
      'The request body is ignored.',
  })
  @ApiParam(ID_PARAM)
  @ApiParam({
    name: 'auditId',
    description: `id of an audit entry of this CTA (${FLOW_CTA_AUDIT_ID}: the create entry of the CTA example on an empty database)`,
    example: String(FLOW_CTA_AUDIT_ID),
  })
  @ApiHeader(USER_HEADER)
  @ApiEmptyResponse('restored')
  @ApiBadRequest(
    "INVALID_REQUEST: the audit entry does not exist or is not one of this CTA's, the restored rule or times no longer pass " +
      "an update's validation, or a missing user header; CTA_ID_INVALID: no such CTA (or a test CTA); " +
      'CTA_STATUS_UPDATE_INVALID: the CTA is concluded or terminated, or live or scheduled and the version changes its state graph',
    [ErrorCode.INVALID_REQUEST, `audit entry '7' is not an entry of CTA ${FLOW_CTA_ID}`],
    [ErrorCode.CTA_ID_INVALID, 'CTA 99 does not exist'],
    [ErrorCode.CTA_STATUS_UPDATE_INVALID, `rule.stateToAction: state "2" would be gone; pause CTA ${FLOW_CTA_ID} to change its states`],
  )
  async restore(
    @TenantId() tenantId: string,
    @OperatorUser() user: string,
    @Param('ctaId') ctaId: string,
    @Param('auditId') auditId: string,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<EmptyEnvelope> {
    await this.ctas.restore(tenantId, user, ctaId, auditId, origin);
    return emptyEnvelope();
  }
}

/** `GET /filters/`: the values the list filters can take. */
@ApiTags(API_TAG.ctas)
@ApiHeader(TENANT_HEADER)
@Controller('filters')
export class CtaFiltersController {
  constructor(private readonly listing: CtaListingService) {}

  @Get()
  @RequiresRole('viewer')
  @ApiOperation({ summary: "Distinct names, teams, tags and creators of the tenant's CTAs (sorted; test CTAs excluded)" })
  @ApiDataResponse(CtaFilterValuesDto, {
    description: 'filter values',
    example: { names: ['first-purchase-reminder'], teams: ['growth'], tags: ['onboarding', 'store'], createdBy: ['ops@example.com'] },
  })
  @ApiBadRequest('INVALID_REQUEST: a malformed x-tenant-id', BAD_TENANT_EXAMPLE)
  async filters(@TenantId() tenantId: string): Promise<DataEnvelope<FilterValues>> {
    return dataEnvelope(await this.listing.filterValues(tenantId));
  }
}
