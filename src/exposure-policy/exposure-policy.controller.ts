import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiExtraModels, ApiTags } from '@nestjs/swagger';
import { AdminEndpoint } from '../api-docs/endpoint';
import { API_TAG } from '../api-docs/api-tags';
import { ChangeOrigin } from '../audit/change-origin';
import { OPTIONAL_USER_HEADER } from '../common/api-headers';
import { DataEnvelope, dataEnvelope } from '../common/envelope';
import { TenantId } from '../common/request-headers';
import { CalendarDayWindowDto, ExposurePolicyDto, RollingWindowDto } from './dto/exposure-policy.dto';
import type { ExposurePolicy } from './exposure-policy';
import { CALENDAR_DAY_POLICY, EXPOSURE_POLICY_BODY_EXAMPLES, EXPOSURE_POLICY_ERRORS, NO_POLICY } from './exposure-policy-api-examples';
import { ExposurePolicyReader } from './exposure-policy.reader';
import { ExposurePolicyService } from './exposure-policy.service';

/** The tenant's exposure policy (docs/exposure-policy.md): a cap on a user's actions across all CTAs. */
@ApiTags(API_TAG.exposurePolicy)
@ApiExtraModels(RollingWindowDto, CalendarDayWindowDto)
@Controller('exposure-policy')
export class ExposurePolicyController {
  constructor(
    private readonly reader: ExposurePolicyReader,
    private readonly policies: ExposurePolicyService,
  ) {}

  @Get()
  @AdminEndpoint({
    summary: "The tenant's exposure policy",
    description: 'maxActions null: no cap (the default, also for a tenant that never set one).',
    role: 'viewer',
    answers: { data: ExposurePolicyDto, description: 'the policy', example: CALENDAR_DAY_POLICY },
    errors: EXPOSURE_POLICY_ERRORS.read,
  })
  async read(@TenantId() tenantId: string): Promise<DataEnvelope<ExposurePolicy>> {
    return dataEnvelope(await this.reader.policyOf(tenantId));
  }

  @Put()
  @AdminEndpoint({
    summary: "Replace the tenant's exposure policy",
    description:
      "At a launch, a user whose actions in the window (across all the tenant's CTAs, ended ones included) reach maxActions " +
      'gets only CTAs with capExempt true and the test CTAs listing them; the state of the others is kept. Every instance ' +
      'enforces a new policy within CACHE_REVALIDATE_MS. Within one app session a device may still act on more CTAs than the ' +
      'cap (it got them at launch): docs/exposure-policy.md gives the worst case. Audited (entityType exposurePolicy).',
    role: 'admin',
    headers: [OPTIONAL_USER_HEADER],
    body: { type: ExposurePolicyDto, examples: EXPOSURE_POLICY_BODY_EXAMPLES },
    answers: { data: ExposurePolicyDto, description: 'the policy now', example: NO_POLICY },
    errors: EXPOSURE_POLICY_ERRORS.replace,
  })
  async replace(
    @TenantId() tenantId: string,
    @Body() body: unknown,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<DataEnvelope<ExposurePolicy>> {
    return dataEnvelope(await this.policies.replace(tenantId, body, origin));
  }
}
