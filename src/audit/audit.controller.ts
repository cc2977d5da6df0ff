import { Controller, Get, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminEndpoint, type EndpointAnswer } from '../api-docs/endpoint';
import { API_TAG } from '../api-docs/api-tags';
import { DataEnvelope, dataEnvelope } from '../common/envelope';
import { ErrorCode } from '../common/error-code';
import { TenantId } from '../common/request-headers';
import { ValidQuery } from '../common/validation';
import { CTA_ID_PARAM, EXAMPLE_NEEDS } from '../api-docs/flow-examples';
import { parseCtaId, unknownCta } from '../common/cta-id';
import { AuditedCtas } from './audited-ctas';
import { DEFAULT_PAGE_SIZE } from '../common/page-query.dto';
import { AUDIT_ERRORS, AUDIT_PAGE_EXAMPLE, TAG_NAME_PARAM } from './audit-api-examples';
import { AuditFilter, AuditLog, AuditPaging } from './audit-log.service';
import type { AuditEntityType, AuditPage } from './audit.types';
import { AuditPageDto } from './dto/audit-page.dto';
import { AuditPageQueryDto, AuditQueryDto } from './dto/audit-query.dto';

/** A CTA's entries: as a CTA, and as a test CTA (whose id is a CTA id too). */
const CTA_ENTITY_TYPES: readonly AuditEntityType[] = ['cta', 'testCta'];

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
  constructor(
    private readonly audit: AuditLog,
    private readonly ctas: AuditedCtas,
  ) {}

  @Get('audit')
  @AdminEndpoint({
    summary: 'Search the audit history of the tenant',
    description:
      "Every committed admin change, newest first: who (actor: the admin key's name; user: the user header), when, in which request, " +
      'and the record before and after with an RFC 6902 patch between them. Filters combine with AND and match exactly; ' +
      'from/to bound `at` inclusively. entityType and action take only their values (another → 400 naming them); an actor, ' +
      'user or entityId that made no change gives an empty page.',
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
    exampleNeeds: EXAMPLE_NEEDS.cta,
    description:
      "Its create, updates, approvals, status changes (the scheduler's included) and restores; for a test CTA, its create and " +
      "delete (still read once it is deleted). An entry's id restores that version. A CTA with neither a record nor any " +
      'history is unknown: CTA_ID_INVALID, not an empty page.',
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
    const id = parseCtaId(ctaId);
    const page = await this.audit.page(tenantId, { entityType: CTA_ENTITY_TYPES, entityId: String(id) }, paging(query));
    if (page.totalEntries === 0 && !(await this.ctas.known(tenantId, id))) {
      throw unknownCta(id);
    }
    return dataEnvelope(page);
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
