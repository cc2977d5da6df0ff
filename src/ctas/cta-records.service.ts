import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { AuditLog, TenantChange } from '../audit/audit-log.service';
import type { AuditAction, ChangeOrigin } from '../audit/audit.types';
import { BehaviourTagReader } from '../behaviour-tags/behaviour-tag.reader';
import { asStoredJson } from '../common/json-values';
import { forUpdate } from '../database/row-lock';
import { InjectSettings, OrchestrationSettings } from '../orchestration-options';
import type { CtaContentState } from '../cta-lifecycle/content-approvals';
import { CtaApprovalReader } from './cta-approval-reader';
import { CtaTagEntity } from './cta-tag.entity';
import { CtaLinks, CtaRecord, toCtaRecord } from './cta-record';
import { CtaEntity } from './cta.entity';

/** Each CTA's values, sorted; sorted here rather than in SQL, where ORDER BY made SQLite scan the tenant's whole tag index. */
function group(rows: { ctaId: number; value: string }[]): Map<number, string[]> {
  const byCta = new Map<number, string[]>();
  for (const { ctaId, value } of rows) {
    const id = Number(ctaId);
    byCta.set(id, [...(byCta.get(id) ?? []), value]);
  }
  for (const values of byCta.values()) {
    values.sort();
  }
  return byCta;
}

const ctaChange = (tenantId: string, id: number, action: AuditAction, before: CtaRecord | null, after: CtaRecord | null): TenantChange => ({
  tenantId,
  entityType: 'cta',
  entityId: String(id),
  action,
  before,
  after,
});

/**
 * CTAs as the admin API shows them (`GET /ctas/{id}`, the list, and the audit's before/after),
 * read through the `manager` given: the caller's transaction, or the DataSource's outside one.
 */
@Injectable()
export class CtaRecords {
  constructor(
    private readonly behaviourTags: BehaviourTagReader,
    private readonly audit: AuditLog,
    @InjectSettings() private readonly settings: OrchestrationSettings,
    private readonly approvals: CtaApprovalReader,
  ) {}

  /** The tenant's CTA of that id, normal or test, as an approval looks at it; `locked` takes the row's lock for the rest of the transaction. */
  async contentState(manager: EntityManager, tenantId: string, id: number, { locked = false } = {}): Promise<CtaContentState | null> {
    const query = manager
      .createQueryBuilder(CtaEntity, 'cta')
      .select(['cta.id', 'cta.status', 'cta.isTest', 'cta.contentRevision', 'cta.contentChangedBy'])
      .where('cta.tenantId = :tenantId AND cta.id = :id', { tenantId, id });
    const cta = await (locked ? forUpdate(query) : query).getOne();
    return cta && { ...cta, id: Number(cta.id) };
  }

  /**
   * Tags and behaviour tag names of the given CTAs, and their approvals while approvals are
   * required: two queries (three with approvals), whatever the number of CTAs.
   */
  async linksOf(manager: EntityManager, tenantId: string, ctaIds: number[]): Promise<CtaLinks> {
    const withApprovals = this.settings.approvalsRequired;
    if (ctaIds.length === 0) {
      return { tags: new Map(), behaviourTags: new Map(), approvals: withApprovals ? new Map() : undefined };
    }
    const [tags, behaviourTags, approvals] = await Promise.all([
      manager.find(CtaTagEntity, { where: { tenantId, ctaId: In(ctaIds) } }),
      this.behaviourTags.linksOfCtas(manager, tenantId, ctaIds),
      withApprovals ? this.approvals.approvalsOf(manager, tenantId, ctaIds) : undefined,
    ]);
    return {
      tags: group(tags.map(({ ctaId, tag }) => ({ ctaId, value: tag }))),
      behaviourTags: group(behaviourTags.map(({ ctaId, tagName }) => ({ ctaId, value: tagName }))),
      approvals,
    };
  }

  /** The CTA of this row (as read, or as written in this transaction), its links read with `manager`. */
  async recordOf(manager: EntityManager, cta: CtaEntity): Promise<CtaRecord> {
    return toCtaRecord(cta, await this.linksOf(manager, cta.tenantId, [Number(cta.id)]));
  }

  /**
   * The CTA whose row this transaction has just written with these values (every column): as it would
   * read back, without reading its rule back (a megabyte to send and parse again).
   */
  writtenRecord(manager: EntityManager, written: CtaEntity): Promise<CtaRecord> {
    return this.recordOf(manager, { ...written, rule: asStoredJson(written.rule) });
  }

  /** The CTA, or null. `locked` takes the row's lock first (inside a transaction), so nothing changes it until commit. */
  async load(
    manager: EntityManager,
    tenantId: string,
    id: number,
    { isTest = false, locked = false }: { isTest?: boolean; locked?: boolean } = {},
  ): Promise<CtaRecord | null> {
    const query = manager
      .createQueryBuilder(CtaEntity, 'cta')
      .where('cta.tenantId = :tenantId AND cta.id = :id AND cta.isTest = :isTest', { tenantId, id, isTest });
    const cta = await (locked ? forUpdate(query) : query).getOne();
    return cta ? this.recordOf(manager, cta) : null;
  }

  /**
   * CTAs of any tenants by id: one read of the rows (locked with `locked`), then two link
   * reads per tenant. For the audit of a batch of changes.
   */
  async loadById(manager: EntityManager, ids: number[], { locked = false } = {}): Promise<Map<number, CtaRecord>> {
    if (ids.length === 0) {
      return new Map();
    }
    const query = manager.createQueryBuilder(CtaEntity, 'cta').where('cta.id IN (:...ids)', { ids }).orderBy('cta.id', 'ASC');
    const ctas = await (locked ? forUpdate(query) : query).getMany();
    const records = new Map<number, CtaRecord>();
    for (const tenantId of new Set(ctas.map((cta) => cta.tenantId))) {
      const ofTenant = ctas.filter((cta) => cta.tenantId === tenantId);
      const links = await this.linksOf(
        manager,
        tenantId,
        ofTenant.map((cta) => Number(cta.id)),
      );
      ofTenant.forEach((cta) => records.set(Number(cta.id), toCtaRecord(cta, links)));
    }
    return records;
  }

  /**
   * Records changes of CTAs (of one tenant or several) made in the transaction of `manager`;
   * each `after` is read back there (docs/decisions/0009-audit-in-the-same-transaction.md).
   */
  async recordChanges(
    manager: EntityManager,
    origin: ChangeOrigin,
    action: AuditAction,
    changed: { id: number; tenantId: string; before: CtaRecord | null }[],
  ): Promise<void> {
    const after = await this.loadById(
      manager,
      changed.map(({ id }) => id),
    );
    await this.audit.record(
      manager,
      origin,
      changed.map(({ id, tenantId, before }) => ctaChange(tenantId, id, action, before, after.get(id) ?? null)),
    );
  }

  /** Records the change of one CTA whose row this transaction has just written as `written` (see `writtenRecord`). */
  async recordWritten(
    manager: EntityManager,
    origin: ChangeOrigin,
    action: AuditAction,
    before: CtaRecord | null,
    written: CtaEntity,
  ): Promise<void> {
    const after = await this.writtenRecord(manager, written);
    await this.audit.record(manager, origin, [ctaChange(written.tenantId, written.id, action, before, after)]);
  }
}
