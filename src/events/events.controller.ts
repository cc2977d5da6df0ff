import { Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiHeader, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { OPTIONAL_USER_HEADER, SOURCE_HEADER, TENANT_HEADER } from '../common/api-headers';
import { ChangeOrigin } from '../audit/change-origin';
import { RequiresRole } from '../security/admin-roles';
import { ErrorEnvelopeDto, EventEnvelope, eventEnvelope } from '../common/envelope';
import { ErrorCode } from '../common/error-code';
import { EventSource, TenantId } from '../common/request-headers';
import { ValidBody } from '../common/validation';
import { UpdateEventPropertiesDto, UpsertEventsDto } from './dto/event-definition.dto';
import type { EventDefinition } from './event-definition.types';
import { EventsService } from './events.service';

const STORE_OPENED: EventDefinition = {
  eventName: 'store_opened',
  properties: [
    { propertyName: 'storeId', type: 'String', isMandatory: true, expectedValue: null, description: 'the store the user opened' },
    { propertyName: 'source', type: 'String', isMandatory: false, expectedValue: 'home', description: null },
  ],
};

/** Swagger schema of `{success: true, data: <data>, statusCode: 200}`. */
const eventEnvelopeSchema = (data: object, example: unknown) => ({
  type: 'object',
  required: ['success', 'data', 'statusCode'],
  properties: { success: { type: 'boolean', enum: [true] }, data, statusCode: { type: 'integer', enum: [200] } },
  example: { success: true, data: example, statusCode: 200 },
});

const EVENT_SCHEMA = {
  type: 'object',
  properties: {
    eventName: { type: 'string' },
    properties: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          propertyName: { type: 'string' },
          type: { type: 'string' },
          isMandatory: { type: 'boolean' },
          expectedValue: { type: 'string', nullable: true },
          description: { type: 'string', nullable: true },
        },
      },
    },
  },
};

const NAME_PARAM = { name: 'eventName', description: 'the event name, URL-encoded', example: 'store_opened' };
const NOT_FOUND = { type: ErrorEnvelopeDto, description: 'EVENT_NOT_FOUND: the tenant has no event of this name' };
const BAD_TENANT = { type: ErrorEnvelopeDto, description: 'INVALID_REQUEST: malformed x-tenant-id' };

/** Event definitions (seed "Event definitions", DESIGN §9), under the admin prefix; answers use the event envelope. */
@ApiTags('Event definitions')
@Controller('events')
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Post()
  @HttpCode(200)
  @RequiresRole('editor')
  @ApiHeader(OPTIONAL_USER_HEADER)
  @ApiOperation({
    summary: 'Create or update event definitions',
    description: 'Upsert by name: an existing event gets its properties replaced. The whole body is validated first; one invalid event writes nothing.',
  })
  @ApiHeader(TENANT_HEADER)
  @ApiHeader(SOURCE_HEADER)
  @ApiBody({ type: UpsertEventsDto, examples: { store_opened: { value: { events: [STORE_OPENED] } } } })
  @ApiOkResponse({
    description: 'how many events were written',
    schema: eventEnvelopeSchema({ type: 'object', properties: { eventsProcessed: { type: 'integer' } } }, { eventsProcessed: 1 }),
  })
  @ApiBadRequestResponse({
    type: ErrorEnvelopeDto,
    description: 'INVALID_REQUEST: an invalid body (the message names the field), an event name twice in the body, a property name twice in one event, malformed x-tenant-id or x-source, malformed JSON',
  })
  async upsert(
    @TenantId() tenantId: string,
    @EventSource() source: string,
    @ValidBody(ErrorCode.INVALID_REQUEST) body: UpsertEventsDto,
    @ChangeOrigin() origin: ChangeOrigin,
  ): Promise<EventEnvelope<{ eventsProcessed: number }>> {
    return eventEnvelope({ eventsProcessed: await this.events.upsert(tenantId, source, body.events, origin) });
  }

  @Get()
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'List the event definitions of the tenant', description: 'Sorted by name.' })
  @ApiHeader(TENANT_HEADER)
  @ApiOkResponse({
    description: 'every event of the tenant',
    schema: eventEnvelopeSchema({ type: 'object', properties: { eventList: { type: 'array', items: EVENT_SCHEMA } } }, { eventList: [STORE_OPENED] }),
  })
  @ApiBadRequestResponse(BAD_TENANT)
  async list(@TenantId() tenantId: string): Promise<EventEnvelope<{ eventList: EventDefinition[] }>> {
    return eventEnvelope({ eventList: await this.events.list(tenantId) });
  }

  @Get('list/names')
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'List the event names of the tenant', description: 'Sorted.' })
  @ApiHeader(TENANT_HEADER)
  @ApiOkResponse({
    description: 'every event name of the tenant',
    schema: eventEnvelopeSchema({ type: 'object', properties: { eventNames: { type: 'array', items: { type: 'string' } } } }, { eventNames: ['store_opened'] }),
  })
  @ApiBadRequestResponse(BAD_TENANT)
  async names(@TenantId() tenantId: string): Promise<EventEnvelope<{ eventNames: string[] }>> {
    return eventEnvelope({ eventNames: await this.events.names(tenantId) });
  }

  @Get(':eventName')
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'Read one event definition' })
  @ApiParam(NAME_PARAM)
  @ApiHeader(TENANT_HEADER)
  @ApiOkResponse({ description: 'the event', schema: eventEnvelopeSchema(EVENT_SCHEMA, STORE_OPENED) })
  @ApiBadRequestResponse(BAD_TENANT)
  @ApiNotFoundResponse(NOT_FOUND)
  async get(@TenantId() tenantId: string, @Param('eventName') name: string): Promise<EventEnvelope<EventDefinition>> {
    return eventEnvelope(await this.events.get(tenantId, name));
  }

  @Put(':eventName')
  @HttpCode(200)
  @RequiresRole('editor')
  @ApiHeader(OPTIONAL_USER_HEADER)
  @ApiOperation({ summary: "Replace an event's properties", description: '`properties` is required (it may be empty) and replaces the stored list.' })
  @ApiParam(NAME_PARAM)
  @ApiHeader(TENANT_HEADER)
  @ApiHeader(SOURCE_HEADER)
  @ApiBody({ type: UpdateEventPropertiesDto, examples: { store_opened: { value: { properties: STORE_OPENED.properties } } } })
  @ApiOkResponse({ description: 'replaced', schema: eventEnvelopeSchema({ type: 'object', nullable: true }, null) })
  @ApiBadRequestResponse({
    type: ErrorEnvelopeDto,
    description: 'INVALID_REQUEST: an invalid body (the message names the field), a property name twice, malformed x-tenant-id or x-source, malformed JSON',
  })
  @ApiNotFoundResponse(NOT_FOUND)
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
  @ApiOkResponse({ description: 'deleted', schema: eventEnvelopeSchema({ type: 'object', nullable: true }, null) })
  @ApiBadRequestResponse(BAD_TENANT)
  @ApiNotFoundResponse(NOT_FOUND)
  async delete(@TenantId() tenantId: string, @Param('eventName') name: string, @ChangeOrigin() origin: ChangeOrigin): Promise<EventEnvelope<null>> {
    await this.events.delete(tenantId, name, origin);
    return eventEnvelope(null);
  }
}
