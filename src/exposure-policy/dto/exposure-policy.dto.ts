import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { MAX_ACTIONS_LIMIT, WINDOW_UNITS } from '../exposure-policy';

/** A rolling window: the last `value` `unit`s. */
export class RollingWindowDto {
  @ApiProperty({ type: 'integer', minimum: 1, example: 24, description: 'at most a year: 525600 minutes, 8760 hours, 365 days' })
  value: number;

  @ApiProperty({ enum: WINDOW_UNITS, example: 'hours' })
  unit: string;
}

/** The calendar day in an IANA time zone. */
export class CalendarDayWindowDto {
  @ApiProperty({
    example: 'Asia/Kolkata',
    description: "an IANA time zone; the day is that zone's calendar day, DST-correct (23 or 25 hours on a change)",
  })
  calendarDay: string;
}

/** The body of `PUT /exposure-policy` and the `data` of both routes (documented only: `exposurePolicyOf` checks the body). */
export class ExposurePolicyDto {
  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: MAX_ACTIONS_LIMIT,
    example: 2,
    description:
      "at most this many actions of a user in the window, across all the tenant's CTAs; null: no cap (the default). " +
      'Over it, a launch serves only capExempt CTAs and the test CTAs listing the user.',
  })
  maxActions: number | null;

  @ApiPropertyOptional({
    nullable: true,
    oneOf: [{ $ref: getSchemaPath(RollingWindowDto) }, { $ref: getSchemaPath(CalendarDayWindowDto) }],
    description: 'required with a maxActions; {value, unit} (rolling) or {calendarDay} (the calendar day in that zone)',
  })
  window: RollingWindowDto | CalendarDayWindowDto | null;
}
