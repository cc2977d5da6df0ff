import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsInt, IsObject, Max, Min } from 'class-validator';
import { JsonDocument } from '../../common/validation';
import type { CtaRule } from '../../rule/rule.types';
import { RuleProperty } from './cta-body.dto';

export const MAX_TEST_USERS = 1000;
export const MAX_TEST_CTA_MINUTES = 43_200;

export class CreateTestCtaDto {
  @ApiProperty({
    example: [1234567890123, '9223372036854775807'],
    description: `1-${MAX_TEST_USERS} user ids: JSON integers, or decimal strings for ids beyond 2^53`,
    type: 'array',
    items: { oneOf: [{ type: 'integer' }, { type: 'string' }] },
  })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(MAX_TEST_USERS)
  userIds: unknown[];

  @ApiProperty({ type: 'integer', example: 60, minimum: 1, maximum: MAX_TEST_CTA_MINUTES })
  @IsInt()
  @Min(1)
  @Max(MAX_TEST_CTA_MINUTES)
  expiresInMinutes: number;

  @ApiPropertyOptional({
    example: 2,
    description: 'A test CTA this one replaces (deleted in the same transaction); unknown ids and normal CTAs are ignored',
    oneOf: [{ type: 'integer' }, { type: 'string' }],
  })
  previousCtaId?: unknown;

  @RuleProperty()
  @IsObject()
  @JsonDocument()
  rule: CtaRule;
}
