import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, Equals, IsArray, IsBoolean, IsInt, IsObject, IsOptional, IsString, Length, ValidateIf } from 'class-validator';
import type { CtaExperiment } from '../cta-experiment';
import { JsonDocument } from '../../common/validation';
import type { CtaRule } from '../../rule/rule.types';
import { CREATE_EXAMPLE, EXPERIMENT_EXAMPLE, RULE_EXAMPLE } from '../../api-docs/flow-examples';
import { CtaExperimentDto } from './cta-experiment.dto';

/** Swagger description of `rule`; the rule itself is validated by `validateCtaRule` (shapes DTOs cannot express). */
export const RuleProperty = (): PropertyDecorator =>
  ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: RULE_EXAMPLE,
    description:
      'CTA rule, evaluated by the mobile SDK on the device: the grammar and what devices do with each part are in ' +
      'docs/rule-reference.md (in the repository and the package). States are decimal integer strings ("0" initial; ' +
      'transitionTo may be an integer); filter comparisons carry propertyType (string: =, !=; number: =, >, <, >=, <=; ' +
      'boolean: =); comparisonValue: a string; a number or numeric string ("" reads as 0); true or false — "true", "false" ' +
      '(any case) and "" are stored as the JSON boolean meant, other strings refused; actions have a unique actionId and a type ' +
      'NUDGE_UI, POPUP or TOOLTIP (with a template) or NUDGE_ACTION (with template.eventName); devices evaluate ' +
      'the LOWEST priority first. Every problem is named at its JSON path; POST /ctas/validate checks a body without saving it. ' +
      'Unknown keys are kept as sent; `frequency.lifespan` is accepted for `lifeSpan`; `ctaValidTill` is derived (endTime) and ignored when sent.',
  });

/** Each tag is a link row; operators use a handful per CTA. */
export const MAX_CTA_TAGS = 100;

/** Fields shared by create and update (update = create without `name`). */
export class CtaFieldsDto {
  @ApiProperty({
    example: CREATE_EXAMPLE.tags,
    maxItems: MAX_CTA_TAGS,
    description: `Categorisation tags (at most ${MAX_CTA_TAGS}, each 1-255 characters; duplicates collapse)`,
  })
  @IsArray()
  @ArrayMaxSize(MAX_CTA_TAGS)
  @IsString({ each: true })
  @Length(1, 255, { each: true })
  tags: string[];

  @ApiProperty({ example: CREATE_EXAMPLE.team, minLength: 1, maxLength: 255 })
  @IsString()
  @Length(1, 255)
  team: string;

  @ApiPropertyOptional({ type: 'string', example: CREATE_EXAMPLE.description, nullable: true })
  @IsOptional()
  @IsString()
  description?: string | null;

  @ApiPropertyOptional({ type: 'integer', example: null, nullable: true, description: 'Epoch ms within [now - 2 min, now + 5 years]' })
  @IsOptional()
  @IsInt()
  startTime?: number | null;

  @ApiPropertyOptional({ type: 'integer', example: null, nullable: true, description: 'Epoch ms, same window, after startTime' })
  @IsOptional()
  @IsInt()
  endTime?: number | null;

  @RuleProperty()
  @IsObject()
  @JsonDocument()
  rule: CtaRule;

  /** Checked with the rule it names (`experimentProblems`): the body pipe and the service. */
  @ApiPropertyOptional({
    type: CtaExperimentDto,
    nullable: true,
    example: EXPERIMENT_EXAMPLE,
    description:
      'An experiment (docs/experiments.md): holdoutPercent of the users, by a stable bucket of their id, get a silent variant ' +
      '(same journey, every action emitting holdoutEvent), and the report compares how many exposed users of each arm reach ' +
      'the goal state within windowDays. Never sent to devices; null or absent at create: none. On update, absent keeps it ' +
      'and null removes it; it may change only while the CTA is draft.',
  })
  @IsOptional()
  experiment?: Partial<CtaExperiment> | null;

  @ApiPropertyOptional({
    type: 'boolean',
    example: false,
    description:
      "Served however many actions the user had under the tenant's exposure policy (docs/exposure-policy.md); its actions " +
      'still count. Default false on create; omitted on update keeps the value. Never sent to devices.',
  })
  @ValidateIf((_body: unknown, value: unknown) => value !== undefined)
  @IsBoolean()
  capExempt?: boolean;
}

export class CreateCtaDto extends CtaFieldsDto {
  @ApiProperty({ example: CREATE_EXAMPLE.name, minLength: 1, maxLength: 255, description: 'Unique per tenant (case-sensitive)' })
  @IsString()
  @Length(1, 255)
  name: string;
}

/** `POST /ctas/validate`: a create body whose name may be left out. */
export class ValidateCtaDto extends CtaFieldsDto {
  @ApiPropertyOptional({
    example: 'first-purchase-reminder',
    minLength: 1,
    maxLength: 255,
    description: 'When sent, checked as create checks it (unique per tenant)',
  })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  name?: string;
}

export class UpdateCtaDto extends CtaFieldsDto {
  /** The name is fixed at creation (docs/decisions/0002-status-lifecycle-and-live-edits.md): any `name` in an update body is rejected. */
  @Equals(undefined, { message: 'name cannot be changed on update' })
  name?: never;
}
