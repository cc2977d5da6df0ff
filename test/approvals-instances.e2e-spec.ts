import { AdminClient } from './admin-client';
import { CLUSTER_KIND, describeOnMysql, GALERA, twoInstancesPerSuite } from './cluster';
import { dataSourceOf } from './database-contents';
import { errorBody, TestApp } from './harness';
import { race, RACE_OFFSETS_MS } from './race';

/**
 * Approvals (docs/decisions/0015-approvals.md) on two instances of the service sharing one database:
 * through two nodes of a Galera cluster under `npm run test:galera` (where row locks do not reach the
 * other node, and a lost certification runs again), else one MariaDB server. Whatever the interleaving,
 * nothing goes live that a second key did not approve.
 */
const ENV = {
  APPROVALS_REQUIRED: 'true',
  ADMIN_API_KEYS: 'alice:editor:alice-key,bob:publisher:bob-key',
};
const KEEP_TIMES = { startTime: undefined, endTime: undefined };

describeOnMysql(`approvals on two instances [${CLUSTER_KIND}]`, () => {
  let a: TestApp;
  let b: TestApp;
  let tenants = 0;

  twoInstancesPerSuite(
    [ENV, ENV],
    (first, second) => {
      a = first;
      b = second;
    },
    { examplesClock: false },
  );

  /** Alice (editor) through instance A, Bob (publisher) through B, on a fresh tenant. */
  const operators = () => {
    const tenant = `approvals-instances-${++tenants}`;
    return {
      alice: new AdminClient(a, tenant, 'alice@example.com', { headers: { 'x-api-key': 'alice-key' } }),
      bob: new AdminClient(b, tenant, 'bob@example.com', { headers: { 'x-api-key': 'bob-key' } }),
    };
  };
  /** A Galera node applies other nodes' commits a moment later: a read of another node's write waits for them (wsrep_sync_wait). */
  const caughtUp = async (...apis: TestApp[]): Promise<void> => {
    if (GALERA.length > 0) {
      for (const api of apis) await dataSourceOf(api).query('SET STATEMENT wsrep_sync_wait = 1 FOR SELECT COUNT(*) FROM ctas');
    }
  };
  /** The audit entry of the CTA's approval, read through B: its `after` is the content the approval saw. */
  const approvalEntry = async (bob: AdminClient, id: number): Promise<any> =>
    (await b.get(`/engine/ctas/${id}/history`, bob.headers())).body.data.entries.find((entry: any) => entry.action === 'approve');

  it('an approval through one instance racing an edit through the other approves what its key saw, or is voided', async () => {
    const { alice, bob } = operators();
    const outcomes = new Set<string>();
    for (const offset of RACE_OFFSETS_MS) {
      const id = await alice.create({ description: 'reviewed' });
      await caughtUp(b);
      const [edit, approval] = await race(
        offset,
        () => alice.update(id, { ...KEEP_TIMES, description: 'unreviewed' }),
        () => bob.approve(id),
      );
      expect([edit.status, approval.status]).toEqual([200, 200]);
      await caughtUp(a, b);
      const seen = (await approvalEntry(bob, id)).after.description;
      outcomes.add(seen === 'unreviewed' ? 'edit first' : 'approval first');
      const live = await bob.status(id, 'live');
      await caughtUp(a);
      const cta = await alice.get(id);
      if (seen === 'unreviewed') {
        expect(live.status).toBe(200);
        expect(cta).toMatchObject({ ctaStatus: 'live', description: 'unreviewed', approval: { by: 'bob' } });
      } else {
        expect(live.body).toEqual(
          errorBody(
            'CTA_STATUS_UPDATE_INVALID',
            `CTA ${id} needs an approval by a key other than 'alice', who last changed it; the approval by 'bob' was of an earlier version`,
          ),
        );
        expect(cta).toMatchObject({ ctaStatus: 'draft', description: 'unreviewed', approval: null });
      }
    }
    expect([...outcomes].sort()).toEqual(['approval first', 'edit first']);
  });

  it('going live through one instance racing an edit through the other: exactly one wins, and only approved content goes live', async () => {
    const { alice, bob } = operators();
    const outcomes = new Set<string>();
    for (const offset of RACE_OFFSETS_MS) {
      const id = await alice.create({ description: 'reviewed' });
      await caughtUp(b);
      expect((await bob.approve(id)).status).toBe(200);
      await caughtUp(a);
      const [edit, live] = await race(
        offset,
        () => alice.update(id, { ...KEEP_TIMES, description: 'unreviewed' }),
        () => bob.status(id, 'live'),
      );
      expect([edit.status, live.status].sort()).toEqual([200, 400]);
      outcomes.add(live.status === 200 ? 'live first' : 'edit first');
      await caughtUp(a, b);
      const cta = await bob.get(id);
      if (live.status === 200) {
        expect(edit.body).toEqual(errorBody('CTA_STATUS_UPDATE_INVALID', expect.stringContaining('approvals are required')));
        expect(cta).toMatchObject({ ctaStatus: 'live', description: 'reviewed', approval: { by: 'bob' } });
      } else {
        expect(live.body).toEqual(errorBody('CTA_STATUS_UPDATE_INVALID', expect.stringContaining("a key other than 'alice'")));
        expect(cta).toMatchObject({ ctaStatus: 'draft', description: 'unreviewed', approval: null });
      }
    }
    expect([...outcomes].sort()).toEqual(['edit first', 'live first']);
  });
});
