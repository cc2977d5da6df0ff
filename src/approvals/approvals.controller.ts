import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { API_TAG } from '../api-docs/api-tags';
import { ApiBadRequest } from '../common/api-error-responses';
import { OPTIONAL_USER_HEADER, TENANT_HEADER } from '../common/api-headers';
import { ApiEmptyResponse, EmptyEnvelope, emptyEnvelope } from '../common/envelope';
import { ErrorCode } from '../common/error-code';
import { TenantId } from '../common/request-headers';
import { ChangeOrigin } from '../audit/change-origin';
import { FLOW_CTA_ID } from '../ctas/cta-api-examples';
import { RequiresRole } from '../security/admin-roles';
import { APPROVER_ROLE } from './approval-rules';
import { ApprovalsService } from './approvals.service';

/**
 * `POST /ctas/{id}/approve` (docs/decisions/0015-approvals.md). The body is ignored; the `user`
 * header is optional (for the audit history).
 */
@ApiTags(API_TAG.ctaStatus)
@ApiHeader(TENANT_HEADER)
@Controller('ctas')
export class ApprovalsController {
  constructor(private readonly approvals: ApprovalsService) {}

  @Post(':ctaId/approve')
  @HttpCode(200)
  @RequiresRole(APPROVER_ROLE)
  @ApiHeader(OPTIONAL_USER_HEADER)
  @ApiOperation({
    summary: "Approve a CTA's current content (four eyes)",
    description:
      'Only with approvals required (APPROVALS_REQUIRED=true): records that the calling key approves the content the CTA has now. ' +
      'live and schedule then need such an approval; any later update or restore voids it. The key that made the latest change ' +
      '(create, update or restore) cannot approve it. Answered on GET /ctas/{id} as approval, recorded in the audit history as approve. ' +
      'The request body is ignored.',
  })
  @ApiParam({
    name: 'ctaId',
    description: `numeric CTA id (${FLOW_CTA_ID}: the CTA the create example makes on an empty database)`,
    example: String(FLOW_CTA_ID),
  })
  @ApiEmptyResponse('approved')
  @ApiBadRequest(
    'CTA_ID_INVALID: no such CTA; APPROVAL_INVALID: the calling key made the latest change of the CTA, the CTA is concluded, ' +
      'terminated or a test CTA, or approvals are not required (the message names who may approve, or why nobody may)',
    [ErrorCode.CTA_ID_INVALID, 'CTA 99 does not exist'],
    [
      ErrorCode.APPROVAL_INVALID,
      "'alice' made the latest change of CTA 1: a key of role publisher or admin other than 'alice' may approve it",
    ],
    [ErrorCode.APPROVAL_INVALID, 'CTA 1 is concluded; concluded and terminated CTAs cannot be approved'],
    [ErrorCode.APPROVAL_INVALID, 'CTA 1 is a test CTA: it reaches only its listed test users and needs no approval'],
    [
      ErrorCode.APPROVAL_INVALID,
      'approvals are not required here, so CTA 1 needs none (APPROVALS_REQUIRED=true, or the module option approvalsRequired, requires them)',
    ],
  )
  async approve(@TenantId() tenantId: string, @Param('ctaId') ctaId: string, @ChangeOrigin() origin: ChangeOrigin): Promise<EmptyEnvelope> {
    await this.approvals.approve(tenantId, ctaId, origin);
    return emptyEnvelope();
  }
}
