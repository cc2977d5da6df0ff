import { Controller, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminEndpoint } from '../api-docs/endpoint';
import { API_TAG } from '../api-docs/api-tags';
import { OPTIONAL_USER_HEADER } from '../common/api-headers';
import { EmptyEnvelope, emptyEnvelope } from '../common/envelope';
import { TenantId } from '../common/request-headers';
import { ChangeOrigin } from '../audit/change-origin';
import { CTA_ID_PARAM } from '../api-docs/flow-examples';
import { APPROVAL_ERRORS, APPROVE_EXAMPLE_NEEDS } from './approval-api-examples';
import { APPROVER_ROLE } from './approval-rules';
import { ApprovalsService } from './approvals.service';

/**
 * `POST /ctas/{id}/approve` (docs/decisions/0015-approvals.md). The body is ignored; the `user`
 * header is optional (for the audit history).
 */
@ApiTags(API_TAG.ctaStatus)
@Controller('ctas')
export class ApprovalsController {
  constructor(private readonly approvals: ApprovalsService) {}

  @Post(':ctaId/approve')
  @AdminEndpoint({
    summary: "Approve a CTA's current content (four eyes)",
    exampleNeeds: APPROVE_EXAMPLE_NEEDS,
    description:
      'Only with approvals required (APPROVALS_REQUIRED=true): records that the calling key approves the content the CTA has now. ' +
      'live and schedule then need such an approval; any later update or restore voids it. The key that made the latest change ' +
      '(create, update or restore) cannot approve it. Answered on GET /ctas/{id} as approval, recorded in the audit history as approve. ' +
      'The request body is ignored.',
    role: APPROVER_ROLE,
    params: [CTA_ID_PARAM],
    headers: [OPTIONAL_USER_HEADER],
    answers: { empty: 'approved' },
    errors: APPROVAL_ERRORS,
  })
  async approve(@TenantId() tenantId: string, @Param('ctaId') ctaId: string, @ChangeOrigin() origin: ChangeOrigin): Promise<EmptyEnvelope> {
    await this.approvals.approve(tenantId, ctaId, origin);
    return emptyEnvelope();
  }
}
