import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { CTA_STATUSES, CtaStatus } from '../../ctas/cta.types';
import { LaunchResponseDto } from '../../sdk/dto/launch-response.dto';
import { SERVING_BLOCKS } from '../../serving/serving-decision';
import type { CapCount, DeviceView, TagBlock } from '../device-view';
import type { CtaExplanation, Reason, ReasonCode } from '../launch-explanation';

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

export const REASON_CODES: readonly ReasonCode[] = ['SERVED', ...(Object.keys(SERVING_BLOCKS) as ReasonCode[])];

export class ReasonDto implements Reason {
  @ApiProperty({ enum: REASON_CODES })
  code: ReasonCode;

  @ApiProperty()
  message: string;
}

export class CapCountDto implements CapCount {
  @ApiProperty({ description: 'resets counted, as devices count them' })
  count: number;

  @ApiProperty({ description: 'the limit of the rule (0: not checked)' })
  limit: number;

  @ApiProperty()
  reached: boolean;
}

export class TagBlockDto implements TagBlock {
  @ApiProperty()
  blocked: boolean;

  @ApiProperty({ type: [String], description: 'ids of the CTAs whose activity or resets block this one' })
  by: string[];

  @ApiProperty({ enum: ['ANY/REST', 'LIST/LIST'] })
  relation: string;
}

export class DeviceViewDto implements DeviceView {
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: 'machineId → currentState' })
  machines: Record<string, string>;

  @ApiProperty({ type: CapCountDto, description: 'resets ever (stored resetAt) against frequency.lifeSpan' })
  lifespan: CapCountDto;

  @ApiProperty({ type: CapCountDto, description: 'resets within the window (boundary included) against frequency.window' })
  window: CapCountDto;

  @ApiProperty({ type: TagBlockDto, nullable: true, description: 'null when no behaviour tag links the CTA' })
  tag: TagBlockDto | null;

  @ApiProperty({ description: 'stored machines past createdAt + stateMachineTTL, which this launch drops' })
  expiredMachines: number;
}

export class CtaExplanationDto implements CtaExplanation {
  @ApiProperty()
  ctaId: string;

  @ApiProperty({ type: String, nullable: true })
  name: string | null;

  @ApiProperty({ enum: CTA_STATUSES })
  ctaStatus: CtaStatus;

  @ApiProperty()
  served: boolean;

  @ApiProperty({ type: [ReasonDto], description: 'SERVED, or every reason the CTA is not served' })
  reasons: ReasonDto[];

  @ApiProperty({ type: String, nullable: true })
  behaviourTagName: string | null;

  @ApiProperty({ type: DeviceViewDto, nullable: true, description: 'for a served CTA, what the device will make of it; else null' })
  device: DeviceViewDto | null;
}

export class LaunchExplanationDto {
  @ApiProperty({ description: 'the user id, canonical' })
  userId: string;

  @ApiProperty({ type: [String], description: "the user's cohorts at this launch, sorted" })
  cohorts: string[];

  @ApiProperty({ type: LaunchResponseDto, description: 'exactly the data a launch without a body would answer now' })
  launch: LaunchResponseDto;

  @ApiProperty({ type: [CtaExplanationDto] })
  ctas: CtaExplanationDto[];
}
