import { DataSource } from 'typeorm';
import { examples } from '../../test/fixtures';
import { sdkStateOnSqlite } from '../../test/sdk-state-on-sqlite';
import { CatalogueRevisionService } from '../catalogue/catalogue-revision.service';
import type { Clock } from '../common/clock';
import { ErrorCode } from '../common/error-code';
import { TransactionRunner } from '../database/transaction-runner';
import { dataSourceOptions } from '../orchestration-schema';
import { LaunchExplainService } from './launch-explain.service';

const NOW = 1_893_456_000_000;
const HOUR = 3_600_000;

/** The example rule for users in `includes`. */
const ruleFor = (includes: string[]) => ({ ...examples.rule(), cohortEligibility: { includes, excludes: [] } });

describe('LaunchExplainService', () => {
  let dataSource: DataSource;
  let explainer: LaunchExplainService;
  const client = { platform: 'android' } as never;

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions('sqlite::memory:')).initialize();
    const clock: Clock = { now: () => NOW };
    const revisions = new CatalogueRevisionService(dataSource, new TransactionRunner(dataSource), clock);
    // t1: 1 live for everyone, 2 a draft, 3 live for "vip" only, 4 a test CTA listing user 7 for another hour.
    await revisions.write('t1', async (manager) => {
      for (const [id, name, status, includes, isTest] of [
        [1, 'Welcome', 'live', ['all'], 0],
        [2, 'Draft', 'draft', ['all'], 0],
        [3, 'VIP', 'live', ['vip'], 0],
        [4, 'Trial', 'live', ['all'], 1],
      ] as const) {
        await manager.query(
          "INSERT INTO ctas (id, tenant_id, name, team, status, rule, is_test, expires_at, created_at, created_by) VALUES (?, 't1', ?, 'growth', ?, ?, ?, ?, 0, 'alice')",
          [id, name, status, JSON.stringify(ruleFor([...includes])), isTest, isTest ? NOW + HOUR : null],
        );
      }
      await manager.query("INSERT INTO cta_test_users (tenant_id, user_id, cta_id) VALUES ('t1', '7', 4)");
    });
    const { sdkState, ctas, tags } = sdkStateOnSqlite(dataSource, revisions, clock);
    explainer = new LaunchExplainService(sdkState, ctas, tags);
  });
  afterAll(() => dataSource.destroy());

  const summary = (explanation: Awaited<ReturnType<LaunchExplainService['explain']>>) =>
    explanation.ctas.map(({ ctaId, name, ctaStatus, served, reasons }) => ({
      ctaId,
      name,
      ctaStatus,
      served,
      codes: reasons.map((reason) => reason.code),
    }));

  it('refuses a user id that is not a signed 64-bit decimal integer with INVALID_REQUEST', async () => {
    await expect(explainer.explain('t1', 'abc', client, false)).rejects.toMatchObject({
      code: ErrorCode.INVALID_REQUEST,
      message: 'userId must be a signed 64-bit decimal integer, not "abc"',
    });
  });

  it("explains each CTA of the user's launch, served or not and why, with the launch's own answer", async () => {
    const explanation = await explainer.explain('t1', '42', client, false);
    expect([explanation.userId, explanation.cohorts]).toEqual(['42', ['all']]);
    expect(summary(explanation)).toEqual([
      { ctaId: '1', name: 'Welcome', ctaStatus: 'live', served: true, codes: ['SERVED'] },
      { ctaId: '3', name: 'VIP', ctaStatus: 'live', served: false, codes: ['NOT_INCLUDED'] },
    ]);
    expect(explanation.ctas[0].reasons[0].message).toBe('served: live, and the user is in "all" of includes');
    expect((explanation.launch as { ctas: { ctaId: string }[] }).ctas.map((cta) => cta.ctaId)).toEqual(['1']);
  });

  it('lists the test CTA to the user it lists, and every CTA of the tenant (drafts too) when all are asked for', async () => {
    expect(summary(await explainer.explain('t1', '7', client, false)).map(({ ctaId, served }) => [ctaId, served])).toEqual([
      ['1', true],
      ['3', false],
      ['4', true],
    ]);
    const all = summary(await explainer.explain('t1', '42', client, true));
    expect(all.map(({ ctaId, served, codes }) => [ctaId, served, codes])).toEqual([
      ['1', true, ['SERVED']],
      ['2', false, ['NOT_LIVE']],
      ['3', false, ['NOT_INCLUDED']],
      ['4', false, ['TEST_CTA_NOT_LISTED']],
    ]);
  });

  it('writes nothing: no user state is stored for the users it explains', async () => {
    await explainer.explain('t1', '42', client, true);
    expect(await dataSource.query('SELECT COUNT(*) AS n FROM sdk_user_states')).toEqual([{ n: 0 }]);
  });
});
