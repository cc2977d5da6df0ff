import { AdminClient } from './admin-client';
import { machine } from './fixtures';
import { InsightFold } from '../src/insights/insight-fold.service';
import { dataSourceOf } from './database-contents';
import { CLUSTER_KIND, describeOnMysql, twoInstancesPerSuite } from './cluster';
import { TestApp } from './harness';
import { daysAgo, dayOf, snapshot, TODAY } from './insights';
import { SdkClient } from './sdk-client';
import { armOf } from '../src/serving/experiment-arm';

/** No timer fires during the suite: the fold runs by hand, on both instances at once. */
const JOB_INTERVAL_MS = 3_600_000;
const RANGE = { from: dayOf(daysAgo(7)), to: dayOf(TODAY) };

/**
 * Insights counted on several instances (docs/decisions/0018-campaign-insights.md): on Galera
 * (`npm run test:galera`) each instance writes through its own node, merges of one user race across
 * nodes, and the folds of both instances race each other; every entry still counts once, and both
 * instances answer the same.
 */
describeOnMysql(`insights on several instances [${CLUSTER_KIND}]`, () => {
  let instances: TestApp[];
  let tenantCount = 0;

  const env = { SCHEDULER_INTERVAL_MS: String(JOB_INTERVAL_MS) };
  twoInstancesPerSuite([env, env], (...started) => (instances = started));

  /** Each instance's answer for the CTA: they must be the same. */
  const readEverywhere = async (tenantId: string, id: string) => {
    const answers = [];
    for (const instance of instances) {
      const response = await new AdminClient(instance, tenantId).insights.ofCta(id, RANGE);
      expect(response.status).toBe(200);
      answers.push(response.body.data);
    }
    expect(answers[1]).toEqual(answers[0]);
    return answers[0];
  };
  const foldEverywhere = () => Promise.all(instances.map((instance) => instance.service(InsightFold).fold()));
  const pendingUsers = async (): Promise<number> => {
    const [{ users }] = await dataSourceOf(instances[0]).query(
      'SELECT COUNT(*) AS users FROM sdk_user_states WHERE pending_since IS NOT NULL',
    );
    return Number(users);
  };

  it('counts every entry once when users merge through both instances at once, one user racing itself across them, folds racing too', async () => {
    const admin = new AdminClient(instances[0], `insights-multi-${++tenantCount}`);
    const id = await admin.cta();
    const users = Array.from({ length: 30 }, (_, index) => 500 + index);
    const statuses: number[] = [];
    const deltas = users.flatMap((user) =>
      [1, 2, 3].map(async (length) => {
        // A user's three deltas go through alternating instances, each list one entry longer.
        const sdk = new SdkClient(instances[(user + length) % 2], admin.tenantId, String(user));
        const actionDoneAt = Array.from({ length }, (_, step) => daysAgo(3 - step, user));
        const response = await sdk.delta(
          snapshot(id, { actionDoneAt }, { m: machine(String(length), TODAY + length, { createdAt: TODAY }) }),
        );
        statuses.push(response.status);
      }),
    );
    await Promise.all([...deltas, foldEverywhere()]);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const before = await readEverywhere(admin.tenantId, id);
    await foldEverywhere();
    expect(await pendingUsers()).toBe(0);
    const after = await readEverywhere(admin.tenantId, id);
    expect(after).toEqual(before);
    expect(after.totals).toEqual({ actions: 90, resets: 0, usersReached: 30 });
    expect(after.now).toEqual({ users: 30, machines: 30, byState: { '3': 30 } });
  });

  it('folds each pending user once when both instances fold at the same time', async () => {
    const admin = new AdminClient(instances[0], `insights-multi-${++tenantCount}`);
    const id = await admin.cta();
    const users = Array.from({ length: 300 }, (_, index) => 2000 + index);
    for (let start = 0; start < users.length; start += 50) {
      await Promise.all(
        users.slice(start, start + 50).map(async (user) => {
          const sdk = new SdkClient(instances[user % 2], admin.tenantId, String(user));
          expect((await sdk.delta(snapshot(id, { actionDoneAt: [daysAgo(1)], resetAt: [TODAY] }))).status).toBe(200);
        }),
      );
    }
    await foldEverywhere();
    await foldEverywhere();
    expect(await pendingUsers()).toBe(0);
    expect((await readEverywhere(admin.tenantId, id)).totals).toEqual({ actions: 300, resets: 300, usersReached: 300 });
  });

  it("counts an experiment's users once per arm when their deltas race through both instances, folds racing too", async () => {
    const admin = new AdminClient(instances[0], `insights-multi-${++tenantCount}`);
    const id = String(await admin.create({ experiment: { holdoutPercent: 50, goal: { state: '3' } } }));
    await admin.move(id, 'live');
    const users = Array.from({ length: 30 }, (_, index) => 700 + index);
    const at = instances[0].clock.now();
    const exposed = snapshot(id, { actionDoneAt: [at] }, { s: machine('1', at) });
    const purchased = snapshot(
      id,
      { actionDoneAt: [at], resetAt: [at + 1] },
      { s: { ...machine('3', at + 1, { createdAt: at }), reset: true } },
    );
    const statuses: number[] = [];
    // Each user's exposure, purchase and a re-sent exposure go through alternating instances at once, in any order.
    const deltas = users.flatMap((user) =>
      [exposed, purchased, exposed].map(async (body, index) => {
        const response = await new SdkClient(instances[(user + index) % 2], admin.tenantId, String(user)).delta(body);
        statuses.push(response.status);
      }),
    );
    await Promise.all([...deltas, foldEverywhere()]);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    await foldEverywhere();
    const held = users.filter((user) => armOf(admin.tenantId, id, String(user), 50) === 'holdout').length;
    const reports = await Promise.all(instances.map((instance) => new AdminClient(instance, admin.tenantId).insights.experiment(id)));
    expect(reports[1].body).toEqual(reports[0].body);
    expect(reports[0].body.data.arms).toEqual({
      treatment: { entered: 30 - held, exposed: 30 - held, converted: 30 - held, rate: 30 - held === 0 ? null : 1 },
      holdout: { entered: held, exposed: held, converted: held, rate: held === 0 ? null : 1 },
    });
  });
});
