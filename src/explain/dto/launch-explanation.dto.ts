import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { CTA_STATUSES, CtaStatus } from '../../cta-lifecycle/cta-statuses';
import { LaunchResponseDto } from '../../sdk/dto/launch-response.dto';
import { SERVING_BLOCKS } from '../../serving/serving-decision';
import type { DeviceView } from '../device-view';
import { CtaExplanation, Reason, ReasonCode, SERVED_REASON_CODES } from '../launch-explanation';

/** Query of `GET /app-users/{userId}/launch`: the launch headers an app would send, and `all`. Each value is one string. */
export class ExplainLaunchQueryDto {
  @ApiPropertyOptional({ description: 'as the app_version header of a launch (rule cohorts read it), e.g. `5.2.0`' })
  @IsOptional()
  @IsString()
  appVersion?: string;

  @ApiPropertyOptional({ description: 'as the package_name header, e.g. `com.example.app`' })
  @IsOptional()
  @IsString()
  packageName?: string;

  @ApiPropertyOptional({ description: 'as the hotpatch_version (codepush_version) header, e.g. `v7`' })
  @IsOptional()
  @IsString()
  hotpatchVersion?: string;

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description: 'true: explain every CTA of the tenant (drafts, ended CTAs, test CTAs for other users too)',
  })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'all must be true or false' })
  all?: string;
}

export const REASON_CODES: readonly ReasonCode[] = [...SERVED_REASON_CODES, ...(Object.keys(SERVING_BLOCKS) as ReasonCode[])];

export class ReasonDto implements Reason {
  @ApiProperty({
    enum: REASON_CODES,
    description:
      'SERVED (with HOLDOUT beside it when the user is in the holdout of its experiment and gets the silent variant, and ' +
      'SHADOWED when another served CTA sharing a trigger event is tried first by the device: ' +
      'lower priority number, or the same and earlier in the launch answer; the message names that CTA and the shared ' +
      'events), or why the CTA is not served',
  })
  code: ReasonCode;

  @ApiProperty()
  message: string;

  @ApiPropertyOptional({ type: 'integer', description: "EXPOSURE_CAP_REACHED only: the user's actions in the policy's window" })
  count?: number;

  @ApiPropertyOptional({ type: 'integer', description: "EXPOSURE_CAP_REACHED only: the policy's maxActions" })
  limit?: number;

  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    description: 'EXPOSURE_CAP_REACHED only: when the window frees a slot (ISO 8601, UTC); the next launch after it is served again',
  })
  freesAt?: string;
}

const capCount: ApiPropertyOptions = {
  type: 'object',
  required: ['count', 'limit', 'reached'],
  properties: {
    count: { type: 'integer', description: 'resets counted, as devices count them' },
    limit: { type: 'integer', description: 'the limit of the rule (0: not checked)' },
    reached: { type: 'boolean' },
  },
};

/** Nullable objects are written inline: OpenAPI 3.0 admits no null for a $ref, even under allOf. */
const TAG_BLOCK_SCHEMA: ApiPropertyOptions = {
  type: 'object',
  nullable: true,
  required: ['blocked', 'by', 'relation'],
  description: 'null when no behaviour tag links the CTA',
  properties: {
    blocked: { type: 'boolean' },
    by: { type: 'array', items: { type: 'string' }, description: 'ids of the CTAs whose activity or resets block this one' },
    relation: { type: 'string', enum: ['ANY/REST', 'LIST/LIST'] },
  },
};

const DEVICE_VIEW_SCHEMA: ApiPropertyOptions = {
  type: 'object',
  nullable: true,
  required: ['machines', 'lifespan', 'window', 'tag', 'expiredMachines'],
  description: 'for a served CTA, what the device will make of it; else null',
  properties: {
    machines: { type: 'object', additionalProperties: { type: 'string' }, description: 'machineId → currentState' },
    lifespan: { ...capCount, description: 'resets ever (stored resetAt) against frequency.lifeSpan' },
    window: { ...capCount, description: 'resets within the window (boundary included) against frequency.window' },
    tag: TAG_BLOCK_SCHEMA,
    expiredMachines: { type: 'integer', description: 'stored machines past createdAt + stateMachineTTL, which this launch drops' },
  },
};

export class CtaExplanationDto implements CtaExplanation {
  @ApiProperty()
  ctaId: string;

  @ApiProperty({ type: String, nullable: true })
  name: string | null;

  @ApiProperty({ enum: CTA_STATUSES })
  ctaStatus: CtaStatus;

  @ApiProperty()
  served: boolean;

  @ApiProperty({
    type: [ReasonDto],
    description:
      'SERVED, then HOLDOUT for a user in the holdout of its experiment, then one SHADOWED per CTA the device tries before this one ' +
      'on shared trigger events; or every reason the CTA is not served',
  })
  reasons: ReasonDto[];

  @ApiProperty({ type: String, nullable: true })
  behaviourTagName: string | null;

  @ApiProperty(DEVICE_VIEW_SCHEMA)
  device: DeviceView | null;
}

export class LaunchExplanationDto {
  @ApiProperty({ description: 'the user id, canonical' })
  userId: string;

  @ApiProperty({
    type: [String],
    description:
      "every cohort the user is in at this launch — static memberships, rule cohorts that hold, the host's, and all — sorted, whether or not a CTA names it",
  })
  cohorts: string[];

  @ApiProperty({ type: [CtaExplanationDto], description: 'why each CTA is or is not served, in launch order (before the payload)' })
  ctas: CtaExplanationDto[];

  @ApiProperty({ type: LaunchResponseDto, description: 'exactly the data a launch without a body would answer now' })
  launch: LaunchResponseDto;
}
