import { Controller, Param, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminEndpoint } from '../api-docs/endpoint';
import { API_TAG } from '../api-docs/api-tags';
import { OPTIONAL_USER_HEADER } from '../common/api-headers';
import { EmptyEnvelope, emptyEnvelope } from '../common/envelope';
import { TenantId } from '../common/request-headers';
import { CTA_ID_PARAM, EXAMPLE_NEEDS } from '../api-docs/flow-examples';
import { ChangeOrigin } from '../audit/change-origin';
import { CTA_STATUS_ERRORS, STATUS_ACTION_PARAM } from './cta-status-api-examples';
import { CtaStatusService } from './cta-status.service';

/** `PUT /ctas/{id}/<action>` (docs/decisions/0002-status-lifecycle-and-live-edits.md). The body is ignored; the `user` header is optional (for the audit history). */
@ApiTags(API_TAG.ctaStatus)
@Controller('ctas')
export class CtaStatusController {
  constructor(private readonly status: CtaStatusService) {}

  @Put(':ctaId/:action')
  @AdminEndpoint({
    summary: "Change a CTA's status",
    exampleNeeds: EXAMPLE_NEEDS.editableCta,
    description:
      'live: from draft or paused (startTime := now). pause: from live or scheduled. schedule: from draft or paused, ' +
      'only when startTime is set and not in the past. conclude: from live or paused (endTime := now). ' +
      'terminate: from draft, live, paused or scheduled (endTime := now). concluded and terminated are final. ' +
      'Of concurrent conflicting changes exactly one succeeds. The request body is ignored.',
    role: 'publisher',
    params: [CTA_ID_PARAM, STATUS_ACTION_PARAM],
    headers: [OPTIONAL_USER_HEADER],
    answers: { empty: 'changed' },
    errors: CTA_STATUS_ERRORS,
  })
  async change(
    @TenantId() tenantId: string,
    @Param('ctaId') ctaId: string,
    @Param('action') action: string,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<EmptyEnvelope> {
    await this.status.change(tenantId, ctaId, action, origin);
    return emptyEnvelope();
  }
}
