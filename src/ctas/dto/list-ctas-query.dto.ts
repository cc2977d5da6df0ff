import { ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { PageQueryDto } from '../../common/page-query.dto';
import { CTA_STATUSES } from '../../cta-lifecycle/cta-statuses';

/**
 * Filters of `GET /ctas/`; every value is one string (a repeated parameter is rejected). Empty values mean "no filter".
 * The filters carry no `example` or `default`: Swagger UI would fill them in and the list would hide CTAs
 * (docs/decisions/0014-admin-console.md).
 */
class CtaListFiltersDto {
  @ApiPropertyOptional({ description: 'Exact name, case-sensitive, e.g. `first-purchase-reminder`' })
  @IsOptional()
  @IsString()
  name?: string;

  @ApiPropertyOptional({ description: 'Case-insensitive part of the name, e.g. `purchase`; % _ and \\ match literally' })
  @IsOptional()
  @IsString()
  searchName?: string;

  @ApiPropertyOptional({ description: 'Teams separated by commas, e.g. `growth,store`; a CTA matches when its team is any of them' })
  @IsOptional()
  @IsString()
  teams?: string;

  @ApiPropertyOptional({ description: 'Tags separated by commas, e.g. `onboarding,store`; a CTA matches when it has any of them' })
  @IsOptional()
  @IsString()
  tags?: string;

  @ApiPropertyOptional({
    enum: CTA_STATUSES,
    description: 'One status, in any case (`live`, `LIVE`); an unknown value → CTA_STATUS_INVALID',
  })
  @IsOptional()
  @IsString()
  status?: string;

  @ApiPropertyOptional({ description: 'A behaviour tag name, e.g. `store-nudges`: the CTAs it links' })
  @IsOptional()
  @IsString()
  behaviourTag?: string;

  @ApiPropertyOptional({ description: 'Exact creator (the `user` header of the create), e.g. `ops@example.com`' })
  @IsOptional()
  @IsString()
  createdBy?: string;
}

/** Query of `GET /ctas/`: the filters, then the page. */
export class ListCtasQueryDto extends IntersectionType(CtaListFiltersDto, PageQueryDto) {}
