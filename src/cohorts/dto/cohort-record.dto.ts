import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import type { MemberChange } from '../cohort-members.service';
import type { CohortRecord } from '../cohort-record';
import { COHORT_KINDS, CohortKind, CohortRule } from '../cohort-rule';

/**
 * What the cohort endpoints answer (inside `{"data": …}`). Every field is always sent; the
 * document has never marked them required, so they stay optional here.
 */

export class CohortRecordDto implements CohortRecord {
  @ApiPropertyOptional()
  name: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  description: string | null;

  @ApiPropertyOptional({ enum: COHORT_KINDS })
  kind: CohortKind;

  @ApiPropertyOptional({ type: 'object', nullable: true, additionalProperties: true, description: 'null for static cohorts' })
  rule: CohortRule | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, description: 'static cohorts: the number of members; rule cohorts: null' })
  memberCount: number | null;

  @ApiPropertyOptional({ type: [String], description: 'ids of the CTAs whose includes or excludes name the cohort' })
  usedBy: string[];

  @ApiPropertyOptional({ type: 'integer', format: 'int64' })
  createdAt: number;

  @ApiPropertyOptional()
  createdBy: string;

  @ApiPropertyOptional({ type: 'integer', format: 'int64', nullable: true })
  lastUpdatedAt: number | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  lastUpdatedBy: string | null;

  @ApiPropertyOptional()
  tenantId: string;
}

export class CohortListDto {
  @ApiPropertyOptional({ type: [CohortRecordDto] })
  cohorts: CohortRecordDto[];
}

/** Query of `GET /cohort-names`: the real admin panel's cohort picker sends the operator's id, which changes nothing. */
export class CohortNamesQueryDto {
  @ApiPropertyOptional({ description: 'accepted and ignored (the real admin panel sends one)' })
  @IsOptional()
  @IsString()
  userId?: string;
}

/** What a member upload or removal changed. */
export class MemberChangeDto implements MemberChange {
  @ApiPropertyOptional({ type: 'integer' })
  added: number;

  @ApiPropertyOptional({ type: 'integer' })
  removed: number;

  @ApiPropertyOptional({ type: 'integer' })
  memberCount: number;
}

export class MembershipDto {
  @ApiPropertyOptional()
  member: boolean;
}
