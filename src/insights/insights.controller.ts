import { Controller, Get, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminEndpoint } from '../api-docs/endpoint';
import { API_TAG } from '../api-docs/api-tags';
import { DataEnvelope, dataEnvelope } from '../common/envelope';
import { ErrorCode } from '../common/error-code';
import { TenantId } from '../common/request-headers';
import { ValidQuery } from '../common/validation';
import { CTA_ID_PARAM, EXAMPLE_NEEDS } from '../api-docs/flow-examples';
import { CtaInsightsDto, InsightsOverviewDto, InsightsQueryDto } from './dto/insights.dto';
import { CTA_INSIGHTS_EXAMPLE, INSIGHTS_ERRORS, INSIGHTS_OVERVIEW_EXAMPLE } from './insights-api-examples';
import { InsightsService } from './insights.service';
import type { CtaInsights, InsightsOverview } from './insights.types';

const COUNTING =
  "An action is an entry that newly appears in a user's actionDoneAt, a reset one in resetAt, each counted once on the UTC day of its " +
  'timestamp however often devices re-send their lists; counted when the delta is stored, so exact at once and the same on every instance. ' +
  "Limit: when two devices of one user overwrite each other's lists, entries one of them dropped are not counted again, and an entry " +
  'that arrives after a newer one from the other device is not counted.';

/** `GET /ctas/{id}/insights` and `GET /insights` (docs/decisions/0018-campaign-insights.md). */
@ApiTags(API_TAG.insights)
@Controller()
export class InsightsController {
  constructor(private readonly insights: InsightsService) {}

  @Get('ctas/:ctaId/insights')
  @AdminEndpoint({
    summary: 'What one CTA did: per day, totals, and its users now',
    exampleNeeds: EXAMPLE_NEEDS.cta,
    description:
      `Per UTC day of from..to (inclusive; default the last 30 days, at most 366), every day listed, zeros included: actions, resets, ` +
      `and new users (users whose first action is on that day). Totals: actions and resets of the range, users reached ever. ` +
      `now: users with stored machines of the CTA, their machines, and machines per state (the server's view: a machine that expired ` +
      `on a device counts until a launch prunes it). ${COUNTING}`,
    role: 'viewer',
    params: [CTA_ID_PARAM],
    answers: { data: CtaInsightsDto, description: 'the CTA over the range', example: CTA_INSIGHTS_EXAMPLE },
    errors: INSIGHTS_ERRORS.cta,
  })
  async ofCta(
    @TenantId() tenantId: string,
    @Param('ctaId') ctaId: string,
    @ValidQuery(ErrorCode.INVALID_REQUEST) query: InsightsQueryDto,
  ): Promise<DataEnvelope<CtaInsights>> {
    return dataEnvelope(await this.insights.ofCta(tenantId, ctaId, query));
  }

  @Get('insights')
  @AdminEndpoint({
    summary: 'What every CTA of the tenant did, by actions',
    description:
      'Each CTA (test CTAs aside) with its actions and resets over from..to (inclusive; default the last 30 days, at most 366) and ' +
      `users reached ever; by actions descending, then id. ${COUNTING}`,
    role: 'viewer',
    answers: { data: InsightsOverviewDto, description: 'every CTA of the tenant', example: INSIGHTS_OVERVIEW_EXAMPLE },
    errors: INSIGHTS_ERRORS.overview,
  })
  async overview(
    @TenantId() tenantId: string,
    @ValidQuery(ErrorCode.INVALID_REQUEST) query: InsightsQueryDto,
  ): Promise<DataEnvelope<InsightsOverview>> {
    return dataEnvelope(await this.insights.overview(tenantId, query));
  }
}
