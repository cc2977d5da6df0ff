import { Controller, Get, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminEndpoint, type EndpointAnswer } from '../api-docs/endpoint';
import { API_TAG } from '../api-docs/api-tags';
import { DataEnvelope, dataEnvelope } from '../common/envelope';
import { ErrorCode } from '../common/error-code';
import { TenantId } from '../common/request-headers';
import { ValidQuery } from '../common/validation';
import { CTA_ID_PARAM } from '../ctas/cta-api-examples';
import { parseCtaId } from '../ctas/cta-id';
import { DEFAULT_PAGE_SIZE } from '../ctas/cta-listing.service';
import { AUDIT_ERRORS, AUDIT_PAGE_EXAMPLE, TAG_NAME_PARAM } from './audit-api-examples';
import { AuditFilter, AuditLog, AuditPaging } from './audit-log.service';
import type { AuditPage } from './audit.types';
import { AuditPageDto } from './dto/audit-page.dto';
import { AuditPageQueryDto, AuditQueryDto } from './dto/audit-query.dto';

const AUDIT_PAGE: EndpointAnswer = { data: AuditPageDto, description: 'one page, newest first', example: AUDIT_PAGE_EXAMPLE };

const paging = (query: AuditPageQueryDto): AuditPaging => ({
  pageNumber: query.pageNumber === undefined ? 0 : Number(query.pageNumber),
  pageSize: query.pageSize === undefined ? DEFAULT_PAGE_SIZE : Number(query.pageSize),
});

/**
 * Reading the audit history (docs/decisions/0009-audit-in-the-same-transaction.md); restoring a CTA is `POST
 * /ctas/{id}/restore/{auditId}` (CtasController).
 */
@ApiTags(API_TAG.audit)
@Controller()
export class AuditController {
  constructor(private readonly audit: AuditLog) {}

  @Get('audit')
  @AdminEndpoint({
    summary: 'Search the audit history of the tenant',
    description:
      "Every committed admin change, newest first: who (actor: the admin key's name; user: the user header), when, in which request, " +
      'and the record before and after with an RFC 6902 patch between them. Filters combine with AND and match exactly; ' +
      'from/to bound `at` inclusively. An unknown filter value gives an empty page.',
    role: 'viewer',
    answers: AUDIT_PAGE,
    errors: AUDIT_ERRORS.search,
  })
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
  @AdminEndpoint({
    summary: 'The history of one CTA, newest first',
    description: "Its create, updates, status changes (the scheduler's included) and restores. An entry's id restores that version.",
    role: 'viewer',
    params: [CTA_ID_PARAM],
    answers: AUDIT_PAGE,
    errors: AUDIT_ERRORS.ctaHistory,
  })
  async ctaHistory(
    @TenantId() tenantId: string,
    @Param('ctaId') ctaId: string,
    @ValidQuery(ErrorCode.INVALID_REQUEST) query: AuditPageQueryDto,
  ): Promise<DataEnvelope<AuditPage>> {
    const filter = { entityType: 'cta', entityId: String(parseCtaId(ctaId)) };
    return dataEnvelope(await this.audit.page(tenantId, filter, paging(query)));
  }

  @Get('behaviour-tags/:behaviourTagName/history')
  @AdminEndpoint({
    summary: 'The history of one behaviour tag, newest first',
    role: 'viewer',
    params: [TAG_NAME_PARAM],
    answers: AUDIT_PAGE,
    errors: AUDIT_ERRORS.behaviourTagHistory,
  })
  async behaviourTagHistory(
    @TenantId() tenantId: string,
    @Param('behaviourTagName') name: string,
    @ValidQuery(ErrorCode.INVALID_REQUEST) query: AuditPageQueryDto,
  ): Promise<DataEnvelope<AuditPage>> {
    return dataEnvelope(await this.audit.page(tenantId, { entityType: 'behaviourTag', entityId: name }, paging(query)));
  }
}
