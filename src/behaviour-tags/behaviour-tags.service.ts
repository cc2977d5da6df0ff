import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { AuditLog } from '../audit/audit-log.service';
import type { AuditAction, ChangeOrigin } from '../audit/audit.types';
import { CatalogueRevisionService } from '../catalogue/catalogue-revision.service';
import { Clock } from '../common/clock';
import { DomainError } from '../common/domain-error';
import { ErrorCode } from '../common/error-code';
import { asStoredJson } from '../common/json-values';
import { insertDocuments, updateDocuments } from '../database/document-writes';
import { isDuplicateKeyError } from '../database/duplicate-key';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import { forUpdate } from '../database/row-lock';
import { BehaviourTagCtaEntity } from './behaviour-tag-cta.entity';
import { BehaviourTagEntity } from './behaviour-tag.entity';
import {
  assertLinkable,
  assertLinkableOnCreate,
  assertNotLinkedElsewhere,
  assertUpdatable,
  describeCtas,
  LinkedCtaState,
  TagDefinition,
  tagDefinition,
} from './behaviour-tag-rules';
import type { BehaviourTagRecordDto } from './dto/behaviour-tag-record.dto';
import type { CreateBehaviourTagDto, UpdateBehaviourTagDto } from './dto/behaviour-tag-body.dto';
import { TaggedCtas } from './tagged-ctas';

/** A link insert refused by the (tenant_id, cta_id) key: a concurrent request linked one of these CTAs first. */
class LinkRaceLost extends Error {
  constructor(readonly ctaIds: string[]) {
    super('a CTA was linked concurrently');
  }
}

const byNumericId = (a: string, b: string): number => Number(a) - Number(b);

/** A tag as the list (and the audit history) shows it; `linkedCtas` ascending. */
const toTagRecord = (tag: BehaviourTagEntity, linkedCtas: string[]): BehaviourTagRecordDto => ({
  name: tag.name,
  description: tag.description,
  createdAt: tag.createdAt,
  createdBy: tag.createdBy,
  lastUpdatedAt: tag.lastUpdatedAt,
  lastUpdatedBy: tag.lastUpdatedBy,
  exposureRule: tag.exposureRule,
  ctaRelation: tag.ctaRelation,
  linkedCtas,
  tenantId: tag.tenantId,
});

/**
 * A tag as written in this transaction, as the list would read it back (its JSON columns as they
 * come back, its links ascending): the audit's `after`, without reading a row that may hold a
 * megabyte description back (docs/benchmarks.md).
 */
const writtenRecord = (row: BehaviourTagEntity, linkedCtas: readonly string[]): BehaviourTagRecordDto =>
  toTagRecord(
    { ...row, exposureRule: asStoredJson(row.exposureRule), ctaRelation: asStoredJson(row.ctaRelation) },
    [...linkedCtas].sort(byNumericId),
  );

/**
 * Behaviour tags (docs/decisions/0004-behaviour-tags.md). Each write is one transaction through
 * `CatalogueRevisionService.write`, so the SDK catalogue sees it at once.
 *
 * Concurrency on MySQL/MariaDB: a write first locks the rows of every CTA it
 * links or unlinks (ascending ids, so two writes never deadlock), which orders
 * it against other tag writes and status changes of those CTAs; the
 * (tenant_id, cta_id) key of `behaviour_tag_ctas` is the final word on "one tag
 * per CTA", and the tag's primary key on "one tag per name". On SQLite the
 * transactions already run one at a time.
 */
@Injectable()
export class BehaviourTagsService {
  constructor(
    @InjectOrchestrationDataSource() private readonly dataSource: DataSource,
    private readonly catalogue: CatalogueRevisionService,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
    private readonly ctas: TaggedCtas,
  ) {}

