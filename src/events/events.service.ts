import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock';
import { DomainError, invalidRequest } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import { TransactionRunner } from '../database/transaction-runner';
import type { EventDefinitionDto, EventPropertyDto } from './dto/event-definition.dto';
import { EventDefinitionEntity } from './event-definition.entity';
import type { EventDefinition, EventProperty } from './event-definition.types';

const eventNotFound = (name: string): DomainError => new DomainError(ErrorCode.EVENT_NOT_FOUND, `event '${name}' does not exist`);

const toDefinition = (entity: EventDefinitionEntity): EventDefinition => ({ eventName: entity.name, properties: entity.properties });

/** Stored form of the properties: sent order, absent optional fields as null. */
function storedProperties(eventName: string, properties: EventPropertyDto[]): EventProperty[] {
  const seen = new Set<string>();
  return properties.map(({ propertyName, type, isMandatory, expectedValue, description }) => {
    if (seen.has(propertyName)) {
      throw invalidRequest(`event '${eventName}' has the property '${propertyName}' more than once`);
    }
    seen.add(propertyName);
    return { propertyName, type, isMandatory, expectedValue: expectedValue ?? null, description: description ?? null };
  });
}

/**
 * Event definitions (DESIGN §9): upserted by (tenant, name), properties
 * replaced as a whole. Each write request is one transaction; a body with any
 * invalid event writes nothing.
 */
@Injectable()
export class EventsService {
  constructor(
    @InjectOrchestrationDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  /** Creates or replaces each event; answers how many were written. */
  async upsert(tenantId: string, source: string, events: EventDefinitionDto[]): Promise<number> {
    const names = new Set<string>();
    const rows = events.map(({ eventName, properties }) => {
      if (names.has(eventName)) {
        throw invalidRequest(`event '${eventName}' appears more than once in events`);
      }
      names.add(eventName);
      return { name: eventName, properties: storedProperties(eventName, properties ?? []) };
    });
    const now = this.clock.now();
    // In byte order of the names, the order of the key: concurrent upserts then lock rows in the same order.
    const sorted = [...rows].sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
    await this.transactions.run((manager) =>
      manager
        .createQueryBuilder()
        .insert()
        .into(EventDefinitionEntity)
        .values(sorted.map((row) => ({ tenantId, ...row, source, createdAt: now, updatedAt: now })))
        // One statement, so racing upserts of one name never fail on the key: the last one wins.
        .orUpdate(['properties', 'source', 'updated_at'], ['tenant_id', 'name'])
        .execute(),
    );
    return rows.length;
  }

  async list(tenantId: string): Promise<EventDefinition[]> {
    const entities = await this.dataSource.manager.find(EventDefinitionEntity, { where: { tenantId }, order: { name: 'ASC' } });
    return entities.map(toDefinition);
  }

  async names(tenantId: string): Promise<string[]> {
    const entities = await this.dataSource.manager.find(EventDefinitionEntity, { select: { name: true }, where: { tenantId }, order: { name: 'ASC' } });
    return entities.map((entity) => entity.name);
  }

  async get(tenantId: string, name: string): Promise<EventDefinition> {
    const entity = await this.dataSource.manager.findOneBy(EventDefinitionEntity, { tenantId, name });
    if (!entity) {
      throw eventNotFound(name);
    }
    return toDefinition(entity);
  }

  async replaceProperties(tenantId: string, source: string, name: string, properties: EventPropertyDto[]): Promise<void> {
    const stored = storedProperties(name, properties);
    const now = this.clock.now();
    const { affected } = await this.transactions.run((manager) =>
      manager.update(EventDefinitionEntity, { tenantId, name }, { properties: stored, source, updatedAt: now }),
    );
    if (!affected) {
      throw eventNotFound(name);
    }
  }

  async delete(tenantId: string, name: string): Promise<void> {
    const { affected } = await this.transactions.run((manager) => manager.delete(EventDefinitionEntity, { tenantId, name }));
    if (!affected) {
      throw eventNotFound(name);
    }
  }
}
