import { Body, Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { DataEnvelope, dataEnvelope, dataEnvelopeSchema, EMPTY_ENVELOPE_SCHEMA, EmptyEnvelope, emptyEnvelope, ErrorEnvelopeDto } from '../common/envelope';
import { ErrorCode } from '../common/error-code';
import { OperatorUser, TenantId } from '../common/request-headers';
import { ValidBody, ValidQuery } from '../common/validation';
import { CtaListingService, CtaPage, FilterValues } from './cta-listing.service';
import type { CtaRecord } from './cta-record';
import { CTA_STATUSES } from './cta.types';
import { CtaValidationReport, CtaValidationService } from './cta-validation.service';
import { CtasService } from './ctas.service';
import { CreateCtaDto, UpdateCtaDto, ValidateCtaDto } from './dto/cta-body.dto';
import { CREATE_EXAMPLE, RECORD_EXAMPLE, RULE_EXAMPLE, UPDATE_EXAMPLE } from './cta-api-examples';
import { ListCtasQueryDto } from './dto/list-ctas-query.dto';
import { TENANT_HEADER, USER_HEADER } from '../common/api-headers';
import { ChangeOrigin } from '../audit/change-origin';
import { RequiresRole } from '../security/admin-roles';

const EPOCH_MS = { type: 'integer', format: 'int64', description: 'epoch milliseconds' } as const;
const STRINGS = { type: 'array', items: { type: 'string' } } as const;

const RECORD_SCHEMA: SchemaObject = {
  type: 'object',
  properties: {
    id: { type: 'integer', format: 'int64' },
    name: { type: 'string' },
    description: { type: 'string', nullable: true },
    tags: STRINGS,
    team: { type: 'string' },
    behaviourTags: { ...STRINGS, description: 'names of the tags linking the CTA' },
    startTime: { ...EPOCH_MS, nullable: true },
    endTime: { ...EPOCH_MS, nullable: true },
    ctaStatus: { type: 'string', enum: [...CTA_STATUSES] },
    rule: { type: 'object', additionalProperties: true, description: 'the rule as written, plus the derived ctaValidTill' },
    createdAt: EPOCH_MS,
    createdBy: { type: 'string' },
    lastUpdatedAt: { ...EPOCH_MS, nullable: true },
    lastUpdatedBy: { type: 'string', nullable: true },
    tenantId: { type: 'string' },
  },
};

const PAGE_EXAMPLE = {
  ctas: [RECORD_EXAMPLE],
  totalEntries: 1,
  totalPages: 1,
  pageNumber: 0,
  pageSize: 10,
  statusWiseCount: { draft: 0, paused: 0, live: 1, scheduled: 0, concluded: 0, terminated: 0 },
};

const PAGE_SCHEMA: SchemaObject = {
  type: 'object',
  properties: {
    ctas: { type: 'array', items: RECORD_SCHEMA },
    totalEntries: { type: 'integer' },
    totalPages: { type: 'integer' },
    pageNumber: { type: 'integer' },
    pageSize: { type: 'integer' },
    statusWiseCount: {
      type: 'object',
      description: 'CTAs per status over every filter except status',
      properties: Object.fromEntries(CTA_STATUSES.map((status) => [status, { type: 'integer' }])),
    },
  },
};

const FILTERS_SCHEMA: SchemaObject = {
  type: 'object',
  properties: { names: STRINGS, teams: STRINGS, tags: STRINGS, createdBy: STRINGS },
};

const PROBLEMS_SCHEMA: SchemaObject = {
  type: 'array',
  items: { type: 'object', properties: { path: { type: 'string', example: 'rule.actions[1].type' }, message: { type: 'string' } } },
};

const VALIDATION_SCHEMA: SchemaObject = {
  type: 'object',
  properties: {
    valid: { type: 'boolean', description: 'true when create would accept the body' },
    errors: { ...PROBLEMS_SCHEMA, description: 'what create would refuse, each at its JSON path' },
    warnings: { ...PROBLEMS_SCHEMA, description: 'accepted by create, but worth a look before going live' },
  },
};

/** A rule with problems of both kinds, for the validate endpoint's examples. */
const INVALID_EXAMPLE = {
  ...CREATE_EXAMPLE,
  rule: {
    ...RULE_EXAMPLE,
    stateToAction: { '1': 'store_banner', '2': 'popup' },
    stateTransition: {
      store_opened: {
        '0': [{ transitionTo: 1, filters: { operator: 'AND', filter: [{ propertyName: 'source', propertyType: 'string', comparisonType: 'EQUALS', comparisonValue: 'home' }] } }],
      },
    },
  },
};

const VALIDATION_EXAMPLES = {
  valid: {
    summary: 'valid, with warnings (no event definitions yet)',
    value: {
      data: {
        valid: true,
        errors: [],
        warnings: [
          { path: 'rule.stateTransition.store_opened', message: 'event "store_opened" is not in the tenant\'s event definitions' },
          { path: 'rule.cohortEligibility.excludes[0]', message: '"paying_users" is not a cohort of the tenant: no user is in it' },
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
          { path: 'rule.stateTransition.store_opened.0[0].filters.filter[0].comparisonType', message: '"EQUALS" is not one of =, != for propertyType string' },
        ],
        warnings: [
          { path: 'rule.stateTransition.store_opened', message: 'event "store_opened" is not in the tenant\'s event definitions' },
          { path: 'rule.stateToAction.2', message: 'state "2" is never reached: no transition leads to it from "0"' },
          { path: 'rule.cohortEligibility.excludes[0]', message: '"paying_users" is not a cohort of the tenant: no user is in it' },
        ],
      },
    },
  },
};

const ID_PARAM = { name: 'ctaId', description: 'numeric CTA id', example: '12' };

/** CTA create, read, update and list (DESIGN §5). */
@ApiTags('CTAs')
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
  @ApiBody({ type: CreateCtaDto, examples: { cta: { value: CREATE_EXAMPLE } } })
  @ApiOkResponse({ description: 'the new CTA id', schema: dataEnvelopeSchema({ type: 'integer', format: 'int64' }, 12) })
  @ApiBadRequestResponse({
    type: ErrorEnvelopeDto,
    description:
      'INVALID_REQUEST: a missing/invalid field or rule (the message names the field path), a time outside ' +
      '[now - 2 min, now + 5 years], endTime not after startTime, or a missing user header; ' +
      'CTA_DUPLICATE_NAME: the tenant already has a CTA of that name (case-sensitive)',
  })
  async create(
    @TenantId() tenantId: string,
    @OperatorUser() user: string,
    @ValidBody(ErrorCode.INVALID_REQUEST) body: CreateCtaDto,
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
  @ApiOkResponse({ description: 'the report', content: { 'application/json': { schema: dataEnvelopeSchema(VALIDATION_SCHEMA, VALIDATION_EXAMPLES.invalid.value.data), examples: VALIDATION_EXAMPLES } } })
  @ApiBadRequestResponse({ type: ErrorEnvelopeDto, description: 'INVALID_REQUEST: the body is not a JSON object, or a malformed x-tenant-id' })
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
  @ApiOkResponse({ description: 'one page', schema: dataEnvelopeSchema(PAGE_SCHEMA, PAGE_EXAMPLE) })
  @ApiBadRequestResponse({
    type: ErrorEnvelopeDto,
    description:
      'CTA_STATUS_INVALID: status is not one of draft, paused, live, scheduled, concluded, terminated; ' +
      'INVALID_REQUEST: pageSize not a decimal integer 1-100, pageNumber not a decimal integer ≥ 0, or a repeated parameter',
  })
  async list(@TenantId() tenantId: string, @ValidQuery(ErrorCode.INVALID_REQUEST) query: ListCtasQueryDto): Promise<DataEnvelope<CtaPage>> {
    return dataEnvelope(await this.listing.list(tenantId, query));
  }

  @Get(':ctaId')
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'Get one CTA with its behaviour tags and full rule (including the derived ctaValidTill)' })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ description: 'the CTA', schema: dataEnvelopeSchema(RECORD_SCHEMA, RECORD_EXAMPLE) })
  @ApiBadRequestResponse({ type: ErrorEnvelopeDto, description: 'CTA_ID_INVALID: no such CTA in the tenant, a non-numeric id, or a test CTA' })
  async get(@TenantId() tenantId: string, @Param('ctaId') ctaId: string): Promise<DataEnvelope<CtaRecord>> {
    return dataEnvelope(await this.ctas.get(tenantId, ctaId));
  }

  @Put(':ctaId')
  @RequiresRole('editor')
  @ApiOperation({
    summary: 'Update a draft or paused CTA',
    description:
      'Replaces tags, team and rule; an omitted description, startTime or endTime keeps its value, an explicit null clears it. ' +
      '`name` cannot be sent.',
  })
  @ApiParam(ID_PARAM)
  @ApiHeader(USER_HEADER)
  @ApiBody({ type: UpdateCtaDto, examples: { cta: { value: UPDATE_EXAMPLE } } })
  @ApiOkResponse({ description: 'updated', schema: EMPTY_ENVELOPE_SCHEMA })
  @ApiBadRequestResponse({
    type: ErrorEnvelopeDto,
    description:
      'INVALID_REQUEST: an invalid field or rule, `name` in the body, a time outside the window, endTime not after startTime, ' +
      'or a missing user header; CTA_ID_INVALID: no such CTA (or a test CTA); CTA_STATUS_UPDATE_INVALID: the CTA is not draft or paused',
  })
  async update(
    @TenantId() tenantId: string,
    @OperatorUser() user: string,
    @Param('ctaId') ctaId: string,
    @ValidBody(ErrorCode.INVALID_REQUEST) body: UpdateCtaDto,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<EmptyEnvelope> {
    await this.ctas.update(tenantId, user, ctaId, body, origin);
    return emptyEnvelope();
  }

  @Post(':ctaId/restore/:auditId')
  @HttpCode(200)
  @RequiresRole('publisher')
  @ApiTags('Audit')
  @ApiOperation({
    summary: 'Restore a CTA to a version in its history',
    description:
      'Puts description, tags, team, startTime, endTime and rule back to the `after` of one of the CTA\'s audit entries ' +
      '(GET /ctas/{ctaId}/history). It is an update in every respect — only a draft or paused CTA, the same validation — ' +
      'and is recorded as a `restore` entry. The request body is ignored.',
  })
  @ApiParam(ID_PARAM)
  @ApiParam({ name: 'auditId', description: 'id of an audit entry of this CTA (its history)', example: '2' })
  @ApiHeader(USER_HEADER)
  @ApiOkResponse({ description: 'restored', schema: EMPTY_ENVELOPE_SCHEMA })
  @ApiBadRequestResponse({
    type: ErrorEnvelopeDto,
    description:
      'INVALID_REQUEST: the audit entry does not exist or is not one of this CTA\'s, the restored times lie outside the window, ' +
      'or a missing user header; CTA_ID_INVALID: no such CTA (or a test CTA); CTA_STATUS_UPDATE_INVALID: the CTA is not draft or paused',
  })
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
@ApiTags('CTAs')
@ApiHeader(TENANT_HEADER)
@Controller('filters')
export class CtaFiltersController {
  constructor(private readonly listing: CtaListingService) {}

  @Get()
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'Distinct names, teams, tags and creators of the tenant\'s CTAs (sorted; test CTAs excluded)' })
  @ApiOkResponse({
    description: 'filter values',
    schema: dataEnvelopeSchema(FILTERS_SCHEMA, { names: ['first-purchase-reminder'], teams: ['growth'], tags: ['onboarding', 'store'], createdBy: ['ops@example.com'] }),
  })
  @ApiBadRequestResponse({ type: ErrorEnvelopeDto, description: 'INVALID_REQUEST: a malformed x-tenant-id' })
  async filters(@TenantId() tenantId: string): Promise<DataEnvelope<FilterValues>> {
    return dataEnvelope(await this.listing.filterValues(tenantId));
  }
}
