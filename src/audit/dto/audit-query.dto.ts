import { ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { ListCtasQueryDto } from '../../ctas/dto/list-ctas-query.dto';
import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES } from '../audit.types';

const EPOCH_MS = /^\d{1,15}$/;

/** Paging of `GET /audit` and the history routes: the CTA list's. */
export class AuditPageQueryDto extends PickType(ListCtasQueryDto, ['pageNumber', 'pageSize'] as const) {}

/** Query of `GET /audit`; every filter is an exact match, and an unknown value simply matches nothing. */
export class AuditQueryDto extends AuditPageQueryDto {
  @ApiPropertyOptional({ description: `One of ${AUDIT_ENTITY_TYPES.join(', ')}` })
  @IsOptional()
  @IsString()
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

  @ApiPropertyOptional({ description: `One of ${AUDIT_ACTIONS.join(', ')}` })
  @IsOptional()
  @IsString()
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
