import { Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { API_TAG } from '../api-docs/api-tags';
import { ApiBadRequest, ApiNotFound, BAD_TENANT_EXAMPLE } from '../common/api-error-responses';
import { OPTIONAL_USER_HEADER, SOURCE_HEADER, TENANT_HEADER } from '../common/api-headers';
import { ChangeOrigin } from '../audit/change-origin';
import { RequiresRole } from '../security/admin-roles';
import { ApiEventResponse, EventEnvelope, eventEnvelope, NULL_DATA } from '../common/envelope';
import { ErrorCode } from '../common/error-code';
import { EventSource, TenantId } from '../common/request-headers';
import { ValidBody } from '../common/validation';
import { EventDefinitionRecordDto, EventListDto, EventNamesDto, EventsProcessedDto } from './dto/event-definition-record.dto';
import { UpdateEventPropertiesDto, UpsertEventsDto } from './dto/event-definition.dto';
import type { EventDefinition } from './event-definition.types';
import { EventsService } from './events.service';

/** The events of the CTA create example's rule, with the properties its filters, contextParams and groupByKeys use. */
const STORE_OPENED: EventDefinition = {
  eventName: 'store_opened',
  properties: [
    { propertyName: 'storeId', type: 'String', isMandatory: true, expectedValue: null, description: 'the store the user opened' },
    {
      propertyName: 'source',
      type: 'String',
      isMandatory: false,
      expectedValue: 'home',
      description: 'the screen the store was opened from',
    },
    {
      propertyName: 'cartValue',
      type: 'Double',
      isMandatory: false,
      expectedValue: null,
      description: "the cart's value when the store opened",
    },
  ],
};
const PURCHASE_COMPLETED: EventDefinition = {
  eventName: 'purchase_completed',
  properties: [
    { propertyName: 'storeId', type: 'String', isMandatory: true, expectedValue: null, description: 'the store of the purchase' },
    { propertyName: 'orderValue', type: 'Double', isMandatory: true, expectedValue: null, description: null },
  ],
};

const NAME_PARAM = {
  name: 'eventName',
  description: 'the event name, URL-encoded (store_opened: an event the create example defines)',
  example: 'store_opened',
};
const ApiEventNotFound = () =>
  ApiNotFound('EVENT_NOT_FOUND: the tenant has no event of this name', [ErrorCode.EVENT_NOT_FOUND, "event 'store_closed' does not exist"]);
const ApiBadTenant = () => ApiBadRequest('INVALID_REQUEST: malformed x-tenant-id', BAD_TENANT_EXAMPLE);

/**
 * Event definitions (seed "Event definitions", docs/behaviour.md#event-definitions), under the admin prefix; answers use
 * the event envelope.
 */
@ApiTags(API_TAG.events)
@Controller('events')
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Post()
  @HttpCode(200)
  @RequiresRole('editor')
  @ApiHeader(OPTIONAL_USER_HEADER)
  @ApiOperation({
    summary: 'Create or update event definitions',
    description:
      'Upsert by name: an existing event gets its properties replaced. The whole body is validated first; one invalid event writes nothing.',
  })
  @ApiHeader(TENANT_HEADER)
  @ApiHeader(SOURCE_HEADER)
  @ApiBody({
    type: UpsertEventsDto,
    examples: {
      'store events': { summary: 'the events the CTA create example reacts to', value: { events: [STORE_OPENED, PURCHASE_COMPLETED] } },
    },
  })
  @ApiEventResponse(EventsProcessedDto, { description: 'how many events were written', example: { eventsProcessed: 2 } })
  @ApiBadRequest(
    'INVALID_REQUEST: an invalid body (the message lists every problem with its field path), an event name twice in the body, a property name twice in one event, malformed x-tenant-id or x-source, malformed JSON',
    [ErrorCode.INVALID_REQUEST, 'events[0].eventName must be a string; events[0].properties[1].isMandatory is required'],
    [ErrorCode.INVALID_REQUEST, "event 'store_opened' appears more than once in events"],
  )
  async upsert(
    @TenantId() tenantId: string,
    @EventSource() source: string,
    @ValidBody(ErrorCode.INVALID_REQUEST) body: UpsertEventsDto,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<EventEnvelope<EventsProcessedDto>> {
    return eventEnvelope({ eventsProcessed: await this.events.upsert(tenantId, source, body.events, origin) });
  }

  @Get()
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'List the event definitions of the tenant', description: 'Sorted by name.' })
  @ApiHeader(TENANT_HEADER)
  @ApiEventResponse(EventListDto, { description: 'every event of the tenant', example: { eventList: [PURCHASE_COMPLETED, STORE_OPENED] } })
  @ApiBadTenant()
  async list(@TenantId() tenantId: string): Promise<EventEnvelope<EventListDto>> {
    return eventEnvelope({ eventList: await this.events.list(tenantId) });
  }

  @Get('list/names')
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'List the event names of the tenant', description: 'Sorted.' })
  @ApiHeader(TENANT_HEADER)
  @ApiEventResponse(EventNamesDto, {
    description: 'every event name of the tenant',
    example: { eventNames: ['purchase_completed', 'store_opened'] },
  })
  @ApiBadTenant()
  async names(@TenantId() tenantId: string): Promise<EventEnvelope<EventNamesDto>> {
    return eventEnvelope({ eventNames: await this.events.names(tenantId) });
  }

  @Get(':eventName')
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'Read one event definition' })
  @ApiParam(NAME_PARAM)
  @ApiHeader(TENANT_HEADER)
  @ApiEventResponse(EventDefinitionRecordDto, { description: 'the event', example: STORE_OPENED })
  @ApiBadTenant()
  @ApiEventNotFound()
  async get(@TenantId() tenantId: string, @Param('eventName') name: string): Promise<EventEnvelope<EventDefinition>> {
    return eventEnvelope(await this.events.get(tenantId, name));
  }

  @Put(':eventName')
  @HttpCode(200)
  @RequiresRole('editor')
  @ApiHeader(OPTIONAL_USER_HEADER)
  @ApiOperation({
    summary: "Replace an event's properties",
    description: '`properties` is required (it may be empty) and replaces the stored list.',
  })
  @ApiParam(NAME_PARAM)
  @ApiHeader(TENANT_HEADER)
  @ApiHeader(SOURCE_HEADER)
  @ApiBody({
    type: UpdateEventPropertiesDto,
    examples: { store_opened: { summary: 'the properties of store_opened, as created', value: { properties: STORE_OPENED.properties } } },
  })
  @ApiEventResponse(NULL_DATA, { description: 'replaced', example: null })
  @ApiBadRequest(
    'INVALID_REQUEST: an invalid body (the message lists every problem with its field path), a property name twice, malformed x-tenant-id or x-source, malformed JSON',
    [ErrorCode.INVALID_REQUEST, 'properties[0].isMandatory must be a boolean value'],
    [ErrorCode.INVALID_REQUEST, "event 'store_opened' has the property 'storeId' more than once"],
  )
  @ApiEventNotFound()
  async replaceProperties(
    @TenantId() tenantId: string,
    @EventSource() source: string,
    @Param('eventName') name: string,
    @ValidBody(ErrorCode.INVALID_REQUEST) body: UpdateEventPropertiesDto,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<EventEnvelope<null>> {
    await this.events.replaceProperties(tenantId, source, name, body.properties, origin);
    return eventEnvelope(null);
  }

  @Delete(':eventName')
  @RequiresRole('editor')
  @ApiHeader(OPTIONAL_USER_HEADER)
  @ApiOperation({ summary: 'Delete an event definition' })
  @ApiParam(NAME_PARAM)
  @ApiHeader(TENANT_HEADER)
  @ApiEventResponse(NULL_DATA, { description: 'deleted', example: null })
  @ApiBadTenant()
  @ApiEventNotFound()
  async delete(
    @TenantId() tenantId: string,
    @Param('eventName') name: string,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<EventEnvelope<null>> {
    await this.events.delete(tenantId, name, origin);
    return eventEnvelope(null);
  }
}