  async create(tenantId: string, user: string, body: CreateBehaviourTagDto, origin: ChangeOrigin): Promise<void> {
    const name = body.behaviourTagName;
    const definition = tagDefinition(body);
    await this.withLinkRaceReported(tenantId, name, () =>
      this.catalogue.write(tenantId, async (manager) => {
        // Locks first: the reads below then see every write that held these CTAs before us.
        const ctas = await this.lockCtas(manager, tenantId, definition.linkedCtas);
        if (await manager.existsBy(BehaviourTagEntity, { tenantId, name })) {
          throw duplicateName(name);
        }
        assertLinkable(definition.linkedCtas, ctas);
        assertNotLinkedElsewhere(definition.linkedCtas, await this.linkOwners(manager, tenantId, name, definition.linkedCtas));
        assertLinkableOnCreate(ctas.values());
        const now = this.clock.now();
        const row: BehaviourTagEntity = {
          tenantId,
          name,
          ...this.storedFields(definition),
          createdAt: now,
          createdBy: user,
          lastUpdatedAt: now,
          lastUpdatedBy: user,
        };
        try {
          await insertDocuments(manager, BehaviourTagEntity, [row]);
        } catch (error) {
          // A concurrent create of the same name committed between our check and our insert.
          throw isDuplicateKeyError(error) ? duplicateName(name) : error;
        }
        await this.insertLinks(manager, tenantId, name, definition.linkedCtas);
        await this.recordChange(manager, tenantId, origin, name, 'create', null, writtenRecord(row, definition.linkedCtas));
      }),
    );
  }

  async update(tenantId: string, user: string, name: string, body: UpdateBehaviourTagDto, origin: ChangeOrigin): Promise<void> {
    if (body.behaviourTagName !== undefined && body.behaviourTagName !== name) {
      throw new DomainError(
        ErrorCode.CAMPAIGN_INVALID,
        `behaviourTagName: a behaviour tag cannot be renamed (the path names '${name}', the body '${body.behaviourTagName}')`,
      );
    }
    const definition = tagDefinition(body);
    await this.withLinkRaceReported(tenantId, name, () =>
      this.catalogue.write(tenantId, async (manager) => {
        // The tag's row lock orders concurrent updates of one tag; only they change its links.
        const tag = await forUpdate(
          manager.createQueryBuilder(BehaviourTagEntity, 'tag').where('tag.tenantId = :tenantId AND tag.name = :name', { tenantId, name }),
        ).getOne();
        // The exact comparison matters on MySQL/MariaDB, where 'a ' finds 'a'.
        if (!tag || tag.name !== name) {
          throw new DomainError(ErrorCode.CAMPAIGN_INVALID, `behaviour tag '${name}' does not exist`);
        }
        const before = (await manager.find(BehaviourTagCtaEntity, { where: { tenantId, tagName: name } })).map((link) =>
          String(link.ctaId),
        );
        const recordBefore = toTagRecord(tag, [...before].sort(byNumericId));
        const after = definition.linkedCtas;
        const ctas = await this.lockCtas(manager, tenantId, [...new Set([...before, ...after])]);
        assertLinkable(after, ctas);
        assertNotLinkedElsewhere(after, await this.linkOwners(manager, tenantId, name, after));
        assertUpdatable(name, ctas.values());

        const changes = { ...this.storedFields(definition), lastUpdatedAt: this.clock.now(), lastUpdatedBy: user };
        await updateDocuments(manager, manager.createQueryBuilder().update(BehaviourTagEntity).where({ tenantId, name }).set(changes));
        const dropped = before.filter((id) => !after.includes(id));
        if (dropped.length > 0) {
          await manager.delete(BehaviourTagCtaEntity, { tenantId, tagName: name, ctaId: In(dropped.map(Number)) });
        }
        await this.insertLinks(
          manager,
          tenantId,
          name,
          after.filter((id) => !before.includes(id)),
        );
        await this.recordChange(manager, tenantId, origin, name, 'update', recordBefore, writtenRecord({ ...tag, ...changes }, after));
      }),
    );
  }

