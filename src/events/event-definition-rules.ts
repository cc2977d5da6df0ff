import type { TenantChange } from '../audit/audit-log.service';
import { invalidRequest } from '../common/domain-error';
import { joinProblemTexts } from '../common/problems';
import type { EventDefinitionDto, EventPropertyDto } from './dto/event-definition.dto';
import type { EventDefinition, EventProperty } from './event-definition.types';

/**
 * The rules of event definitions that need no database: what a body stores, and what the audit
 * records. Names twice in one body are an INVALID_REQUEST naming every one of them.
 */

/** Each value of `names` that comes more than once, once, in the order of its second coming. */
function repeated(names: readonly string[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const name of names) (seen.has(name) ? twice : seen).add(name);
  return [...twice];
}

/** Every name an event's properties repeat, as a problem. */
const repeatedProperties = (eventName: string, properties: readonly EventPropertyDto[]): string[] =>
  repeated(properties.map((property) => property.propertyName)).map(
    (propertyName) => `event '${eventName}' has the property '${propertyName}' more than once`,
  );

/** Stored form of the properties: sent order, absent optional fields as null; a property name once per event. */
export function storedProperties(eventName: string, properties: EventPropertyDto[]): EventProperty[] {
  const problems = repeatedProperties(eventName, properties);
  if (problems.length > 0) throw invalidRequest(joinProblemTexts(problems));
  return properties.map(({ propertyName, type, isMandatory, expectedValue, description }) => ({
    propertyName,
    type,
    isMandatory,
    expectedValue: expectedValue ?? null,
    description: description ?? null,
  }));
}

/** The definitions an upsert body writes, in the order sent: each name once, absent properties as none. */
export function definitionsToWrite(events: EventDefinitionDto[]): EventDefinition[] {
  // Every repeated name of the body at once: the events', then each event's properties'.
  const problems = [
    ...repeated(events.map((event) => event.eventName)).map((eventName) => `event '${eventName}' appears more than once in events`),
    ...events.flatMap(({ eventName, properties }) => repeatedProperties(eventName, properties ?? [])),
  ];
  if (problems.length > 0) throw invalidRequest(joinProblemTexts(problems));
  return events.map(({ eventName, properties }) => ({ eventName, properties: storedProperties(eventName, properties ?? []) }));
}

/** In byte order of the names, the order of the key: concurrent upserts then lock rows in the same order. */
export const inKeyOrder = (definitions: EventDefinition[]): EventDefinition[] =>
  definitions
    .map((definition) => ({ definition, key: Buffer.from(definition.eventName) }))
    .sort((a, b) => Buffer.compare(a.key, b.key))
    .map(({ definition }) => definition);

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
