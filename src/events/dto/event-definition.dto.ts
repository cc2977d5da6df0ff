import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  arrayMaxSize,
  ArrayNotEmpty,
  arrayNotEmpty,
  IsArray,
  IsBoolean,
  isBoolean,
  IsObject,
  isObject,
  IsOptional,
  IsString,
  isString,
  Length,
  length,
  ValidateIf,
  ValidateNested,
} from 'class-validator';

/**
 * Bodies of the event-definition endpoints (seed "Event definition", docs/behaviour.md#event-definitions).
 * Every failure answers INVALID_REQUEST naming the field path; duplicate names
 * are checked by the service.
 */

/** Bounds that keep one request's work small; real events have a handful of properties. */
export const MAX_EVENTS_PER_REQUEST = 1000;
export const MAX_PROPERTIES_PER_EVENT = 1000;
const MAX_TEXT_LENGTH = 255;

export class EventPropertyDto {
  @ApiProperty({ example: 'storeId', minLength: 1, maxLength: MAX_TEXT_LENGTH })
  @Length(1, MAX_TEXT_LENGTH)
  @IsString()
  propertyName: string;

  @ApiProperty({
    example: 'String',
    minLength: 1,
    maxLength: MAX_TEXT_LENGTH,
    description: 'a data type name: String, Integer, Boolean, …',
  })
  @Length(1, MAX_TEXT_LENGTH)
  @IsString()
  type: string;

  @ApiProperty({ example: true })
  @IsBoolean()
  isMandatory: boolean;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'store-77' })
  @IsOptional()
  @IsString()
  expectedValue?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'the store the user opened' })
  @IsOptional()
  @IsString()
  description?: string | null;
}

const isText = (value: unknown): boolean => isString(value) && length(value, 1, MAX_TEXT_LENGTH);
const isOptionalText = (value: unknown): boolean => value === undefined || value === null || isString(value);

/**
 * Whether a `properties` list passes its rules whole: each decorator's check below, run by hand with
 * class-validator's own functions, so that the body pipe need not build and validate an instance per
 * property (events-body.pipe.ts).
 */
export const isValidPropertyList = (value: unknown): value is EventPropertyDto[] =>
  Array.isArray(value) &&
  arrayMaxSize(value, MAX_PROPERTIES_PER_EVENT) &&
  value.every(
    (property) =>
      isObject<Record<string, unknown>>(property) &&
      isText(property.propertyName) &&
      isText(property.type) &&
      isBoolean(property.isMandatory) &&
      isOptionalText(property.expectedValue) &&
      isOptionalText(property.description),
  );

/** `properties` of an event, in the order they are stored and answered. */
const PropertiesProperty = (required: boolean): PropertyDecorator => {
  // In the order stacked decorators would apply (bottom first): the type check is reported first.
  const decorators = [
    Type(() => EventPropertyDto),
    IsArray(),
    ArrayMaxSize(MAX_PROPERTIES_PER_EVENT),
    IsObject({ each: true }),
    ValidateNested({ each: true }),
    (required ? ApiProperty : ApiPropertyOptional)({
      type: [EventPropertyDto],
      description:
        `at most ${MAX_PROPERTIES_PER_EVENT}, names unique within the event; stored and answered in this order` +
        (required ? '' : '; absent = none'),
    }),
  ];
  return (target, key) => decorators.forEach((decorate) => decorate(target, key));
};

export class EventDefinitionDto {
  @ApiProperty({ example: 'store_opened', minLength: 1, maxLength: MAX_TEXT_LENGTH, description: 'unique per tenant, compared exactly' })
  @Length(1, MAX_TEXT_LENGTH)
  @IsString()
  eventName: string;

  // Absent means no properties; null is refused like any other non-array.
  @ValidateIf((_, value) => value !== undefined)
  @PropertiesProperty(false)
  properties?: EventPropertyDto[];
}

/** Whether an `events` list passes its rules whole, as `isValidPropertyList` checks a `properties` list. */
export const isValidEventList = (value: unknown): value is EventDefinitionDto[] =>
  Array.isArray(value) &&
  arrayNotEmpty(value) &&
  arrayMaxSize(value, MAX_EVENTS_PER_REQUEST) &&
  value.every(
    (event) =>
      isObject<Record<string, unknown>>(event) &&
      isText(event.eventName) &&
      (event.properties === undefined || isValidPropertyList(event.properties)),
  );

export class UpsertEventsDto {
  @ApiProperty({ type: [EventDefinitionDto], description: `1-${MAX_EVENTS_PER_REQUEST} events, names unique within the body` })
  @ValidateNested({ each: true })
  @IsObject({ each: true })
  @ArrayMaxSize(MAX_EVENTS_PER_REQUEST)
  @ArrayNotEmpty()
  @IsArray()
  @Type(() => EventDefinitionDto)
  events: EventDefinitionDto[];
}

export class UpdateEventPropertiesDto {
  @PropertiesProperty(true)
  properties: EventPropertyDto[];
}
