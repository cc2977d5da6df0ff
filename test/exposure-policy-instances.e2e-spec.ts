import { AdminClient } from './admin-client';
import { describeOnMysql, CLUSTER_KIND, onServer, SERVERS } from './cluster';
import { runClockAfterExamples } from './fixtures';
import { createDatabase, TestApp } from './harness';
import { SdkClient } from './sdk-client';

const USER = '77';
const REVALIDATE_MS = 1000;

describeOnMysql(`the exposure policy on several instances [${CLUSTER_KIND}] (not on SQLite: one embedded file, one process)`, () => {
  let a: TestApp;
  let b: TestApp;
  let dropDatabase: () => Promise<void>;

  beforeAll(async () => {
    const { url, drop } = await createDatabase('mysql', SERVERS[0]);
    dropDatabase = drop;
    a = await TestApp.join('mysql', url, { CACHE_REVALIDATE_MS: String(REVALIDATE_MS) });
    b = await TestApp.join('mysql', onServer(url, SERVERS[1] ?? SERVERS[0]), { CACHE_REVALIDATE_MS: String(REVALIDATE_MS) });
    runClockAfterExamples(a);
    runClockAfterExamples(b);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await dropDatabase?.();
  });

  it('enforces a policy written through one instance on the other within CACHE_REVALIDATE_MS, and its removal too', async () => {
    const admin = new AdminClient(a, 'capped-instances');
    const ctaId = await admin.cta();
    const onA = new SdkClient(a, admin.tenantId, USER);
    const onB = new SdkClient(b, admin.tenantId, USER);
    const served = async (device: SdkClient): Promise<string[]> =>
      (await device.launch()).body.data.ctas.map((cta: { ctaId: string }) => cta.ctaId);
    const now = a.clock.now();
    await onA.delta({ ctas: [{ ctaId, activeStateMachines: {}, actionDoneAt: [now - 1000] }], behaviourTags: [] });
    // B caches the tenant's catalogue without a policy.
    expect(await served(onB)).toEqual([ctaId]);

    expect((await admin.exposurePolicy.put({ maxActions: 1, window: { value: 1, unit: 'hours' } })).status).toBe(200);
    expect(await served(onA)).toEqual([]);
    b.clock.advance(REVALIDATE_MS);
    expect(await served(onB)).toEqual([]);
    expect((await new AdminClient(b, admin.tenantId).exposurePolicy.get()).body.data.maxActions).toBe(1);

    expect((await admin.exposurePolicy.put({ maxActions: null })).status).toBe(200);
    b.clock.advance(REVALIDATE_MS);
    expect(await served(onB)).toEqual([ctaId]);
  });
});
