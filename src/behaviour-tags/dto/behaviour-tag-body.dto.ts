import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsObject, IsOptional, IsString, Length, Matches, ValidateNested } from 'class-validator';
import type { WindowUnit } from '../../rule/rule.types';
import { CTA_RELATION_RULES } from '../behaviour-tag.types';
import type { CtaRelationRule } from '../behaviour-tag.types';
import { IsCtaIdList } from '../../common/cta-id';
import { ExposureLimitProperty, WEEKS, WindowUnitProperty } from '../../rule/exposure-limits';

/**
 * Bodies of `POST /behaviour-tags` and `PUT /behaviour-tags/{name}` (seed
 * "Behaviour tag", docs/decisions/0004-behaviour-tags.md). Every failure answers CAMPAIGN_INVALID naming
 * the field path. CTA ids arrive as numbers or decimal strings; the service
 * turns them into strings. The type check of each field is its last decorator:
 * class-validator reports that one first, so "must be an integer" beats "must not be less than 0".
 */

/** A generous bound: a tag links a handful of CTAs; this only keeps one request's work bounded. */
export const MAX_TAG_CTA_IDS = 1000;
export class TagLimitDto {
  @ExposureLimitProperty(1)
  limit: number;
}

export class TagWindowDto {
  @ExposureLimitProperty(2)
  limit: number;

  @WindowUnitProperty()
  unit: WindowUnit | typeof WEEKS;

  @ExposureLimitProperty(1, 'window length in `unit`s')
  value: number;
}

export class TagExposureRuleDto {
  @ApiProperty({ type: TagLimitDto, description: 'exposures per session' })
  @ValidateNested()
  @IsObject()
  @Type(() => TagLimitDto)
  session: TagLimitDto;

  @ApiProperty({ type: TagWindowDto, description: 'exposures per rolling window' })
  @ValidateNested()
  @IsObject()
  @Type(() => TagWindowDto)
  window: TagWindowDto;

  @ApiProperty({ type: TagLimitDto, description: "exposures in the user's lifetime (lower-case `lifespan`)" })
  @ValidateNested()
  @IsObject()
  @Type(() => TagLimitDto)
  lifespan: TagLimitDto;
}

export class CtaRelationSideDto {
  @ApiProperty({ enum: CTA_RELATION_RULES, example: 'LIST' })
  @IsIn(CTA_RELATION_RULES)
  rule: CtaRelationRule;

  @ApiProperty({
    type: [String],
    example: ['1'],
    description: 'CTA ids (strings or numbers); each must also be in linkedCtas',
  })
  @IsCtaIdList()
  @ArrayMaxSize(MAX_TAG_CTA_IDS)
  @IsArray()
  ctaList: (string | number)[];
}

export class CtaRelationDto {
  @ApiProperty({ type: CtaRelationSideDto })
  @ValidateNested()
  @IsObject()
  @Type(() => CtaRelationSideDto)
  shownCta: CtaRelationSideDto;

  @ApiProperty({ type: CtaRelationSideDto })
  @ValidateNested()
  @IsObject()
  @Type(() => CtaRelationSideDto)
  hideCta: CtaRelationSideDto;
}

/** What create and update share: everything but the name. */
export class BehaviourTagRulesDto {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'Any one store nudge shows, the rest hide; at most two resets a day',
    description: 'replaced on update: absent or null clears it',
  })
  @IsOptional()
  @IsString()
  description?: string | null;

  @ApiProperty({ type: TagExposureRuleDto })
  @ValidateNested()
  @IsObject()
  @Type(() => TagExposureRuleDto)
  exposureRule: TagExposureRuleDto;

  @ApiProperty({ type: CtaRelationDto })
  @ValidateNested()
  @IsObject()
  @Type(() => CtaRelationDto)
  ctaRelation: CtaRelationDto;

  @ApiProperty({
    type: [String],
    example: ['1'],
    description:
      'CTA ids (strings or numbers; duplicates count once), may be empty: existing non-test CTAs of the tenant, ' +
      'none linked by another tag; on update this set replaces the linked set',
  })
  @IsCtaIdList()
  @ArrayMaxSize(MAX_TAG_CTA_IDS)
  @IsArray()
  linkedCtas: (string | number)[];
}

export class CreateBehaviourTagDto extends BehaviourTagRulesDto {
  @ApiProperty({
    example: 'store-nudges',
    minLength: 1,
    maxLength: 255,
    description: 'unique per tenant, compared exactly; no leading or trailing whitespace',
  })
  // MySQL/MariaDB ignore trailing spaces when comparing names: refusing them keeps names exact everywhere.
  @Matches(/^(?!\s)[\s\S]*(?<!\s)$/, { message: '$property must not start or end with whitespace' })
  @Length(1, 255)
  @IsString()
  behaviourTagName: string;
}

/** The name comes from the path; a body may repeat it (panels send the whole record) but not change it. */
export class UpdateBehaviourTagDto extends BehaviourTagRulesDto {
  @ApiPropertyOptional({ example: 'store-nudges', description: 'optional; when sent it must equal the name in the path' })
  @IsOptional()
  @IsString()
  behaviourTagName?: string;
}
