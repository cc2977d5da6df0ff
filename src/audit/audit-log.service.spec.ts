import { applyPatch, deepClone } from 'fast-json-patch';
import type { EntityManager, FindOperator } from 'typeorm';
import { Clock } from '../common/clock';
import { insertDocuments } from '../database/document-writes';
import { jsonTransformer } from '../database/transformers';
import { resolveSettings } from '../orchestration-options';
import { AuditEntryEntity } from './audit-entry.entity';
import { AuditLog, patchBetween, patchText, recordedVersion, type TenantChange } from './audit-log.service';
import type { AuditEntry, ChangeOrigin } from './audit.types';

jest.mock('../database/document-writes', () => ({ insertDocuments: jest.fn(async () => ({ affected: 0, insertId: 0 })) }));

const NOW = 1_800_000_000_000;
const DAY = 24 * 60 * 60 * 1000;

class FixedClock extends Clock {
  override now(): number {
    return NOW;
  }
}

type Dependencies = ConstructorParameters<typeof AuditLog>;

/** An audit log over `rows` (the oldest entries, as the purge reads them), with AUDIT_RETENTION_DAYS `retentionDays`. */
function auditLog(retentionDays = 0, rows: Pick<AuditEntryEntity, 'id' | 'at'>[] = []) {
  const register = jest.fn();
  const deleted: unknown[] = [];
  const manager = {
    find: async () => rows,
    delete: async (_entity: unknown, criteria: { id: FindOperator<number[]> }) => deleted.push(criteria.id.value),
  };
  const log = new AuditLog(
    { manager } as unknown as Dependencies[0],
    resolveSettings({ auditRetentionDays: retentionDays }),
    { run: (work: (manager: unknown) => Promise<unknown>) => work(manager) } as unknown as Dependencies[2],
    new FixedClock(),
    { register } as unknown as Dependencies[4],
  );
  return { log, register, deleted };
}

const record = { id: 7, name: 'first', tags: ['a', 'b'], rule: { priority: 5, actions: [{ actionId: 'x' }] }, lastUpdatedBy: null };

describe('patchBetween', () => {
  it('replaces the whole document when a record appears or disappears', () => {
    expect(patchBetween(null, record)).toEqual([{ op: 'replace', path: '', value: record }]);
    expect(patchBetween(record, null)).toEqual([{ op: 'replace', path: '', value: null }]);
  });

  it('lists only what an update changed, down to nested fields and list items, and is empty when nothing did', () => {
    const after = { ...record, tags: ['a'], rule: { ...record.rule, priority: 7 }, lastUpdatedBy: 'bob' };
    expect(patchBetween(record, after)).toEqual([
      { op: 'replace', path: '/lastUpdatedBy', value: 'bob' },
      { op: 'replace', path: '/rule/priority', value: 7 },
      { op: 'remove', path: '/tags/1' },
    ]);
    expect(patchBetween(record, deepClone(record))).toEqual([]);
  });

  it('is written as JSON text around the text of after, serialising after once', () => {
    const changed = { ...record, name: 'second' };
    for (const [before, after] of [
      [null, record],
      [record, null],
      [record, changed],
    ] as const) {
      expect(patchText(before, after, after === null ? null : JSON.stringify(after))).toBe(JSON.stringify(patchBetween(before, after)));
    }
  });

  it('is the whole story: applied to before, it gives after', () => {
    const after = { ...record, name: 'renamed', rule: { priority: 1, actions: [{ actionId: 'y' }, { actionId: 'z' }] }, extra: true };
    for (const [before, next] of [
      [record, after],
      [null, after],
    ] as const) {
      expect(applyPatch(deepClone(before), patchBetween(before, next)).newDocument).toEqual(next);
    }
  });
});

