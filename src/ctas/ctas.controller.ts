import { Body, Controller, Get, Param, Post, Put, UseInterceptors } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminEndpoint } from '../api-docs/endpoint';
import { API_TAG } from '../api-docs/api-tags';
import { DataEnvelope, dataEnvelope, EmptyEnvelope, emptyEnvelope } from '../common/envelope';
import { ErrorCode } from '../common/error-code';
import { TenantId } from '../common/request-headers';
import { OperatorUser } from '../security/operator';
import { ValidQuery } from '../common/validation';
import { CtaBodyPipe, CtaUpdateBodyPipe } from './cta-body.pipe';
import { CtaListingService, CtaPage, FilterValues } from './cta-listing.service';
import type { CtaRecord } from './cta-record';
import { CtaValidationReport, CtaValidationService } from './cta-validation.service';
import { KnownCtaInterceptor } from './known-cta.interceptor';
import { CtasService } from './ctas.service';
import { CreateCtaDto, UpdateCtaDto, ValidateCtaDto } from './dto/cta-body.dto';
import { CTA_BODY_EXAMPLES, CTA_ERRORS, FILTER_VALUES_EXAMPLE, PAGE_EXAMPLE, VALIDATION_EXAMPLES } from './cta-api-examples';
import { CTA_ID_PARAM, FLOW_CTA_ID, RECORD_EXAMPLE, EXAMPLE_NEEDS } from '../api-docs/flow-examples';
import { CTA_ID_SCHEMA, CtaFilterValuesDto, CtaPageDto, CtaRecordDto, CtaValidationReportDto } from './dto/cta-record.dto';
import { ListCtasQueryDto } from './dto/list-ctas-query.dto';
import { USER_HEADER } from '../common/api-headers';
import { FLOW_CTA_AUDIT_ID } from '../audit/audit-api-examples';
import { ChangeOrigin } from '../audit/change-origin';

/** CTA create, read, update and list (docs/decisions/0002-status-lifecycle-and-live-edits.md). */
@ApiTags(API_TAG.ctas)
@Controller('ctas')
export class CtasController {
  constructor(
    private readonly ctas: CtasService,
    private readonly listing: CtaListingService,
    private readonly validation: CtaValidationService,
  ) {}

