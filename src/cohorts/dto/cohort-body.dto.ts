import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, ValidateIf } from 'class-validator';
import { JsonDocument } from '../../common/validation';
import { COHORT_KINDS, type CohortKind } from '../cohort-rule';

const RULE_DESCRIPTION =
  'Rule cohorts only. `{"all": [...]}` or `{"any": [...]}` (groups nest up to 3 deep) of conditions: ' +
  '`{"attribute": "appVersion"|"packageName"|"hotpatchVersion", "op": "eq"|"neq", "value": "..."}`, ' +
  '`{"attribute": ..., "op": "in"|"notIn", "values": ["..."]}`, ' +
  '`{"attribute": "appVersion", "op": "semverLt"|"semverLte"|"semverGt"|"semverGte"|"semverEq", "value": "5.2.0"}`, ' +
  '`{"bucket": {"from": 0, "to": 10, "salt"?: "..."}}` (a stable 0-99 percentile of the user), `{"cohort": "<static cohort>"}`.';

/** `POST /cohorts` (docs/decisions/0008-cohorts.md). */
export class CreateCohortDto {
  @ApiProperty({ description: "1-255 characters of A-Z a-z 0-9 . _ : -, not 'all'; unique in the tenant", example: 'beta-testers' })
  @IsString()
  name: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'Users who joined the beta programme' })
  @IsOptional()
  @IsString()
  description?: string | null;

  @ApiProperty({ enum: COHORT_KINDS, example: 'static' })
  @IsIn(COHORT_KINDS)
  kind: CohortKind;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: RULE_DESCRIPTION })
  @JsonDocument()
  rule?: unknown;
}

/** `PUT /cohorts/{name}`: an omitted field keeps its value; the name and kind never change. */
export class UpdateCohortDto {
  @ApiPropertyOptional({ type: String, nullable: true, example: 'Users on app versions below 5.2' })
  @ValidateIf((_, value) => value !== null && value !== undefined)
  @IsString()
  description?: string | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: RULE_DESCRIPTION })
  @JsonDocument()
  rule?: unknown;
}
