import { Body, Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminEndpoint } from '../api-docs/endpoint';
import { API_TAG } from '../api-docs/api-tags';
import { OPTIONAL_USER_HEADER, SOURCE_HEADER } from '../common/api-headers';
import { EventEnvelope, eventEnvelope, NULL_DATA } from '../common/envelope';
import { EventSource, TenantId } from '../common/request-headers';
import { ChangeOrigin } from '../audit/change-origin';
import { EventDefinitionRecordDto, EventListDto, EventNamesDto, EventsProcessedDto } from './dto/event-definition-record.dto';
import { UpdateEventPropertiesDto, UpsertEventsDto } from './dto/event-definition.dto';
import {
  APP_RATED,
  DELETED_EVENT_PARAM,
  EVENT_BODY_EXAMPLES,
  EVENT_ERRORS,
  EVENT_EXAMPLE_NEEDS,
  EVENT_NAME_PARAM,
  PURCHASE_COMPLETED,
  STORE_OPENED,
} from './event-api-examples';
import type { EventDefinition } from './event-definition.types';
import { EventsBodyPipe } from './events-body.pipe';
import { EventsService } from './events.service';

/** Event definitions (seed "Event definitions", docs/behaviour.md#event-definitions), under the admin prefix; answers use the event envelope. */
@ApiTags(API_TAG.events)
@Controller('events')
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Post()
  @AdminEndpoint({
    summary: 'Create or update event definitions',
    description:
      'Upsert by name: an existing event gets its properties replaced. The whole body is validated first; one invalid event writes nothing.',
    role: 'editor',
    headers: [OPTIONAL_USER_HEADER, SOURCE_HEADER],
    body: { type: UpsertEventsDto, examples: EVENT_BODY_EXAMPLES.upsert },
    answers: { event: EventsProcessedDto, description: 'how many events were written', example: { eventsProcessed: 3 } },
    errors: EVENT_ERRORS.upsert,
  })
  async upsert(
    @TenantId() tenantId: string,
    @EventSource() source: string,
    @Body(EventsBodyPipe) body: UpsertEventsDto,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<EventEnvelope<EventsProcessedDto>> {
    return eventEnvelope({ eventsProcessed: await this.events.upsert(tenantId, source, body.events, origin) });
  }

  @Get()
  @AdminEndpoint({
    summary: 'List the event definitions of the tenant',
    description: 'Sorted by name.',
    role: 'viewer',
    answers: {
      event: EventListDto,
      description: 'every event of the tenant',
      example: { eventList: [APP_RATED, PURCHASE_COMPLETED, STORE_OPENED] },
    },
    errors: EVENT_ERRORS.list,
  })
  async list(@TenantId() tenantId: string): Promise<EventEnvelope<EventListDto>> {
    return eventEnvelope({ eventList: await this.events.list(tenantId) });
  }

  @Get('list/names')
  @AdminEndpoint({
    summary: 'List the event names of the tenant',
    description: 'Sorted.',
    role: 'viewer',
    answers: {
      event: EventNamesDto,
      description: 'every event name of the tenant',
      example: { eventNames: [APP_RATED.eventName, PURCHASE_COMPLETED.eventName, STORE_OPENED.eventName] },
    },
    errors: EVENT_ERRORS.list,
  })
  async names(@TenantId() tenantId: string): Promise<EventEnvelope<EventNamesDto>> {
    return eventEnvelope({ eventNames: await this.events.names(tenantId) });
  }

  @Get(':eventName')
  @AdminEndpoint({
    summary: 'Read one event definition',
    exampleNeeds: EVENT_EXAMPLE_NEEDS.storeOpened,
    role: 'viewer',
    params: [EVENT_NAME_PARAM],
    answers: { event: EventDefinitionRecordDto, description: 'the event', example: STORE_OPENED },
    errors: EVENT_ERRORS.get,
  })
  async get(@TenantId() tenantId: string, @Param('eventName') name: string): Promise<EventEnvelope<EventDefinition>> {
    return eventEnvelope(await this.events.get(tenantId, name));
  }

  @Put(':eventName')
  @AdminEndpoint({
    summary: "Replace an event's properties",
    exampleNeeds: EVENT_EXAMPLE_NEEDS.storeOpened,
    description: '`properties` is required (it may be empty) and replaces the stored list.',
    role: 'editor',
    params: [EVENT_NAME_PARAM],
    headers: [OPTIONAL_USER_HEADER, SOURCE_HEADER],
    body: { type: UpdateEventPropertiesDto, examples: EVENT_BODY_EXAMPLES.replaceProperties },
    answers: { event: NULL_DATA, description: 'replaced', example: null },
    errors: EVENT_ERRORS.replaceProperties,
  })
  async replaceProperties(
    @TenantId() tenantId: string,
    @EventSource() source: string,
    @Param('eventName') name: string,
    @Body(EventsBodyPipe) body: UpdateEventPropertiesDto,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<EventEnvelope<null>> {
    await this.events.replaceProperties(tenantId, source, name, body.properties, origin);
    return eventEnvelope(null);
  }

  @Delete(':eventName')
  @AdminEndpoint({
    summary: 'Delete an event definition',
    exampleNeeds: EVENT_EXAMPLE_NEEDS.deletedEvent,
    description:
      'Refused (EVENT_IN_USE) while the rule of a live, scheduled or paused CTA reacts to the event: conclude, terminate or edit those CTAs first.',
    role: 'editor',
    params: [DELETED_EVENT_PARAM],
    headers: [OPTIONAL_USER_HEADER],
    answers: { event: NULL_DATA, description: 'deleted', example: null },
    errors: EVENT_ERRORS.delete,
  })
  async delete(
    @TenantId() tenantId: string,
    @Param('eventName') name: string,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<EventEnvelope<null>> {
    await this.events.delete(tenantId, name, origin);
    return eventEnvelope(null);
  }
}
