import { Controller, HttpCode, Param, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { EMPTY_ENVELOPE_SCHEMA, EmptyEnvelope, emptyEnvelope, ErrorEnvelopeDto } from '../common/envelope';
import { TenantId } from '../common/request-headers';
import { OPTIONAL_USER_HEADER, TENANT_HEADER } from '../common/api-headers';
import { ChangeOrigin } from '../audit/change-origin';
import { RequiresRole } from '../security/admin-roles';
import { CtaStatusService } from './cta-status.service';
import { STATUS_ACTIONS } from './cta-transitions';

/** `PUT /ctas/{id}/<action>` (DESIGN §6). The body is ignored; the `user` header is optional (for the audit history). */
@ApiTags('CTA status')
@ApiHeader(TENANT_HEADER)
@Controller('ctas')
export class CtaStatusController {
  constructor(private readonly status: CtaStatusService) {}

  @Put(':ctaId/:action')
  @HttpCode(200)
  @RequiresRole('publisher')
  @ApiHeader(OPTIONAL_USER_HEADER)
  @ApiOperation({
    summary: 'Change a CTA\'s status',
    description:
      'live: from draft or paused (startTime := now). pause: from live or scheduled. schedule: from draft or paused, ' +
      'only when startTime is set and not in the past. conclude: from live or paused (endTime := now). ' +
      'terminate: from draft, live, paused or scheduled (endTime := now). concluded and terminated are final. ' +
      'Of concurrent conflicting changes exactly one succeeds. The request body is ignored.',
  })
  @ApiParam({ name: 'ctaId', example: '12' })
  @ApiParam({ name: 'action', enum: STATUS_ACTIONS })
  @ApiOkResponse({ description: 'changed', schema: EMPTY_ENVELOPE_SCHEMA })
  @ApiBadRequestResponse({
    type: ErrorEnvelopeDto,
    description:
      'CTA_STATUS_INVALID: the action is not live, pause, schedule, conclude or terminate; CTA_ID_INVALID: no such CTA (or a test CTA); ' +
      'CTA_STATUS_UPDATE_INVALID: the change is not allowed from the current status ("cannot move CTA 12 from concluded to live"), ' +
      'or schedule without a startTime that is not in the past',
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
