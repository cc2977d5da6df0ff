import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { AuditLog, TenantChange } from '../audit/audit-log.service';
import type { ChangeOrigin } from '../audit/audit.types';
import { Clock } from '../common/clock';
import { DomainError, invalidRequest } from '../common/domain-error';
import { IN_PLAY_STATUSES } from '../cta-status/cta-status-policy';
import { ctasReactingTo } from '../ctas/cta-rows';
import { ErrorCode } from '../common/error-code';
import { joinProblemTexts } from '../common/problems';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import { forUpdate } from '../database/row-lock';
import { TransactionRunner } from '../database/transaction-runner';
import type { EventDefinitionDto, EventPropertyDto } from './dto/event-definition.dto';
import { EventDefinitionEntity } from './event-definition.entity';
import type { EventDefinition, EventProperty } from './event-definition.types';

const eventNotFound = (name: string): DomainError => new DomainError(ErrorCode.EVENT_NOT_FOUND, `event '${name}' does not exist`);

const toDefinition = (entity: EventDefinitionEntity): EventDefinition => ({ eventName: entity.name, properties: entity.properties });

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

/** Stored form of the properties: sent order, absent optional fields as null. */
const storedProperties = (properties: EventPropertyDto[]): EventProperty[] =>
  properties.map(({ propertyName, type, isMandatory, expectedValue, description }) => ({
    propertyName,
    type,
    isMandatory,
    expectedValue: expectedValue ?? null,
    description: description ?? null,
  }));

/**
 * Event definitions (docs/behaviour.md#event-definitions): upserted by (tenant, name), properties
 * replaced as a whole. Each write request is one transaction; a body with any
 * invalid event writes nothing.
 */
@Injectable()
export class EventsService {
  constructor(
    @InjectOrchestrationDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
  ) {}

  /** Creates or replaces each event; answers how many were written. */
  async upsert(tenantId: string, source: string, events: EventDefinitionDto[], origin: ChangeOrigin): Promise<number> {
    // Every repeated name of the body at once.
    const problems = [
      ...repeated(events.map((event) => event.eventName)).map((eventName) => `event '${eventName}' appears more than once in events`),
      ...events.flatMap(({ eventName, properties }) => repeatedProperties(eventName, properties ?? [])),
    ];
    if (problems.length > 0) throw invalidRequest(joinProblemTexts(problems));
    const names = new Set(events.map((event) => event.eventName));
    const rows = events.map(({ eventName, properties }) => ({ name: eventName, properties: storedProperties(properties ?? []) }));
    const now = this.clock.now();
    // In byte order of the names, the order of the key: concurrent upserts then lock rows in the same order.
    const sorted = [...rows].sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
    await this.transactions.run(async (manager) => {
      const existing = new Map((await this.lockedDefinitions(manager, tenantId, [...names])).map((event) => [event.eventName, event]));
      await manager
        .createQueryBuilder()
        .insert()
        .into(EventDefinitionEntity)
        .values(sorted.map((row) => ({ tenantId, ...row, source, createdAt: now, updatedAt: now })))
        // One statement, so racing upserts of one name never fail on the key: the last one wins.
        .orUpdate(['properties', 'source', 'updated_at'], ['tenant_id', 'name'])
        .execute();
      await this.audit.record(
        manager,
        origin,
        rows.map(({ name, properties }) => change(tenantId, name, existing.get(name) ?? null, { eventName: name, properties })),
      );
    });
    return rows.length;
  }

  async list(tenantId: string): Promise<EventDefinition[]> {
    const entities = await this.dataSource.manager.find(EventDefinitionEntity, { where: { tenantId }, order: { name: 'ASC' } });
    return entities.map(toDefinition);
  }

  async names(tenantId: string): Promise<string[]> {
    const entities = await this.dataSource.manager.find(EventDefinitionEntity, {
      select: { name: true },
      where: { tenantId },
      order: { name: 'ASC' },
    });
    return entities.map((entity) => entity.name);
  }

  async get(tenantId: string, name: string): Promise<EventDefinition> {
    const entity = await this.dataSource.manager.findOneBy(EventDefinitionEntity, { tenantId, name });
    if (!entity) {
      throw eventNotFound(name);
    }
    return toDefinition(entity);
  }

  async replaceProperties(
    tenantId: string,
    source: string,
    name: string,
    properties: EventPropertyDto[],
    origin: ChangeOrigin,
  ): Promise<void> {
    const problems = repeatedProperties(name, properties);
    if (problems.length > 0) throw invalidRequest(joinProblemTexts(problems));
    const stored = storedProperties(properties);
    const now = this.clock.now();
    await this.transactions.run(async (manager) => {
      const [before] = await this.lockedDefinitions(manager, tenantId, [name]);
      if (!before) {
        throw eventNotFound(name);
      }
      await manager.update(EventDefinitionEntity, { tenantId, name }, { properties: stored, source, updatedAt: now });
      await this.audit.record(manager, origin, [change(tenantId, name, before, { eventName: name, properties: stored })]);
    });
  }

  async delete(tenantId: string, name: string, origin: ChangeOrigin): Promise<void> {
    await this.transactions.run(async (manager) => {
      const [before] = await this.lockedDefinitions(manager, tenantId, [name]);
      if (!before) {
        throw eventNotFound(name);
      }
      const running = await ctasReactingTo(manager, tenantId, name, IN_PLAY_STATUSES, this.clock.now());
      if (running.length > 0) {
        throw new DomainError(
          ErrorCode.EVENT_IN_USE,
          `event '${name}' is used by the rules of live, scheduled or paused CTAs ${running.join(', ')}; conclude, terminate or edit them first`,
        );
      }
      await manager.delete(EventDefinitionEntity, { tenantId, name });
      await this.audit.record(manager, origin, [change(tenantId, name, before, null)]);
    });
  }

  /** The tenant's definitions among `names`, locked until the transaction ends (what the audit's `before` shows). */
  private async lockedDefinitions(manager: EntityManager, tenantId: string, names: string[]): Promise<EventDefinition[]> {
    const entities = await forUpdate(
      manager
        .createQueryBuilder(EventDefinitionEntity, 'event')
        .where({ tenantId, name: In(names) })
        .orderBy('event.name', 'ASC'),
    ).getMany();
    // The exact comparison matters on a server without a NO PAD collation, where 'a ' finds 'a'.
    return entities.filter((entity) => names.includes(entity.name)).map(toDefinition);
  }
}

/** An event definition's audit entry: created, replaced or deleted (docs/decisions/0009-audit-in-the-same-transaction.md). */
function change(tenantId: string, name: string, before: EventDefinition | null, after: EventDefinition | null): TenantChange {
  return {
    tenantId,
    entityType: 'event',
    entityId: name,
    action: before === null ? 'create' : after === null ? 'delete' : 'update',
    before,
    after,
  };
}
