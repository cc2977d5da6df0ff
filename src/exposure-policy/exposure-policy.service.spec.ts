import { DataSource } from 'typeorm';
import { AuditLog } from '../audit/audit-log.service';
import type { ChangeOrigin } from '../audit/audit.types';
import { CatalogueRevisionService } from '../catalogue/catalogue-revision.service';
import { Clock } from '../common/clock';
import { ErrorCode } from '../common/error-code';
import { TransactionRunner } from '../database/transaction-runner';
import { resolveSettings } from '../orchestration-options';
import { dataSourceOptions } from '../orchestration-schema';
import type { PeriodicJobsService } from '../scheduling/periodic-jobs.service';
import { ExposurePolicyReader } from './exposure-policy.reader';
import { ExposurePolicyService } from './exposure-policy.service';

const NOW = 1_800_000_000_000;
const origin: ChangeOrigin = { actor: 'ops-key', user: 'alice@example.com', requestId: 'req-1' };

class FixedClock extends Clock {
  override now(): number {
    return NOW;
  }
}

describe('ExposurePolicyService', () => {
  let dataSource: DataSource;
  let revisions: CatalogueRevisionService;
  let policies: ExposurePolicyService;
  let reader: ExposurePolicyReader;

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions('sqlite::memory:')).initialize();
  });
  afterAll(() => dataSource.destroy());

  beforeEach(async () => {
    for (const table of ['exposure_policies', 'audit_entries', 'catalogue_revisions']) {
      await dataSource.query(`DELETE FROM ${table}`);
    }
    const clock = new FixedClock();
    const transactions = new TransactionRunner(dataSource);
    revisions = new CatalogueRevisionService(dataSource, transactions, clock);
    const audit = new AuditLog(dataSource, resolveSettings({}), transactions, clock, {} as PeriodicJobsService);
    policies = new ExposurePolicyService(revisions, audit, clock);
    reader = new ExposurePolicyReader(dataSource);
  });

  const audited = async () =>
    (
      await dataSource.query('SELECT tenant_id, entity_type, entity_id, action, record_before, record_after FROM audit_entries ORDER BY id')
    ).map((row: Record<string, string>) => ({
      tenant: row.tenant_id,
      entity: `${row.entity_type}:${row.entity_id}`,
      action: row.action,
      before: JSON.parse(row.record_before),
      after: JSON.parse(row.record_after),
    }));

  it('stores the policy (only its own window fields), answers it, and bumps the tenant catalogue revision', async () => {
    const policy = { maxActions: 3, window: { unit: 'hours', value: 24 } };
    await expect(policies.replace('t1', policy, origin)).resolves.toEqual({ maxActions: 3, window: { value: 24, unit: 'hours' } });
    expect(await reader.policyOf('t1')).toEqual({ maxActions: 3, window: { value: 24, unit: 'hours' } });
    expect(await reader.policyOf('t2')).toEqual({ maxActions: null, window: null });
    expect(await revisions.current('t1')).toBe(1);
    await policies.replace('t1', { maxActions: 2, window: { calendarDay: 'Asia/Kolkata' } }, origin);
    expect(await revisions.current('t1')).toBe(2);
    expect(await revisions.current('t2')).toBe(0);
  });

  it('audits each replacement as an exposurePolicy update of the tenant, with the policy it replaced (off at first)', async () => {
    await policies.replace('t1', { maxActions: 5, window: { value: 7, unit: 'days' } }, origin);
    await policies.replace('t1', { maxActions: null }, origin);
    expect(await audited()).toEqual([
      {
        tenant: 't1',
        entity: 'exposurePolicy:t1',
        action: 'update',
        before: { maxActions: null, window: null },
        after: { maxActions: 5, window: { value: 7, unit: 'days' } },
      },
      {
        tenant: 't1',
        entity: 'exposurePolicy:t1',
        action: 'update',
        before: { maxActions: 5, window: { value: 7, unit: 'days' } },
        after: { maxActions: null, window: null },
      },
    ]);
    expect(await reader.policyOf('t1')).toEqual({ maxActions: null, window: null });
  });

  it('refuses a bad body with INVALID_REQUEST naming every problem, and writes, audits and bumps nothing', async () => {
    await expect(policies.replace('t1', { maxActions: 0, window: { value: 2, unit: 'weeks' }, extra: true }, origin)).rejects.toMatchObject(
      {
        code: ErrorCode.INVALID_REQUEST,
        texts: [
          'extra is not a field of the exposure policy',
          'maxActions must be an integer from 1 to 1000, or null (no cap), not 0',
          'window.unit must be one of minutes, hours, days, not "weeks"',
        ],
      },
    );
    await expect(policies.replace('t1', { maxActions: 4 }, origin)).rejects.toMatchObject({
      texts: ['window is required when maxActions is set'],
    });
    expect(await dataSource.query('SELECT COUNT(*) AS n FROM exposure_policies')).toEqual([{ n: 0 }]);
    expect(await audited()).toEqual([]);
    expect(await revisions.current('t1')).toBe(0);
  });

  it('serialises two writers of one tenant: each audits the policy the other left', async () => {
    await Promise.all([
      policies.replace('t1', { maxActions: 1, window: { value: 1, unit: 'days' } }, origin),
      policies.replace('t1', { maxActions: 2, window: { value: 2, unit: 'days' } }, origin),
    ]);
    const [first, second] = await audited();
    expect(first.before).toEqual({ maxActions: null, window: null });
    expect(second.before).toEqual(first.after);
    expect(await reader.policyOf('t1')).toEqual(second.after);
  });
});
