import { DataSource } from 'typeorm';
import { examples } from '../../test/fixtures';
import { sdkStateOnSqlite } from '../../test/sdk-state-on-sqlite';
import { CatalogueRevisionService } from '../catalogue/catalogue-revision.service';
import type { Clock } from '../common/clock';
import { ErrorCode } from '../common/error-code';
import { TransactionRunner } from '../database/transaction-runner';
import { MetricsService } from '../metrics/metrics.service';
import { dataSourceOptions } from '../orchestration-schema';
import type { SdkStateService } from './sdk-state.service';
import { parseSnapshotRequest } from './snapshot-request';
import { parseUserState } from './user-state';
import { createUserStateStore, UserStateStore } from './user-state.store';

const NOW = 1_893_456_000_000;
/** The example rule: machines in states "0" to "3", each kept this long after its last transition. */
const rule = examples.rule();
const TTL: number = rule.stateMachineTTL;

/** A user's machine of CTA `ctaId` in `state`, as a snapshot sends it. */
const snapshot = (ctaId: string, currentState = '1', at = NOW) =>
  parseSnapshotRequest({ ctas: [{ ctaId, activeStateMachines: { [ctaId]: { currentState, lastTransitionAt: at, createdAt: at } } }] });
const NO_SNAPSHOTS = parseSnapshotRequest({});
const client = { platform: 'android' } as never;

describe('SdkStateService', () => {
  let dataSource: DataSource;
  let clock: Clock & { at: number };
  let metrics: MetricsService;
  let revisions: CatalogueRevisionService;
  let sdk: SdkStateService;

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions('sqlite::memory:')).initialize();
  });
  afterAll(() => dataSource.destroy());

  /** A live CTA of `tenant`, written through `writer` (another instance's revision service: this one's cache is not told). */
  const liveCta = (writer: CatalogueRevisionService, tenant: string, id: number) =>
    writer.write(tenant, (manager) =>
      manager.query(
        "INSERT INTO ctas (id, tenant_id, name, team, status, rule, is_test, created_at, created_by) VALUES (?, ?, ?, 'growth', 'live', ?, 0, 0, 'alice')",
        [id, tenant, `cta-${id}`, JSON.stringify(rule)],
      ),
    );

  /** The service as the module builds it, on the database, with `store` for the users' state. */
  function service(store?: UserStateStore): SdkStateService {
    return sdkStateOnSqlite(dataSource, revisions, clock, { metrics, store }).sdkState;
  }

  beforeEach(async () => {
    for (const table of ['ctas', 'sdk_user_states', 'catalogue_revisions']) {
      await dataSource.query(`DELETE FROM ${table}`);
    }
    clock = { at: NOW, now: () => clock.at };
    metrics = new MetricsService();
    revisions = new CatalogueRevisionService(dataSource, new TransactionRunner(dataSource), clock);
    await liveCta(revisions, 't1', 1);
    sdk = service();
  });

  const merges = async (result: 'applied' | 'ignored') =>
    (await metrics.registry.getSingleMetric('cta_snapshot_merges_total')!.get()).values.find((sample) => sample.labels.result === result)
      ?.value ?? 0;
  const storedStates = () => dataSource.query('SELECT tenant_id, user_id, state, version FROM sdk_user_states ORDER BY tenant_id, user_id');
  const launched = async (service: SdkStateService, tenant: string, user: string) =>
    JSON.parse((await service.launch(tenant, user, client, NO_SNAPSHOTS)).toString('utf8')) as {
      data: { ctas: { ctaId: string; activeStateMachines: Record<string, { currentState: string }> }[]; behaviourTags: unknown[] };
    };

  it("stores a delta's machine of a live CTA, answers it at the next launch, and counts it applied", async () => {
    await sdk.mergeDelta('t1', '42', snapshot('1', '2'));
    const { data } = await launched(sdk, 't1', '42');
    expect(data.ctas.map((cta) => [cta.ctaId, cta.activeStateMachines])).toEqual([
      ['1', { '1': { currentState: '2', lastTransitionAt: NOW, createdAt: NOW } }],
    ]);
    expect(await merges('applied')).toBe(1);
    const [row] = await storedStates();
    expect([row.user_id, row.version]).toEqual(['42', 1]);
    // The write counted the user into the CTA's pending insights.
    expect(await dataSource.query('SELECT pending_insights FROM sdk_user_states')).toEqual([
      { pending_insights: '[["1",{"u":1,"s":[["2",1]]}]]' },
    ]);
  });

  it('ignores, counts and stores nothing of a snapshot of a CTA the tenant does not have', async () => {
    await sdk.mergeDelta('t1', '42', snapshot('9'));
    expect(await storedStates()).toEqual([]);
    expect(await merges('ignored')).toBe(1);
  });

  it('answers a tenant without a catalogue no CTAs, and ignores its snapshots once a fresh check confirms it has none', async () => {
    expect((await launched(sdk, 'nobody', '42')).data).toEqual({ ctas: [], behaviourTags: [] });
    await sdk.mergeDelta('nobody', '42', snapshot('1'));
    expect(await storedStates()).toEqual([]);
    expect(await merges('ignored')).toBe(1);
  });

  it('keeps the snapshot of a CTA that went live through another instance after this one cached the catalogue', async () => {
    await launched(sdk, 't1', '42');
    const otherInstance = new CatalogueRevisionService(dataSource, new TransactionRunner(dataSource), clock);
    await liveCta(otherInstance, 't1', 2);
    await sdk.mergeDelta('t1', '42', snapshot('2'));
    expect((await launched(sdk, 't1', '42')).data.ctas.map((cta) => [cta.ctaId, Object.keys(cta.activeStateMachines)])).toEqual([
      ['1', []],
      ['2', ['2']],
    ]);
  });

  it('drops machines past stateMachineTTL at launch and stores the pruned state; a preview shows it, writing nothing', async () => {
    await sdk.mergeDelta('t1', '42', snapshot('1'));
    clock.at = NOW + TTL + 1;
    const preview = await sdk.preview('t1', '42', client);
    expect([...preview.expiredMachines]).toEqual([['1', 1]]);
    expect(preview.cohorts).toEqual(['all']);
    expect(preview.exposureCap).toBeNull();
    expect((await storedStates())[0].version).toBe(1);
    const answer = preview.answer.toString('utf8');
    expect(JSON.parse(answer).data.ctas[0].activeStateMachines).toEqual({});
    // The launch answers what the preview said, and stores it.
    expect((await sdk.launch('t1', '42', client, NO_SNAPSHOTS)).toString('utf8')).toBe(answer);
    const [row] = await storedStates();
    expect(row.version).toBe(2);
    expect(parseUserState(row.state).ctas.size).toBe(0);
  });

  it('asks the client to retry later (SERVICE_UNAVAILABLE) when other writers win every version check', async () => {
    metrics = new MetricsService();
    const real = createUserStateStore(dataSource);
    const losing = Object.assign(Object.create(real) as UserStateStore, { write: async () => false });
    await expect(service(losing).mergeDelta('t1', '42', snapshot('1'))).rejects.toMatchObject({
      code: ErrorCode.SERVICE_UNAVAILABLE,
      message: 'too many concurrent updates of this user, retry later',
      headers: { 'retry-after': '1' },
    });
    expect(await merges('applied')).toBe(0);
  });
});
