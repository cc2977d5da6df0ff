import { Logger } from '@nestjs/common';
import { QueryFailedError, type DataSource } from 'typeorm';
import { ErrorCode } from '../common/error-code';
import { TransactionRunner } from './transaction-runner';

const driverError = (code: string) => Object.assign(new Error(code), { code });
const deadlock = () => new QueryFailedError('INSERT', [], driverError('ER_LOCK_DEADLOCK'));

/** A DataSource whose `transaction` answers the given outcomes in turn (an Error is thrown). */
function dataSource(type: string, outcomes: unknown[]): { source: DataSource; transaction: jest.Mock } {
  const transaction = jest.fn(async () => {
    const outcome = outcomes.shift();
    if (outcome instanceof Error) {
      throw outcome;
    }
    return outcome;
  });
  return { source: { options: { type }, transaction } as unknown as DataSource, transaction };
}

describe('TransactionRunner', () => {
  it('runs a MySQL deadlock victim again and answers its result', async () => {
    const { source, transaction } = dataSource('mysql', [deadlock(), deadlock(), 'done']);
    await expect(new TransactionRunner(source).run(async () => 'unused')).resolves.toBe('done');
    expect(transaction).toHaveBeenCalledTimes(3);
  });

  it('gives up after five deadlocks, asking the client to retry later', async () => {
    const { source, transaction } = dataSource('mysql', Array.from({ length: 6 }, deadlock));
    await expect(new TransactionRunner(source).run(async () => 'unused')).rejects.toMatchObject({
      code: ErrorCode.SERVICE_UNAVAILABLE,
      headers: { 'retry-after': '1' },
    });
    expect(transaction).toHaveBeenCalledTimes(5);
  });

  describe('with patience', () => {
    let warnings: jest.SpyInstance;
    let errors: jest.SpyInstance;
    beforeEach(() => {
      warnings = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    });
    afterEach(() => jest.restoreAllMocks());

    it('runs a deadlock victim again past five attempts, and writes one warn line once it commits', async () => {
      const { source, transaction } = dataSource('mysql', [...Array.from({ length: 8 }, deadlock), 'done']);
      const patience = { retryForMs: 10_000, work: 'probe' };
      await expect(new TransactionRunner(source).run(async () => 'unused', patience)).resolves.toBe('done');
      expect(transaction).toHaveBeenCalledTimes(9);
      expect(warnings.mock.calls).toEqual([
        [{ work: 'probe', conflicts: 8, waitedMs: expect.any(Number) }, 'conflicting writes retried, then committed'],
      ]);
      expect(errors).not.toHaveBeenCalled();
    });

    it('gives up once its time is over, asking the client to retry later, with one warn line', async () => {
      const { source } = dataSource('mysql', Array.from({ length: 1000 }, deadlock));
      const startedAt = performance.now();
      await expect(new TransactionRunner(source).run(async () => 'unused', { retryForMs: 300, work: 'probe' })).rejects.toMatchObject({
        code: ErrorCode.SERVICE_UNAVAILABLE,
        headers: { 'retry-after': '1' },
      });
      expect(performance.now() - startedAt).toBeGreaterThanOrEqual(299);
      expect(warnings).toHaveBeenCalledTimes(1);
      expect(warnings.mock.calls[0][0]).toMatchObject({ work: 'probe', waitedMs: expect.any(Number) });
      expect(warnings.mock.calls[0][0].conflicts).toBeGreaterThan(5);
      expect(errors).not.toHaveBeenCalled();
    });

    it('writes nothing when the first attempt commits, and passes other failures on at once', async () => {
      const { source, transaction } = dataSource('mysql', ['done', new QueryFailedError('INSERT', [], driverError('ER_DUP_ENTRY'))]);
      const runner = new TransactionRunner(source);
      const patience = { retryForMs: 10_000, work: 'probe' };
      await expect(runner.run(async () => 'unused', patience)).resolves.toBe('done');
      await expect(runner.run(async () => 'unused', patience)).rejects.toThrow('ER_DUP_ENTRY');
      expect(transaction).toHaveBeenCalledTimes(2);
      expect(warnings).not.toHaveBeenCalled();
    });
  });

  it('passes any other failure on at once', async () => {
    const { source, transaction } = dataSource('mysql', [new QueryFailedError('INSERT', [], driverError('ER_DUP_ENTRY')), 'unused']);
    await expect(new TransactionRunner(source).run(async () => 'unused')).rejects.toThrow('ER_DUP_ENTRY');
    expect(transaction).toHaveBeenCalledTimes(1);
  });

  it('runs SQLite transactions one at a time, in arrival order', async () => {
    const { source } = dataSource('better-sqlite3', []);
    const events: string[] = [];
    (source.transaction as jest.Mock).mockImplementation(async (work: () => Promise<unknown>) => work());
    const runner = new TransactionRunner(source);
    let finishSlow!: () => void;
    const slowWork = new Promise<void>((resolve) => (finishSlow = resolve));
    const slow = runner.run(async () => {
      events.push('slow start');
      await slowWork;
      events.push('slow end');
    });
    const fast = runner.run(async () => void events.push('fast'));
    // Every queued callback and timer runs before the slow transaction finishes: a fast one not held back would be in.
    await new Promise((resolve) => setTimeout(resolve, 0));
    finishSlow();
    await Promise.all([slow, fast]);
    expect(events).toEqual(['slow start', 'slow end', 'fast']);
  });
});
