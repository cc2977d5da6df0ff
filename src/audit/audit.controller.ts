import { Controller, Get, Param } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { API_TAG } from '../api-docs/api-tags';
import { ApiBadRequest, BAD_TENANT_EXAMPLE, ErrorExample } from '../common/api-error-responses';
import { TENANT_HEADER } from '../common/api-headers';
import { ApiDataResponse, DataEnvelope, dataEnvelope } from '../common/envelope';
import { ErrorCode } from '../common/error-code';
import { TenantId } from '../common/request-headers';
import { ValidQuery } from '../common/validation';
import { FLOW_CTA_ID, FLOW_TAG_NAME } from '../ctas/cta-api-examples';
import { parseCtaId } from '../ctas/cta-id';
import { DEFAULT_PAGE_SIZE } from '../ctas/cta-listing.service';
import { RequiresRole } from '../security/admin-roles';
import { AUDIT_PAGE_EXAMPLE } from './audit-api-examples';
import { AuditFilter, AuditLog, AuditPaging } from './audit-log.service';
import type { AuditPage } from './audit.types';
import { AuditPageDto } from './dto/audit-page.dto';
import { AuditPageQueryDto, AuditQueryDto } from './dto/audit-query.dto';

const ApiAuditPageResponse = (): MethodDecorator =>
  ApiDataResponse(AuditPageDto, { description: 'one page, newest first', example: AUDIT_PAGE_EXAMPLE });
const BAD_PAGING = 'INVALID_REQUEST: pageSize not a decimal integer 1-100, pageNumber not a decimal integer ≥ 0, or a repeated parameter';
const BAD_PAGING_EXAMPLE: ErrorExample = [ErrorCode.INVALID_REQUEST, 'pageSize must be a decimal integer between 1 and 100'];

const paging = (query: AuditPageQueryDto): AuditPaging => ({
  pageNumber: query.pageNumber === undefined ? 0 : Number(query.pageNumber),
  pageSize: query.pageSize === undefined ? DEFAULT_PAGE_SIZE : Number(query.pageSize),
});

/**
 * Reading the audit history (docs/decisions/0009-audit-in-the-same-transaction.md); restoring a CTA is `POST
 * /ctas/{id}/restore/{auditId}` (CtasController).
 */
@ApiTags(API_TAG.audit)
@ApiHeader(TENANT_HEADER)
@Controller()
export class AuditController {
  constructor(private readonly audit: AuditLog) {}

  @Get('audit')
  @RequiresRole('viewer')
  @ApiOperation({
    summary: 'Search the audit history of the tenant',
    description:
      "Every committed admin change, newest first: who (actor: the admin key's name; user: the user header), when, in which request, " +
      'and the record before and after with an RFC 6902 patch between them. Filters combine with AND and match exactly; ' +
      'from/to bound `at` inclusively. An unknown filter value gives an empty page.',
  })
  @ApiAuditPageResponse()
  @ApiBadRequest(
    `${BAD_PAGING}, from/to not epoch milliseconds, or a malformed x-tenant-id`,
    BAD_PAGING_EXAMPLE,
    [ErrorCode.INVALID_REQUEST, 'from must be epoch milliseconds (a decimal integer ≥ 0)'],
    BAD_TENANT_EXAMPLE,
  )
  async search(
    @TenantId() tenantId: string,
    @ValidQuery(ErrorCode.INVALID_REQUEST) query: AuditQueryDto,
  ): Promise<DataEnvelope<AuditPage>> {
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
    description: "Its create, updates, status changes (the scheduler's included) and restores. An entry's id restores that version.",
  })
  @ApiParam({
    name: 'ctaId',
    description: `numeric CTA id (${FLOW_CTA_ID}: the CTA the create example makes on an empty database)`,
    example: String(FLOW_CTA_ID),
  })
  @ApiAuditPageResponse()
  @ApiBadRequest(
    `CTA_ID_INVALID: a non-numeric id; ${BAD_PAGING}`,
    [ErrorCode.CTA_ID_INVALID, 'CTA abc does not exist'],
    BAD_PAGING_EXAMPLE,
  )
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
  @ApiParam({ name: 'behaviourTagName', description: 'the tag name, URL-encoded', example: FLOW_TAG_NAME })
  @ApiAuditPageResponse()
  @ApiBadRequest(BAD_PAGING, BAD_PAGING_EXAMPLE)
  async behaviourTagHistory(
    @TenantId() tenantId: string,
    @Param('behaviourTagName') name: string,
    @ValidQuery(ErrorCode.INVALID_REQUEST) query: AuditPageQueryDto,
  ): Promise<DataEnvelope<AuditPage>> {
    return dataEnvelope(await this.audit.page(tenantId, { entityType: 'behaviourTag', entityId: name }, paging(query)));
  }
}
