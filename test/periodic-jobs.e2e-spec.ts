import { Logger } from '@nestjs/common';
import { conflictingWrites } from '../src/common/domain-error';
import { AdminClient } from './admin-client';
import { sdkHeaders } from './fixtures';
import { PeriodicJobsService } from '../src/scheduling/periodic-jobs.service';
import { dataSourceOf } from './database-contents';
import { eachDatabase, TestApp } from './harness';

/** Long enough that no timer fires during the suite: the jobs are ticked by hand. */
const INTERVAL_MS = 3_600_000;
const LAUNCH = '/cta/active/state-machines/';

eachDatabase('periodic jobs: leased, set-based (docs/decisions/0007-catalogue-cache-and-periodic-jobs.md)', (database) => {
  let api: TestApp;
  const jobs = () => api.service(PeriodicJobsService);

  beforeAll(async () => {
    api = await TestApp.start(database, { SCHEDULER_INTERVAL_MS: String(INTERVAL_MS) });
  });
  afterAll(() => api.close());

  it('runs a job once per interval on the instance holding its lease, and records the lease row', async () => {
    let runs = 0;
    jobs().register('probe', async () => void runs++);
    await jobs().runLeased();
    await jobs().runLeased();
    expect(runs).toBe(1);
    api.clock.advance(INTERVAL_MS);
    await jobs().runLeased();
    expect(runs).toBe(2);
    const [lease] = await dataSourceOf(api).query(`SELECT owner, expires_at FROM periodic_job_leases WHERE job = 'probe'`);
    expect(lease.owner).toBe(jobs().owner);
    expect(Number(lease.expires_at)).toBeGreaterThan(api.clock.now());
  });

  it('logs a job whose writes kept conflicting (Galera certification) as one warn line, a failing job as an error, and runs the others', async () => {
    const warnings = jest.spyOn(Logger.prototype, 'warn');
    const errors = jest.spyOn(Logger.prototype, 'error');
    let after = 0;
    try {
      jobs().register('conflicting', async () => {
        throw conflictingWrites();
      });
      jobs().register('faulty', async () => {
        throw new Error('a fault');
      });
      jobs().register('after', async () => void after++);
      await jobs().runAll();
      expect(warnings.mock.calls.filter(([fields]) => (fields as { job?: string })?.job === 'conflicting')).toEqual([
        [{ job: 'conflicting' }, 'periodic job deferred to its next run: its writes kept conflicting with others'],
      ]);
      expect(errors.mock.calls.filter(([fields]) => (fields as { job?: string })?.job === 'conflicting')).toEqual([]);
      expect(errors.mock.calls.filter(([fields]) => (fields as { job?: string })?.job === 'faulty')).toEqual([
        [{ err: expect.objectContaining({ message: 'a fault' }), job: 'faulty' }, 'periodic job failed'],
      ]);
      expect(after).toBe(1);
    } finally {
      jobs().register('conflicting', async () => undefined);
      jobs().register('faulty', async () => undefined);
      warnings.mockRestore();
      errors.mockRestore();
    }
  });

  it('purges expired previews of every tenant in batches of 1,000 in one run', async () => {
    const now = api.clock.now();
    const rows = Array.from({ length: 2500 }, (_, index) => [
      `tenant-${index % 40}`,
      `p-${index}`,
      'x',
      60,
      index % 5 === 0 ? now + 10 * INTERVAL_MS : now - 1000,
      now,
    ]);
    for (let start = 0; start < rows.length; start += 250) {
      const batch = rows.slice(start, start + 250);
      await dataSourceOf(api).query(
        `INSERT INTO nudge_previews (tenant_id, preview_id, template, ttl, expires_at, updated_at) VALUES ${batch.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`,
        batch.flat(),
      );
    }
    api.clock.advance(INTERVAL_MS);
    await jobs().runLeased();
    const [{ remaining }] = await dataSourceOf(api).query('SELECT COUNT(*) AS remaining FROM nudge_previews');
    expect(Number(remaining)).toBe(500);
  });

  it('moves due CTAs of several tenants in one run and tells the catalogue of each', async () => {
    const tenants = [new AdminClient(api, 'timed-1'), new AdminClient(api, 'timed-2')];
    const ids = [];
    for (const tenant of tenants) {
      const id = await tenant.cta({ actions: [] });
      await tenant.edit(id, { startTime: api.clock.now() + 60_000 });
      await tenant.move(id, 'schedule');
      ids.push(id);
    }
    api.clock.advance(INTERVAL_MS);
    await jobs().runLeased();
    const statuses = await dataSourceOf(api).query(`SELECT status FROM ctas WHERE id IN (${ids.join(', ')})`);
    expect(statuses.map((row: { status: string }) => row.status)).toEqual(['live', 'live']);
    for (const [index, tenant] of tenants.entries()) {
      const launch = await api.post(LAUNCH, undefined, sdkHeaders(tenant.tenantId, '1'));
      expect(launch.body.data.ctas.map((cta: { ctaId: string }) => cta.ctaId)).toEqual([ids[index]]);
    }
  });
});
