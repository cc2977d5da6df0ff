import type { EntityManager } from 'typeorm';
import { DataSource } from 'typeorm';
import { TransactionRunner } from '../database/transaction-runner';
import { dataSourceOptions } from '../orchestration-schema';
import { JOB_BATCH_ROWS, JOB_MAX_BATCHES_PER_RUN, type PeriodicJobsService } from '../scheduling/periodic-jobs.service';
import { sdkPendingInsights } from '../sdk/pending-insights';
import { InsightFold } from './insight-fold.service';
import { addToPending } from './insight-pending';
import { PendingInsightsStore, type TakenInsights } from './pending-insights-store';

/** 2026-03-31, the last day of March 2026 (month 674). */
const DAY = 20543;

/** A store whose `take` answers the given outcomes in turn: users taken (a count), or null when a row changed meanwhile. */
class ScriptedStore extends PendingInsightsStore {
  takes = 0;
  constructor(private readonly outcomes: (number | null | Error)[]) {
    super();
  }
  pendingOf(): never {
    throw new Error('not read by the fold');
  }
  async take(_manager: EntityManager, limit: number): Promise<TakenInsights[] | null> {
    this.takes++;
    const outcome = this.outcomes.length > 0 ? this.outcomes.shift()! : 0;
    if (outcome instanceof Error) throw outcome;
    return outcome === null ? null : Array.from({ length: Math.min(outcome, limit) }, () => ({ tenantId: 't', pending: '[]' }));
  }
}

describe('InsightFold', () => {
  let dataSource: DataSource;
  let transactions: TransactionRunner;

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions('sqlite::memory:')).initialize();
    transactions = new TransactionRunner(dataSource);
  });
  afterAll(() => dataSource.destroy());

  const foldWith = (store: PendingInsightsStore) => new InsightFold(transactions, {} as PeriodicJobsService, store);

  it('registers itself as the insights-fold job', () => {
    const register = jest.fn();
    new InsightFold(transactions, { register } as unknown as PeriodicJobsService, sdkPendingInsights).onModuleInit();
    expect(register.mock.calls.map(([name]) => name)).toEqual(['insights-fold']);
  });

  it("adds the users' pending counts into the daily, monthly, CTA and state rows, and clears them", async () => {
    const user = (userId: string, pending: string | null) =>
      dataSource.query(
        'INSERT INTO sdk_user_states (tenant_id, user_id, state, version, updated_at, pending_insights, pending_since) VALUES (?, ?, ?, 1, 0, ?, ?)',
        ['t1', userId, '{}', pending, pending === null ? null : 1],
      );
    await user('1', addToPending(null, [{ ctaId: '7', days: [[DAY, 2, 1, 1]], users: 1, states: [['shown', 1]] }]));
    await user(
      '2',
      addToPending(null, [
        {
          ctaId: '7',
          days: [
            [DAY, 1, 0, 1],
            [DAY + 1, 4, 0, 0],
          ],
          users: 1,
          states: [
            ['shown', 1],
            ['done', 1],
          ],
        },
      ]),
    );
    await user('3', null);
    await foldWith(sdkPendingInsights).fold();
    const rows = (sql: string) =>
      dataSource.query(sql).then((found: Record<string, unknown>[]) => found.map((row) => Object.values(row).map(Number)));
    expect(await rows('SELECT cta_id, day, actions, resets, new_users FROM insight_days ORDER BY day')).toEqual([
      [7, DAY, 3, 1, 2],
      [7, DAY + 1, 4, 0, 0],
    ]);
    expect(await rows('SELECT cta_id, month, actions, resets FROM insight_months ORDER BY month')).toEqual([
      [7, 674, 3, 1],
      [7, 675, 4, 0],
    ]);
    expect(await rows('SELECT cta_id, users, users_reached FROM insight_ctas')).toEqual([[7, 2, 2]]);
    expect(await dataSource.query('SELECT state, machines FROM insight_states ORDER BY state')).toEqual([
      { state: 'done', machines: 1 },
      { state: 'shown', machines: 2 },
    ]);
    expect(await dataSource.query('SELECT user_id, version FROM sdk_user_states WHERE pending_since IS NULL ORDER BY user_id')).toEqual([
      { user_id: '1', version: 2 },
      { user_id: '2', version: 2 },
      { user_id: '3', version: 1 },
    ]);
  });

  it('takes batch after batch until one comes back short', async () => {
    const store = new ScriptedStore([JOB_BATCH_ROWS, JOB_BATCH_ROWS, 10, JOB_BATCH_ROWS]);
    await foldWith(store).fold();
    expect(store.takes).toBe(3);
  });

  it('stops after JOB_MAX_BATCHES_PER_RUN batches, leaving the rest to the next run', async () => {
    const store = new ScriptedStore(Array.from({ length: JOB_MAX_BATCHES_PER_RUN + 5 }, () => JOB_BATCH_ROWS));
    await foldWith(store).fold();
    expect(store.takes).toBe(JOB_MAX_BATCHES_PER_RUN);
  });

  it('rolls a batch back and goes on when rows changed under it, and ends the run quietly at the third such batch', async () => {
    const recovers = new ScriptedStore([null, JOB_BATCH_ROWS, null, 5]);
    await foldWith(recovers).fold();
    expect(recovers.takes).toBe(4);
    const givesUp = new ScriptedStore([null, null, null, 5]);
    await expect(foldWith(givesUp).fold()).resolves.toBeUndefined();
    expect(givesUp.takes).toBe(3);
  });

  it('lets any other failure through to the job runner', async () => {
    await expect(foldWith(new ScriptedStore([new Error('disk full')])).fold()).rejects.toThrow('disk full');
  });
});