  @Post()
  @AdminEndpoint({
    summary: 'Create a CTA (starts in draft)',
    role: 'editor',
    headers: [USER_HEADER],
    body: { type: CreateCtaDto, examples: CTA_BODY_EXAMPLES.create },
    answers: { data: CTA_ID_SCHEMA, description: 'the new CTA id', example: FLOW_CTA_ID },
    errors: CTA_ERRORS.create,
  })
  async create(
    @TenantId() tenantId: string,
    @OperatorUser() user: string,
    @Body(CtaBodyPipe) body: CreateCtaDto,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<DataEnvelope<number>> {
    return dataEnvelope(await this.ctas.create(tenantId, user, body, origin));
  }

  @Post('validate')
  @AdminEndpoint({
    summary: 'Check a CTA body without saving it',
    description:
      'Takes a create body (`name` optional) and answers what create would refuse (`errors`, each with its JSON path) and ' +
      'what it accepts but an operator should see before going live (`warnings`): events and filter properties missing from ' +
      "the tenant's event definitions or typed differently, states no transition reaches, cohorts the tenant does not have, " +
      'groupByKeys and contextParams no event of the rule carries. Never writes. The rule grammar: docs/rule-reference.md.',
    role: 'editor',
    body: { type: ValidateCtaDto, examples: CTA_BODY_EXAMPLES.validate },
    answers: {
      data: CtaValidationReportDto,
      description: 'the report',
      example: VALIDATION_EXAMPLES.invalid.value.data,
      examples: VALIDATION_EXAMPLES,
    },
    errors: CTA_ERRORS.validate,
  })
  async validate(@TenantId() tenantId: string, @Body() body: unknown): Promise<DataEnvelope<CtaValidationReport>> {
    return dataEnvelope(await this.validation.validate(tenantId, body));
  }

  @Get()
  @AdminEndpoint({
    summary: 'List CTAs, newest first',
    description:
      'Filters combine with AND; teams and tags match any of their comma-separated values; empty values are ignored. ' +
      'statusWiseCount counts all six statuses over every filter except status. Test CTAs are never listed.',
    role: 'viewer',
    answers: { data: CtaPageDto, description: 'one page', example: PAGE_EXAMPLE },
    errors: CTA_ERRORS.list,
  })
  async list(@TenantId() tenantId: string, @ValidQuery(ErrorCode.INVALID_REQUEST) query: ListCtasQueryDto): Promise<DataEnvelope<CtaPage>> {
    return dataEnvelope(await this.listing.list(tenantId, query));
  }

  @Get(':ctaId')
  @AdminEndpoint({
    summary: 'Get one CTA with its behaviour tags and full rule (including the derived ctaValidTill)',
    exampleNeeds: EXAMPLE_NEEDS.cta,
    role: 'viewer',
    params: [CTA_ID_PARAM],
    answers: { data: CtaRecordDto, description: 'the CTA', example: RECORD_EXAMPLE },
    errors: CTA_ERRORS.get,
  })
  async get(@TenantId() tenantId: string, @Param('ctaId') ctaId: string): Promise<DataEnvelope<CtaRecord>> {
    return dataEnvelope(await this.ctas.get(tenantId, ctaId));
  }

  @Put(':ctaId')
  @UseInterceptors(KnownCtaInterceptor)
  @AdminEndpoint({
    summary: 'Update a CTA (a live or scheduled one only in ways devices can absorb)',
    exampleNeeds: EXAMPLE_NEEDS.cta,
    description:
      'Replaces tags, team and rule; an omitted description, startTime or endTime keeps its value, an explicit null clears it ' +
      '(a startTime only in draft: null keeps the start of a scheduled, live or paused CTA). ' +
      '`name` cannot be sent. Draft and paused CTAs take any valid body. Live and scheduled CTAs take an update that keeps ' +
      'the state graph — the same states (stateTransition, transitionTo, stateToAction, resetStates) and the same ' +
      'groupByConfig.groupByKeys — so texts, templates, actions, filters, priority, frequency, cohorts, tags and team may ' +
      "change; a live CTA's startTime may be omitted, kept or set to a time not in the future, a scheduled one's may move " +
      'but not into the past, and endTime must not be in the past. Anything else needs a pause first. Concluded and terminated ' +
      'CTAs cannot be edited. Devices get the new rule at their next launch.',
    role: 'editor',
    params: [CTA_ID_PARAM],
    headers: [USER_HEADER],
    body: { type: UpdateCtaDto, examples: CTA_BODY_EXAMPLES.update },
    answers: { empty: 'updated' },
    errors: CTA_ERRORS.update,
  })
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
  @AdminEndpoint({
    summary: 'Restore a CTA to a version in its history',
    exampleNeeds: EXAMPLE_NEEDS.restore,
    description:
      "Puts description, tags, team, startTime, endTime and rule back to the `after` of one of the CTA's audit entries " +
      '(GET /ctas/{ctaId}/history). It is an update in every respect — the same validation, and a live or scheduled CTA ' +
      'only to a version with the same state graph and times its status allows — and is recorded as a `restore` entry. ' +
      'The request body is ignored.',
    role: 'publisher',
    params: [
      CTA_ID_PARAM,
      {
        name: 'auditId',
        description: `id of an audit entry of this CTA (${FLOW_CTA_AUDIT_ID}: the create entry of the CTA example on an empty database)`,
        example: String(FLOW_CTA_AUDIT_ID),
      },
    ],
    headers: [USER_HEADER],
    answers: { empty: 'restored' },
    errors: CTA_ERRORS.restore,
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
@ApiTags(API_TAG.ctas)
@Controller('filters')
export class CtaFiltersController {
  constructor(private readonly listing: CtaListingService) {}

  @Get()
  @AdminEndpoint({
    summary: "Distinct names, teams, tags and creators of the tenant's CTAs (sorted; test CTAs excluded)",
    role: 'viewer',
    answers: { data: CtaFilterValuesDto, description: 'filter values', example: FILTER_VALUES_EXAMPLE },
    errors: CTA_ERRORS.filters,
  })
  async filters(@TenantId() tenantId: string): Promise<DataEnvelope<FilterValues>> {
    return dataEnvelope(await this.listing.filterValues(tenantId));
  }
}