describe('AuditLog.record', () => {
  const origin: ChangeOrigin = { actor: 'ops-key', user: 'alice@example.com', requestId: 'req-1' };
  const change = (entityId: string, before: object | null, after: object | null): TenantChange => ({
    tenantId: 't',
    entityType: 'cta',
    entityId,
    action: before === null ? 'create' : 'update',
    before,
    after,
  });

  const manager = {} as EntityManager;

  beforeEach(() => jest.mocked(insertDocuments).mockClear());

  /** An inserted entry with its document columns as they are stored (JSON text). */
  const asStored = (values: Record<string, unknown>) => ({
    ...values,
    before: jsonTransformer.to(values.before),
    after: jsonTransformer.to(values.after),
    changes: jsonTransformer.to(values.changes),
  });

  it("writes one entry per change in one insert, in the caller's transaction: the origin, the clock's time and the patch", async () => {
    const changed = { ...record, name: 'second' };
    await auditLog().log.record(manager, origin, [change('7', null, record), change('7', record, changed), change('7', changed, null)]);
    expect(insertDocuments).toHaveBeenCalledTimes(1);
    const [into, entity, rows] = jest.mocked(insertDocuments).mock.calls[0];
    expect([into, entity]).toEqual([manager, AuditEntryEntity]);
    expect((rows as Record<string, unknown>[]).map(asStored)).toEqual(
      [
        { ...change('7', null, record), changes: [{ op: 'replace', path: '', value: record }] },
        { ...change('7', record, changed), changes: [{ op: 'replace', path: '/name', value: 'second' }] },
        { ...change('7', changed, null), changes: [{ op: 'replace', path: '', value: null }] },
      ].map((entry) => asStored({ ...entry, ...origin, at: NOW })),
    );
  });

  it('writes nothing when nothing changed', async () => {
    await auditLog().log.record(manager, origin, []);
    expect(insertDocuments).not.toHaveBeenCalled();
  });
});

describe('recordedVersion', () => {
  const entry = (fields: Partial<AuditEntry>): AuditEntry => ({
    id: 1,
    at: NOW,
    actor: null,
    user: 'alice@example.com',
    requestId: null,
    entityType: 'cta',
    entityId: '7',
    action: 'update',
    before: {},
    after: record,
    changes: [],
    ...fields,
  });

  it("answers the record as an entry of its own left it: a create's, an update's, a status change's or a restore's", () => {
    for (const action of ['create', 'update', 'live', 'restore'] as const) {
      expect(recordedVersion(entry({ action }), 'cta', '7')).toBe(record);
    }
  });

  it("answers null for another record's entry, another kind of record, a delete, or no entry", () => {
    expect(recordedVersion(entry({ entityId: '8' }), 'cta', '7')).toBeNull();
    expect(recordedVersion(entry({ entityId: '07' }), 'cta', '7')).toBeNull();
    expect(recordedVersion(entry({ entityType: 'testCta' }), 'cta', '7')).toBeNull();
    expect(recordedVersion(entry({ entityType: 'event', entityId: '7' }), 'cta', '7')).toBeNull();
    expect(recordedVersion(entry({ action: 'delete', after: null }), 'cta', '7')).toBeNull();
    expect(recordedVersion(null, 'cta', '7')).toBeNull();
  });
});

describe('the audit retention', () => {
  it('registers its purge only when AUDIT_RETENTION_DAYS is set', () => {
    for (const [days, registered] of [
      [0, 0],
      [30, 1],
    ]) {
      const { log, register } = auditLog(days);
      log.onModuleInit();
      expect(register).toHaveBeenCalledTimes(registered);
    }
  });

  it('deletes the entries older than the retention and keeps one exactly at its edge', async () => {
    const cutoff = NOW - 30 * DAY;
    const { log, deleted } = auditLog(30, [
      { id: 1, at: cutoff - DAY },
      { id: 2, at: cutoff - 1 },
      { id: 3, at: cutoff },
      { id: 4, at: cutoff + 1 },
    ]);
    await log.purgeExpired();
    expect(deleted).toEqual([[1, 2]]);
  });

  it('deletes nothing when no entry is old enough', async () => {
    const { log, deleted } = auditLog(30, [{ id: 5, at: NOW - DAY }]);
    await log.purgeExpired();
    expect(deleted).toEqual([]);
  });
});
