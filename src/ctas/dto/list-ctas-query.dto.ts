import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { CTA_STATUSES } from '../cta.types';

/** Query of `GET /ctas/`; every value is one string (a repeated parameter is rejected). Empty values mean "no filter". */
export class ListCtasQueryDto {
  @ApiPropertyOptional({ description: 'Exact name' })
  @IsOptional()
  @IsString()
  name?: string;

  @ApiPropertyOptional({ description: 'Case-insensitive substring of the name; % _ and \\ match literally' })
  @IsOptional()
  @IsString()
  searchName?: string;

  @ApiPropertyOptional({ description: 'Comma-separated teams; a CTA matches when its team is any of them', example: 'growth,store' })
  @IsOptional()
  @IsString()
  teams?: string;

  @ApiPropertyOptional({ description: 'Comma-separated tags; a CTA matches when it has any of them', example: 'onboarding' })
  @IsOptional()
  @IsString()
  tags?: string;

  @ApiPropertyOptional({ enum: CTA_STATUSES, description: 'Unknown value → CTA_STATUS_INVALID' })
  @IsOptional()
  @IsString()
  status?: string;

  @ApiPropertyOptional({ description: 'CTAs linked to this behaviour tag' })
  @IsOptional()
  @IsString()
  behaviourTag?: string;

  @ApiPropertyOptional({ description: 'Exact creator' })
  @IsOptional()
  @IsString()
  createdBy?: string;

  @ApiPropertyOptional({ description: '0-indexed page; decimal integer ≥ 0', default: 0 })
  @IsOptional()
  @Matches(/^\d{1,15}$/, { message: 'pageNumber must be a decimal integer ≥ 0' })
  pageNumber?: string;

  @ApiPropertyOptional({ description: 'Decimal integer 1-100', default: 10 })
  @IsOptional()
  @Matches(/^(?:100|[1-9]\d?)$/, { message: 'pageSize must be a decimal integer between 1 and 100' })
  pageSize?: string;
}
