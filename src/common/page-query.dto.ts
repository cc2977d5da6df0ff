import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';

/** The page a paged list answers when the query names none. */
export const DEFAULT_PAGE_SIZE = 10;

/** Paging of a list query (the CTA list, the audit and its histories): each value one decimal string. */
export class PageQueryDto {
  @ApiPropertyOptional({ description: '0-indexed page; decimal integer ≥ 0', default: 0 })
  @IsOptional()
  @Matches(/^\d{1,15}$/, { message: 'pageNumber must be a decimal integer ≥ 0' })
  pageNumber?: string;

  @ApiPropertyOptional({ description: 'Decimal integer 1-100', default: DEFAULT_PAGE_SIZE })
  @IsOptional()
  @Matches(/^(?:100|[1-9]\d?)$/, { message: 'pageSize must be a decimal integer between 1 and 100' })
  pageSize?: string;
}