  /** Every tag of the tenant, by name, with its linked CTA ids ascending. */
  async list(tenantId: string): Promise<BehaviourTagRecordDto[]> {
    const [tags, links] = await Promise.all([
      this.dataSource.manager.find(BehaviourTagEntity, { where: { tenantId }, order: { name: 'ASC' } }),
      this.dataSource.manager.find(BehaviourTagCtaEntity, { where: { tenantId }, order: { ctaId: 'ASC' } }),
    ]);
    const linkedByTag = new Map<string, string[]>();
    for (const link of links) {
      const ids = linkedByTag.get(link.tagName) ?? [];
      ids.push(String(link.ctaId));
      linkedByTag.set(link.tagName, ids);
    }
    return tags.map((tag) => toTagRecord(tag, linkedByTag.get(tag.name) ?? []));
  }

  /** The audit entry of a change of tag `name` made in this transaction. */
  private async recordChange(
    manager: EntityManager,
    tenantId: string,
    origin: ChangeOrigin,
    name: string,
    action: AuditAction,
    before: BehaviourTagRecordDto | null,
    after: BehaviourTagRecordDto,
  ): Promise<void> {
    await this.audit.record(manager, origin, [{ tenantId, entityType: 'behaviourTag', entityId: name, action, before, after }]);
  }

  private storedFields(definition: TagDefinition): Pick<BehaviourTagEntity, 'description' | 'exposureRule' | 'ctaRelation'> {
    return { description: definition.description, exposureRule: definition.exposureRule, ctaRelation: definition.ctaRelation };
  }

  /** The tenant's CTAs among `ids`, locked for the rest of the transaction. */
  private async lockCtas(manager: EntityManager, tenantId: string, ids: string[]): Promise<Map<string, LinkedCtaState>> {
    const rows = await this.ctas.lockStates(manager, tenantId, ids.map(Number));
    return new Map(rows.map((cta) => [String(cta.id), { id: String(cta.id), status: cta.status, isTest: cta.isTest }]));
  }

  /** CTA id → the tag other than `tagName` that links it, for the given ids. */
  private async linkOwners(manager: EntityManager, tenantId: string, tagName: string, ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) {
      return new Map();
    }
    const links = await manager.find(BehaviourTagCtaEntity, { where: { tenantId, ctaId: In(ids.map(Number)) } });
    return new Map(links.filter((link) => link.tagName !== tagName).map((link) => [String(link.ctaId), link.tagName]));
  }

  private async insertLinks(manager: EntityManager, tenantId: string, tagName: string, ids: string[]): Promise<void> {
    if (ids.length === 0) {
      return;
    }
    const sorted = [...ids].sort(byNumericId);
    try {
      await insertDocuments(
        manager,
        BehaviourTagCtaEntity,
        sorted.map((id) => ({ tenantId, ctaId: Number(id), tagName })),
      );
    } catch (error) {
      throw isDuplicateKeyError(error) ? new LinkRaceLost(sorted) : error;
    }
  }

  /**
   * Runs a write; when it lost a race for a CTA at the link key (and so was rolled
   * back), answers the 400 naming the tag that won, read after the rollback.
   */
  private async withLinkRaceReported(tenantId: string, tagName: string, write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (!(error instanceof LinkRaceLost)) {
        throw error;
      }
      assertNotLinkedElsewhere(error.ctaIds, await this.linkOwners(this.dataSource.manager, tenantId, tagName, error.ctaIds));
      throw new DomainError(
        ErrorCode.CAMPAIGN_INVALID,
        `linkedCtas: ${describeCtas(error.ctaIds)} changed tags while this request ran; retry`,
      );
    }
  }
}

const duplicateName = (name: string): DomainError =>
  new DomainError(ErrorCode.CAMPAIGN_DUPLICATE_NAME, `behaviourTagName: a behaviour tag named '${name}' already exists`);
