import { DataSource } from 'typeorm';
import type { Clock } from '../common/clock';
import { ErrorCode } from '../common/error-code';
import { TransactionRunner } from '../database/transaction-runner';
import { dataSourceOptions } from '../orchestration-schema';
import type { PeriodicJobsService } from '../scheduling/periodic-jobs.service';
import { NudgePreviewService } from './nudge-preview.service';

const START = 1_800_000_000_000;

describe('NudgePreviewService', () => {
  let dataSource: DataSource;
  /** A clock the spec moves by hand. */
  let clock: Clock & { at: number };
  let previews: NudgePreviewService;
  const register = jest.fn();

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions('sqlite::memory:')).initialize();
  });
  afterAll(() => dataSource.destroy());

  beforeEach(async () => {
    await dataSource.query('DELETE FROM nudge_previews');
    clock = { at: START, now: () => clock.at };
    previews = new NudgePreviewService(dataSource, new TransactionRunner(dataSource), clock, {
      register,
    } as unknown as PeriodicJobsService);
  });

  it('registers its purge as the nudge-preview-purge job', () => {
    register.mockClear();
    previews.onModuleInit();
    expect(register).toHaveBeenCalledTimes(1);
    expect(register.mock.calls[0][0]).toBe('nudge-preview-purge');
  });

  it('answers a written preview with the default ttl until it expires, and null from its expiry on', async () => {
    await previews.write('t1', { id: 'p1', template: '<b>hi</b>' });
    expect(await previews.read('t1', 'p1')).toEqual({ id: 'p1', template: '<b>hi</b>', tenantId: 't1', ttl: 3600 });
    expect(await previews.read('t2', 'p1')).toBeNull();
    clock.at = START + 3600 * 1000 - 1;
    expect(await previews.read('t1', 'p1')).not.toBeNull();
    clock.at = START + 3600 * 1000;
    expect(await previews.read('t1', 'p1')).toBeNull();
  });

  it('replaces a preview written again under its id, with its new template and life', async () => {
    await previews.write('t1', { id: 'p1', template: 'old', ttl: 10 });
    clock.at = START + 5_000;
    await previews.write('t1', { id: 'p1', template: 'new', ttl: 60 });
    clock.at = START + 30_000;
    expect(await previews.read('t1', 'p1')).toEqual({ id: 'p1', template: 'new', tenantId: 't1', ttl: 60 });
    expect(await dataSource.query('SELECT COUNT(*) AS n FROM nudge_previews')).toEqual([{ n: 1 }]);
  });

  it('refuses a blank id or template with NUDGE_PREVIEW_TEMPLATE_NOT_FOUND_EXCEPTION, writing nothing', async () => {
    await expect(previews.write('t1', { id: ' ', template: null })).rejects.toMatchObject({
      code: ErrorCode.NUDGE_PREVIEW_TEMPLATE_NOT_FOUND_EXCEPTION,
      message: expect.stringMatching(/id must not be null or empty.*template must not be null or empty/s),
    });
    expect(await dataSource.query('SELECT COUNT(*) AS n FROM nudge_previews')).toEqual([{ n: 0 }]);
  });

  it('purges the expired previews of every tenant and keeps the living ones', async () => {
    await previews.write('t1', { id: 'short', template: 'x', ttl: 1 });
    await previews.write('t2', { id: 'short', template: 'x', ttl: 1 });
    await previews.write('t1', { id: 'long', template: 'y', ttl: 100 });
    clock.at = START + 1_000;
    await previews.purgeExpired();
    expect(
      await dataSource.query('SELECT tenant_id AS tenantId, preview_id AS id FROM nudge_previews ORDER BY tenant_id, preview_id'),
    ).toEqual([{ tenantId: 't1', id: 'long' }]);
  });
});
