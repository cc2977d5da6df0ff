import { Controller, Get, Param } from '@nestjs/common';
import { ApiBadRequestResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { TENANT_HEADER } from '../common/api-headers';
import { DataEnvelope, dataEnvelope, dataEnvelopeSchema, ErrorEnvelopeDto } from '../common/envelope';
import { ErrorCode } from '../common/error-code';
import { TenantId } from '../common/request-headers';
import { ValidQuery } from '../common/validation';
import { parseCtaId } from '../ctas/cta-id';
import { DEFAULT_PAGE_SIZE } from '../ctas/cta-listing.service';
import { RequiresRole } from '../security/admin-roles';
import { AUDIT_PAGE_EXAMPLE, AUDIT_PAGE_SCHEMA } from './audit-api-examples';
import { AuditFilter, AuditLog, AuditPaging } from './audit-log.service';
import type { AuditPage } from './audit.types';
import { AuditPageQueryDto, AuditQueryDto } from './dto/audit-query.dto';

const PAGE_RESPONSE = { description: 'one page, newest first', schema: dataEnvelopeSchema(AUDIT_PAGE_SCHEMA, AUDIT_PAGE_EXAMPLE) };
const BAD_PAGING = 'INVALID_REQUEST: pageSize not a decimal integer 1-100, pageNumber not a decimal integer ≥ 0, or a repeated parameter';

const paging = (query: AuditPageQueryDto): AuditPaging => ({
  pageNumber: query.pageNumber === undefined ? 0 : Number(query.pageNumber),
  pageSize: query.pageSize === undefined ? DEFAULT_PAGE_SIZE : Number(query.pageSize),
});

/** Reading the audit history (DESIGN §20); restoring a CTA is `POST /ctas/{id}/restore/{auditId}` (CtasController). */
@ApiTags('Audit')
@ApiHeader(TENANT_HEADER)
@Controller()
export class AuditController {
  constructor(private readonly audit: AuditLog) {}

  @Get('audit')
  @RequiresRole('viewer')
  @ApiOperation({
    summary: 'Search the audit history of the tenant',
    description:
      'Every committed admin change, newest first: who (actor: the admin key\'s name; user: the user header), when, in which request, ' +
      'and the record before and after with an RFC 6902 patch between them. Filters combine with AND and match exactly; ' +
      'from/to bound `at` inclusively. An unknown filter value gives an empty page.',
  })
  @ApiOkResponse(PAGE_RESPONSE)
  @ApiBadRequestResponse({ type: ErrorEnvelopeDto, description: `${BAD_PAGING}, or from/to not epoch milliseconds` })
  async search(@TenantId() tenantId: string, @ValidQuery(ErrorCode.INVALID_REQUEST) query: AuditQueryDto): Promise<DataEnvelope<AuditPage>> {
    const { entityType, entityId, actor, user, action, from, to } = query;
    const filter: AuditFilter = {
      entityType,
      entityId,
      actor,
      user,
      action,
      from: from === undefined ? undefined : Number(from),
      to: to === undefined ? undefined : Number(to),
    };
    return dataEnvelope(await this.audit.page(tenantId, filter, paging(query)));
  }

  @Get('ctas/:ctaId/history')
  @RequiresRole('viewer')
  @ApiOperation({
    summary: 'The history of one CTA, newest first',
    description: 'Its create, updates, status changes (the scheduler\'s included) and restores. An entry\'s id restores that version.',
  })
  @ApiParam({ name: 'ctaId', description: 'numeric CTA id', example: '12' })
  @ApiOkResponse(PAGE_RESPONSE)
  @ApiBadRequestResponse({ type: ErrorEnvelopeDto, description: `CTA_ID_INVALID: a non-numeric id; ${BAD_PAGING}` })
  async ctaHistory(
    @TenantId() tenantId: string,
    @Param('ctaId') ctaId: string,
    @ValidQuery(ErrorCode.INVALID_REQUEST) query: AuditPageQueryDto,
  ): Promise<DataEnvelope<AuditPage>> {
    const filter = { entityType: 'cta', entityId: String(parseCtaId(ctaId)) };
    return dataEnvelope(await this.audit.page(tenantId, filter, paging(query)));
  }

  @Get('behaviour-tags/:behaviourTagName/history')
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'The history of one behaviour tag, newest first' })
  @ApiParam({ name: 'behaviourTagName', description: 'the tag name, URL-encoded', example: 'store-nudges' })
  @ApiOkResponse(PAGE_RESPONSE)
  @ApiBadRequestResponse({ type: ErrorEnvelopeDto, description: BAD_PAGING })
  async behaviourTagHistory(
    @TenantId() tenantId: string,
    @Param('behaviourTagName') name: string,
    @ValidQuery(ErrorCode.INVALID_REQUEST) query: AuditPageQueryDto,
  ): Promise<DataEnvelope<AuditPage>> {
    return dataEnvelope(await this.audit.page(tenantId, { entityType: 'behaviourTag', entityId: name }, paging(query)));
  }
}
