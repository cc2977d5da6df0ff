import type { TenantChange } from '../audit/audit-log.service';
import { invalidRequest } from '../common/domain-error';
import type { EventDefinitionDto, EventPropertyDto } from './dto/event-definition.dto';
import type { EventDefinition, EventProperty } from './event-definition.types';

/**
 * The rules of event definitions that need no database: what a body stores, and what the audit
 * records. A name twice in one body is an INVALID_REQUEST naming it.
 */

/** Stored form of the properties: sent order, absent optional fields as null; a property name once per event. */
export function storedProperties(eventName: string, properties: EventPropertyDto[]): EventProperty[] {
  const seen = new Set<string>();
  return properties.map(({ propertyName, type, isMandatory, expectedValue, description }) => {
    if (seen.has(propertyName)) {
      throw invalidRequest(`event '${eventName}' has the property '${propertyName}' more than once`);
    }
    seen.add(propertyName);
    return { propertyName, type, isMandatory, expectedValue: expectedValue ?? null, description: description ?? null };
  });
}

/** The definitions an upsert body writes, in the order sent: each name once, absent properties as none. */
export function definitionsToWrite(events: EventDefinitionDto[]): EventDefinition[] {
  const names = new Set<string>();
  return events.map(({ eventName, properties }) => {
    if (names.has(eventName)) {
      throw invalidRequest(`event '${eventName}' appears more than once in events`);
    }
    names.add(eventName);
    return { eventName, properties: storedProperties(eventName, properties ?? []) };
  });
}

/** In byte order of the names, the order of the key: concurrent upserts then lock rows in the same order. */
export const inKeyOrder = (definitions: EventDefinition[]): EventDefinition[] =>
  [...definitions].sort((a, b) => Buffer.compare(Buffer.from(a.eventName), Buffer.from(b.eventName)));

/** An event definition's audit entry: created (nothing before), deleted (nothing after) or replaced. */
export function eventChange(tenantId: string, name: string, before: EventDefinition | null, after: EventDefinition | null): TenantChange {
  return {
    tenantId,
    entityType: 'event',
    entityId: name,
    action: before === null ? 'create' : after === null ? 'delete' : 'update',
    before,
    after,
  };
}
