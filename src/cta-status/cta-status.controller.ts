import { Controller, HttpCode, Param, Put } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { API_TAG } from '../api-docs/api-tags';
import { ApiBadRequest } from '../common/api-error-responses';
import { ApiEmptyResponse, EmptyEnvelope, emptyEnvelope } from '../common/envelope';
import { ErrorCode } from '../common/error-code';
import { FLOW_CTA_ID } from '../ctas/cta-api-examples';
import { TenantId } from '../common/request-headers';
import { OPTIONAL_USER_HEADER, TENANT_HEADER } from '../common/api-headers';
import { ChangeOrigin } from '../audit/change-origin';
import { RequiresRole } from '../security/admin-roles';
import { CtaStatusService } from './cta-status.service';
import { STATUS_ACTIONS } from './cta-transitions';

/**
 * `PUT /ctas/{id}/<action>` (docs/decisions/0002-status-lifecycle-and-live-edits.md). The body is ignored; the `user`
 * header is optional (for the audit history).
 */
@ApiTags(API_TAG.ctaStatus)
@ApiHeader(TENANT_HEADER)
@Controller('ctas')
export class CtaStatusController {
  constructor(private readonly status: CtaStatusService) {}

  @Put(':ctaId/:action')
  @HttpCode(200)
  @RequiresRole('publisher')
  @ApiHeader(OPTIONAL_USER_HEADER)
  @ApiOperation({
    summary: "Change a CTA's status",
    description:
      'live: from draft or paused (startTime := now). pause: from live or scheduled. schedule: from draft or paused, ' +
      'only when startTime is set and not in the past. conclude: from live or paused (endTime := now). ' +
      'terminate: from draft, live, paused or scheduled (endTime := now). concluded and terminated are final. ' +
      'Of concurrent conflicting changes exactly one succeeds. The request body is ignored.',
  })
  @ApiParam({
    name: 'ctaId',
    description: `numeric CTA id (${FLOW_CTA_ID}: the CTA the create example makes on an empty database)`,
    example: String(FLOW_CTA_ID),
  })
  @ApiParam({
    name: 'action',
    schema: { type: 'string', enum: [...STATUS_ACTIONS], example: 'live' },
    description: 'live takes the CTA to devices; the others as above',
  })
  @ApiEmptyResponse('changed')
  @ApiBadRequest(
    'CTA_STATUS_INVALID: the action is not live, pause, schedule, conclude or terminate; CTA_ID_INVALID: no such CTA (or a test CTA); ' +
      'CTA_STATUS_UPDATE_INVALID: the change is not allowed from the current status ("cannot move CTA 1 from concluded to live"; ' +
      '"CTA 1 is already live" for the status it has), or schedule without a startTime that is not in the past',
    [ErrorCode.CTA_STATUS_INVALID, "unknown status action 'start'; use one of live, pause, schedule, conclude, terminate"],
    [ErrorCode.CTA_ID_INVALID, 'CTA 99 does not exist'],
    [ErrorCode.CTA_STATUS_UPDATE_INVALID, 'cannot move CTA 1 from concluded to live'],
    [ErrorCode.CTA_STATUS_UPDATE_INVALID, 'CTA 1 is already live'],
    [
      ErrorCode.CTA_STATUS_UPDATE_INVALID,
      'cannot schedule CTA 1: its startTime 2026-11-25T10:00:00.000Z (1795600800000) is in the past (now 2026-11-25T11:00:00.000Z (1795604400000))',
    ],
  )
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
