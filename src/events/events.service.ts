import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { AuditLog } from '../audit/audit-log.service';
import type { ChangeOrigin } from '../audit/audit.types';
import { Clock } from '../common/clock';
import { DomainError } from '../common/domain-error';
import { IN_PLAY_STATUSES } from '../cta-lifecycle/cta-status-policy';
import { ErrorCode } from '../common/error-code';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import { insertDocuments, updateDocuments } from '../database/document-writes';
import { forUpdate } from '../database/row-lock';
import { TransactionRunner } from '../database/transaction-runner';
import type { EventDefinitionDto, EventPropertyDto } from './dto/event-definition.dto';
import { definitionsToWrite, eventChange, inKeyOrder, storedProperties } from './event-definition-rules';
import { EventDefinitionEntity } from './event-definition.entity';
import type { EventDefinition } from './event-definition.types';
import { EventCtas } from './event-ctas';

const eventNotFound = (name: string): DomainError => new DomainError(ErrorCode.EVENT_NOT_FOUND, `event '${name}' does not exist`);

const toDefinition = (entity: EventDefinitionEntity): EventDefinition => ({ eventName: entity.name, properties: entity.properties });

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
    private readonly ctas: EventCtas,
  ) {}

  /** Creates or replaces each event; answers how many were written. */
  async upsert(tenantId: string, source: string, events: EventDefinitionDto[], origin: ChangeOrigin): Promise<number> {
    const definitions = definitionsToWrite(events);
    const now = this.clock.now();
    await this.transactions.run(async (manager) => {
      const names = definitions.map((definition) => definition.eventName);
      const existing = new Map((await this.lockedDefinitions(manager, tenantId, names)).map((event) => [event.eventName, event]));
      // One statement, so racing upserts of one name never fail on the key: the last one wins.
      await insertDocuments(
        manager,
        EventDefinitionEntity,
        inKeyOrder(definitions).map(({ eventName, properties }) => ({
          tenantId,
          name: eventName,
          properties,
          source,
          createdAt: now,
          updatedAt: now,
        })),
        { key: ['tenantId', 'name'], overwrite: ['properties', 'source', 'updatedAt'] },
      );
      await this.audit.record(
        manager,
        origin,
        definitions.map((definition) =>
          eventChange(tenantId, definition.eventName, existing.get(definition.eventName) ?? null, definition),
        ),
      );
    });
    return definitions.length;
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
    const stored = storedProperties(name, properties);
    const now = this.clock.now();
    await this.transactions.run(async (manager) => {
      const [before] = await this.lockedDefinitions(manager, tenantId, [name]);
      if (!before) {
        throw eventNotFound(name);
      }
      await updateDocuments(
        manager,
        manager
          .createQueryBuilder()
          .update(EventDefinitionEntity)
          .set({ properties: stored, source, updatedAt: now })
          .where({ tenantId, name }),
      );
      await this.audit.record(manager, origin, [eventChange(tenantId, name, before, { eventName: name, properties: stored })]);
    });
  }

  async delete(tenantId: string, name: string, origin: ChangeOrigin): Promise<void> {
    await this.transactions.run(async (manager) => {
      const [before] = await this.lockedDefinitions(manager, tenantId, [name]);
      if (!before) {
        throw eventNotFound(name);
      }
      const running = await this.ctas.reactingTo(manager, tenantId, name, IN_PLAY_STATUSES, this.clock.now());
      if (running.length > 0) {
        throw new DomainError(
          ErrorCode.EVENT_IN_USE,
          `event '${name}' is used by the rules of live, scheduled or paused CTAs ${running.join(', ')}; conclude, terminate or edit them first`,
        );
      }
      await manager.delete(EventDefinitionEntity, { tenantId, name });
      await this.audit.record(manager, origin, [eventChange(tenantId, name, before, null)]);
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
