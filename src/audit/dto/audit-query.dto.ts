import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { PageQueryDto } from '../../common/page-query.dto';
import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES } from '../audit.types';

const EPOCH_MS = /^\d{1,15}$/;

/** Paging of `GET /audit` and the history routes: the CTA list's. */
export class AuditPageQueryDto extends PageQueryDto {}

/**
 * Query of `GET /audit`; every filter is an exact match. entityType and action take only their values: a typo
 * (`aprove`) would otherwise answer an empty page that reads as "nobody did that".
 */
export class AuditQueryDto extends AuditPageQueryDto {
  @ApiPropertyOptional({ enum: AUDIT_ENTITY_TYPES, description: `One of ${AUDIT_ENTITY_TYPES.join(', ')}` })
  @IsOptional()
  @IsIn(AUDIT_ENTITY_TYPES, { message: `entityType must be one of ${AUDIT_ENTITY_TYPES.join(', ')}` })
  entityType?: string;

  @ApiPropertyOptional({ description: 'CTA id, behaviour tag name, event name or cohort name (with entityType)' })
  @IsOptional()
  @IsString()
  entityId?: string;

  @ApiPropertyOptional({ description: 'Name of the admin key that made the change, or `scheduler`' })
  @IsOptional()
  @IsString()
  actor?: string;

  @ApiPropertyOptional({ description: 'The `user` header the change was made with' })
  @IsOptional()
  @IsString()
  user?: string;

  @ApiPropertyOptional({ enum: AUDIT_ACTIONS, description: `One of ${AUDIT_ACTIONS.join(', ')}` })
  @IsOptional()
  @IsIn(AUDIT_ACTIONS, { message: `action must be one of ${AUDIT_ACTIONS.join(', ')}` })
  action?: string;

  @ApiPropertyOptional({ description: 'Entries at or after this time: epoch ms, a decimal integer' })
  @IsOptional()
  @Matches(EPOCH_MS, { message: 'from must be epoch milliseconds (a decimal integer ≥ 0)' })
  from?: string;

  @ApiPropertyOptional({ description: 'Entries at or before this time: epoch ms, a decimal integer' })
  @IsOptional()
  @Matches(EPOCH_MS, { message: 'to must be epoch milliseconds (a decimal integer ≥ 0)' })
  to?: string;
}
