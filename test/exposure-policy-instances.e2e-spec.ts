import { AdminClient } from './admin-client';
import { describeOnMysql, CLUSTER_KIND, twoInstancesPerSuite } from './cluster';
import { TestApp } from './harness';
import { SdkClient } from './sdk-client';

const USER = '77';
const REVALIDATE_MS = 1000;

describeOnMysql(`the exposure policy on several instances [${CLUSTER_KIND}] (not on SQLite: one embedded file, one process)`, () => {
  let a: TestApp;
  let b: TestApp;

  const env = { CACHE_REVALIDATE_MS: String(REVALIDATE_MS) };
  twoInstancesPerSuite([env, env], (first, second) => {
    a = first;
    b = second;
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
