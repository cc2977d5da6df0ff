import { ApiPropertyOptional } from '@nestjs/swagger';
import type { EventDefinition, EventProperty } from '../event-definition.types';

/**
 * Answers of the event-definition endpoints (inside the event envelope). Every field is
 * always sent; the document has never marked them required, so they stay optional here.
 */

export class EventPropertyRecordDto implements EventProperty {
  @ApiPropertyOptional()
  propertyName: string;

  @ApiPropertyOptional()
  type: string;

  @ApiPropertyOptional()
  isMandatory: boolean;

  @ApiPropertyOptional({ type: String, nullable: true })
  expectedValue: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  description: string | null;
}

export class EventDefinitionRecordDto implements EventDefinition {
  @ApiPropertyOptional()
  eventName: string;

  @ApiPropertyOptional({ type: [EventPropertyRecordDto] })
  properties: EventPropertyRecordDto[];
}

export class EventListDto {
  @ApiPropertyOptional({ type: [EventDefinitionRecordDto] })
  eventList: EventDefinitionRecordDto[];
}

export class EventNamesDto {
  @ApiPropertyOptional({ type: [String] })
  eventNames: string[];
}

export class EventsProcessedDto {
  @ApiPropertyOptional({ type: 'integer' })
  eventsProcessed: number;
}
