import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, ValidateBy } from 'class-validator';
import { CTA_STATUSES, type CtaStatus } from '../../cta-lifecycle/cta-statuses';
import { DEFAULT_RANGE_DAYS, MAX_RANGE_DAYS, utcDayProblem } from '../insight-range';
import type { CtaInsights, CtaInsightsSummary, InsightsDay, InsightsNow, InsightsOverview, InsightsTotals } from '../insights.types';
import { INSIGHTS_RANGE_EXAMPLE } from '../insights-api-examples';

/** A day of the calendar as YYYY-MM-DD; each malformed day of a query is named (docs/operator-view.md). */
const IsUtcDay = () =>
  ValidateBy({
    name: 'isUtcDay',
    validator: {
      validate: (value: unknown) => utcDayProblem('', value) === null,
      defaultMessage: (args) => utcDayProblem(args?.property ?? 'day', args?.value) ?? '',
    },
  });

/** Query of both insights routes; the days' order and span are checked by `dayRange`. */
export class InsightsQueryDto {
  @ApiPropertyOptional({
    description: `First day, UTC, inclusive (YYYY-MM-DD). Default: ${DEFAULT_RANGE_DAYS} days ending on \`to\`; at most ${MAX_RANGE_DAYS} days in all.`,
    example: INSIGHTS_RANGE_EXAMPLE.from,
  })
  @IsOptional()
  @IsUtcDay()
  from?: string;

  @ApiPropertyOptional({ description: 'Last day, UTC, inclusive (YYYY-MM-DD). Default: today (UTC).', example: INSIGHTS_RANGE_EXAMPLE.to })
  @IsOptional()
  @IsUtcDay()
  to?: string;
}

const COUNT = { type: 'integer' } as const;

export class InsightsNowDto implements InsightsNow {
  @ApiProperty({ ...COUNT, description: 'users with stored machines of the CTA' })
  users: number;

  @ApiProperty({ ...COUNT, description: 'their stored machines' })
  machines: number;

  @ApiProperty({ type: 'object', additionalProperties: COUNT, description: 'machines per currentState' })
  byState: Record<string, number>;
}

export class InsightsDayDto implements InsightsDay {
  @ApiProperty({ description: 'YYYY-MM-DD, UTC' })
  day: string;

  @ApiProperty({ ...COUNT, description: 'new actionDoneAt entries timed on the day (actions devices ran)' })
  actions: number;

  @ApiProperty({ ...COUNT, description: 'new resetAt entries timed on the day (journeys completed)' })
  resets: number;

  @ApiProperty({ ...COUNT, description: 'users whose first action is on the day' })
  newUsers: number;
}

export class InsightsTotalsDto implements InsightsTotals {
  @ApiProperty({ ...COUNT, description: 'actions over the range' })
  actions: number;

  @ApiProperty({ ...COUNT, description: 'resets over the range' })
  resets: number;

  @ApiProperty({ ...COUNT, description: 'users with any action, ever (not only in the range)' })
  usersReached: number;
}

export class CtaInsightsDto implements CtaInsights {
  @ApiProperty({ ...COUNT, format: 'int64' })
  ctaId: number;

  @ApiProperty({
    type: InsightsNowDto,
    description: "the server's view now: a machine expired on a device counts until a launch prunes it",
  })
  now: InsightsNowDto;

  @ApiProperty({ type: [InsightsDayDto], description: 'every day of the range, oldest first, zeros included' })
  daily: InsightsDayDto[];

  @ApiProperty({ type: InsightsTotalsDto })
  totals: InsightsTotalsDto;
}

export class CtaInsightsSummaryDto extends InsightsTotalsDto implements CtaInsightsSummary {
  @ApiProperty({ ...COUNT, format: 'int64' })
  ctaId: number;

  @ApiProperty()
  name: string;

  @ApiProperty({ enum: CTA_STATUSES })
  ctaStatus: CtaStatus;
}

export class InsightsOverviewDto implements InsightsOverview {
  @ApiProperty({ description: 'first day of the range, YYYY-MM-DD' })
  from: string;

  @ApiProperty({ description: 'last day of the range, YYYY-MM-DD' })
  to: string;

  @ApiProperty({ type: [CtaInsightsSummaryDto], description: 'every CTA of the tenant (test CTAs aside), by actions descending, then id' })
  ctas: CtaInsightsSummaryDto[];
}
