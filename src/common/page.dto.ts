import { ApiPropertyOptional } from '@nestjs/swagger';

/** Where a page of a paged list stands: the fields every page answer has beside its entries. */
export class PageDto {
  @ApiPropertyOptional({ type: 'integer' })
  totalEntries: number;

  @ApiPropertyOptional({ type: 'integer' })
  totalPages: number;

  @ApiPropertyOptional({ type: 'integer' })
  pageNumber: number;

  @ApiPropertyOptional({ type: 'integer' })
  pageSize: number;
}
