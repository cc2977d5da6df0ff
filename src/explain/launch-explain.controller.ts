import { Controller, Get, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminEndpoint } from '../api-docs/endpoint';
import { API_TAG } from '../api-docs/api-tags';
import { DataEnvelope, dataEnvelope } from '../common/envelope';
import { ErrorCode } from '../common/error-code';
import { TenantId } from '../common/request-headers';
import { ValidQuery } from '../common/validation';
import { ExplainLaunchQueryDto, LaunchExplanationDto } from './dto/launch-explanation.dto';
import { EXPLAIN_ERRORS, EXPLAIN_EXAMPLE, EXPLAINED_USER_PARAM } from './explain-api-examples';
import type { LaunchExplanation } from './launch-explanation';
import { LaunchExplainService } from './launch-explain.service';

/** `GET /app-users/{userId}/launch`: what a user gets at launch, and why. */
@ApiTags(API_TAG.support)
@Controller('app-users')
export class LaunchExplainController {
  constructor(private readonly explanations: LaunchExplainService) {}

  @Get(':userId/launch')
  @AdminEndpoint({
    summary: 'Explain a launch: what the user gets now, and why each CTA is or is not served',
    description:
      'Every cohort the user is in (static, rule, `all`), then one explanation per live, scheduled or paused CTA and per ' +
      'unexpired test CTA listing the user (`all=true`: every CTA of the tenant), then exactly the `data` a launch without a ' +
      'body would answer now (the query stands for the launch headers). Explanations: SERVED — with HOLDOUT beside it for a user ' +
      'in the holdout of its experiment (served the silent variant), and SHADOWED when ' +
      'another served CTA sharing a trigger event is tried first by the device (a lower priority number), naming it and the ' +
      'events — or every reason it is not — NOT_LIVE, NOT_STARTED, ENDED, NOT_INCLUDED, EXCLUDED, TEST_CTA_NOT_LISTED, ' +
      "TEST_CTA_EXPIRED. For a served CTA, `device` tells what the device will make of the user's state: its machines, its " +
      'lifetime and window caps counted as devices count them (resets, not displays), whether its behaviour tag blocks it, ' +
      'and the machines this launch drops as expired. Writes nothing: no merge, no pruning stored.',
    role: 'viewer',
    params: [EXPLAINED_USER_PARAM],
    answers: { data: LaunchExplanationDto, description: 'the explanation', example: EXPLAIN_EXAMPLE },
    errors: EXPLAIN_ERRORS,
  })
  async launch(
    @TenantId() tenantId: string,
    @Param('userId') userId: string,
    @ValidQuery(ErrorCode.INVALID_REQUEST) query: ExplainLaunchQueryDto,
  ): Promise<DataEnvelope<LaunchExplanation>> {
    const { appVersion, packageName, hotpatchVersion, all } = query;
    // Absent attributes stay absent: rule cohorts treat them as not sent.
    const client = Object.fromEntries(
      Object.entries({ appVersion, packageName, hotpatchVersion }).filter(([, value]) => value !== undefined),
    );
    return dataEnvelope(await this.explanations.explain(tenantId, userId, client, all === 'true'));
  }
}
