import { AdminClient } from './admin-client';
import { EXAMPLE_TIME, examples, machine, sdkHeaders } from './fixtures';
import { setTimeout as sleep } from 'node:timers/promises';
import { PeriodicJobsService } from '../src/scheduling/periodic-jobs.service';
import { dataSourceOf } from './database-contents';
import { describeOnMysql, GALERA, twoInstancesPerSuite } from './cluster';
import { errorBody, TestApp } from './harness';

const LAUNCH = '/cta/active/state-machines/';
const DAY = 24 * 60 * 60 * 1000;
const DELTA = '/cta/state-machines/snapshot/delta/';
/** Instance A re-checks revisions every second (the default); B is the stale one. */
const A_REVALIDATE_MS = 1000;
const B_REVALIDATE_MS = 600_000;
/** The lease's period; no timer fires in the test (jobs are ticked by hand with moved clocks). */
const JOB_INTERVAL_MS = 3_600_000;

describeOnMysql(
  `several instances on one database [${GALERA.length > 0 ? 'galera' : 'mysql'}] (not on SQLite: one embedded file, one process)`,
  () => {
    let a: TestApp;
    let b: TestApp;
    let tenantCount = 0;
    const tenantId = () => `multi-${++tenantCount}`;

    const launch = (api: TestApp, tenant: string, userId: string, body?: unknown) => api.post(LAUNCH, body, sdkHeaders(tenant, userId));
    const delta = (api: TestApp, tenant: string, userId: string, body: unknown) => api.post(DELTA, body, sdkHeaders(tenant, userId));
    const ctaIds = (response: { body: any }): string[] => response.body.data.ctas.map((cta: { ctaId: string }) => cta.ctaId);
    /** The machines the user has stored for the CTA, as a launch on `api` serves them. */
    const machinesOf = async (
      api: TestApp,
      tenant: string,
      userId: string,
      ctaId: string,
    ): Promise<Record<string, unknown> | undefined> => {
      // A Galera node applies other nodes' commits a moment later; a client that reads its own write
      // through another node waits for them first (wsrep_sync_wait), as this check does.
      if (GALERA.length > 0) {
        await dataSourceOf(api).query('SET STATEMENT wsrep_sync_wait = 1 FOR SELECT COUNT(*) FROM sdk_user_states');
      }
      const response = await launch(api, tenant, userId);
      expect(response.status).toBe(200);
      return response.body.data.ctas.find((cta: { ctaId: string }) => cta.ctaId === ctaId)?.activeStateMachines;
    };

    twoInstancesPerSuite(
      [
        { CACHE_REVALIDATE_MS: String(A_REVALIDATE_MS), SCHEDULER_INTERVAL_MS: String(JOB_INTERVAL_MS) },
        { CACHE_REVALIDATE_MS: String(B_REVALIDATE_MS), SCHEDULER_INTERVAL_MS: String(JOB_INTERVAL_MS) },
      ],
      (first, second) => {
        a = first;
        b = second;
      },
    );

    describe('a stale instance loses nothing (docs/decisions/0006-user-state-merge.md)', () => {
      it('keeps and stores what another instance acknowledged for a CTA it does not know yet, and serves the CTA once it revalidates', async () => {
        const tenant = tenantId();
        const admin = new AdminClient(a, tenant);
        const known = await admin.cta();
        // B caches the tenant's catalogue now, with `known` only, for B_REVALIDATE_MS.
        expect(ctaIds(await launch(b, tenant, '1'))).toEqual([known]);

        const fresh = await admin.cta();
        const t = EXAMPLE_TIME;
        expect((await delta(a, tenant, '1', { ctas: [{ ctaId: fresh, activeStateMachines: { viaA: machine('1', t) } }] })).body).toEqual({
          data: true,
        });

        // A launch through B merging a snapshot of the CTA B knows: the stored state of `fresh` survives it.
        const merged = await launch(b, tenant, '1', { ctas: [{ ctaId: known, activeStateMachines: { viaB: machine('2', t) } }] });
        expect(merged.status).toBe(200);
        // A delta through B for `fresh` is stored, not ignored.
        expect(
          (await delta(b, tenant, '1', { ctas: [{ ctaId: fresh, activeStateMachines: { deltaViaB: machine('3', t) } }] })).body,
        ).toEqual({ data: true });
        // A launch through B without snapshots drops nothing either.
        expect((await launch(b, tenant, '1')).status).toBe(200);
        // Another user's delta through B, and a launch of a user with state only for `fresh`.
        expect((await delta(b, tenant, '2', { ctas: [{ ctaId: fresh, activeStateMachines: { other: machine('4', t) } }] })).body).toEqual({
          data: true,
        });

        expect(await machinesOf(a, tenant, '1', fresh)).toEqual({ viaA: machine('1', t), deltaViaB: machine('3', t) });
        expect(await machinesOf(a, tenant, '1', known)).toEqual({ viaB: machine('2', t) });
        expect(await machinesOf(a, tenant, '2', fresh)).toEqual({ other: machine('4', t) });
        // B revalidated on the unknown id: it serves `fresh` now, long before B_REVALIDATE_MS.
        expect(ctaIds(await launch(b, tenant, '3')).sort()).toEqual([known, fresh].sort());
        expect(await machinesOf(b, tenant, '1', fresh)).toEqual({ viaA: machine('1', t), deltaViaB: machine('3', t) });
      });

      it('drops stored state only for CTAs known, after revalidation, to be over', async () => {
        const tenant = tenantId();
        const admin = new AdminClient(a, tenant);
        const kept = await admin.cta();
        const ending = await admin.cta();
        const t = EXAMPLE_TIME;
        for (const ctaId of [kept, ending]) {
          expect((await delta(b, tenant, '1', { ctas: [{ ctaId, activeStateMachines: { k: machine('1', t) } }] })).body).toEqual({
            data: true,
          });
        }
        await admin.move(ending, 'conclude');
        // B still believes `ending` is live (its catalogue is fresh enough by its own setting) and keeps its state.
        expect(await machinesOf(b, tenant, '1', ending)).toEqual({ k: machine('1', t) });
        // A knows it is over: its launch drops that state, and keeps the rest.
        expect(ctaIds(await launch(a, tenant, '1'))).toEqual([kept]);
        expect(await machinesOf(a, tenant, '1', kept)).toEqual({ k: machine('1', t) });
        // A snapshot of an id no instance knows is ignored, after B has asked the database.
        expect((await delta(b, tenant, '1', { ctas: [{ ctaId: '987654321', activeStateMachines: { z: machine('1', t) } }] })).body).toEqual(
          { data: true },
        );
        expect(ctaIds(await launch(a, tenant, '1'))).toEqual([kept]);
      });

      /**
       * A tenant where B has cached `known` live and `fresh` a draft, then `fresh` went live through A: what
       * issue 37 drops with a CTA that ended — its id in a tag's `activeCtas`, the insights' marks of it —
       * B must not drop on its word alone.
       */
      const staleAboutFresh = async (tagged: boolean) => {
        const tenant = tenantId();
        const admin = new AdminClient(a, tenant);
        const known = await admin.cta({ actions: [] });
        const fresh = await admin.cta({ actions: [] });
        if (tagged) await admin.tag(examples.tag.behaviourTagName, [known, fresh]);
        await admin.move(known, 'live');
        // A snapshot makes B read the tenant's catalogue now, even when B's list of tenants is older than it.
        expect(
          (await delta(b, tenant, '1', { ctas: [{ ctaId: known, activeStateMachines: { k: machine('1', EXAMPLE_TIME) } }] })).body,
        ).toEqual({
          data: true,
        });
        await admin.move(fresh, 'live');
        expect(ctaIds(await launch(b, tenant, '1'))).toEqual([known]);
        return { tenant, admin, known, fresh };
      };

      it("keeps a tag's active CTA it does not know yet: in the launch and in what it stores (docs/decisions/0004-behaviour-tags.md)", async () => {
        const { tenant, admin, fresh } = await staleAboutFresh(true);
        const acted = { behaviourTags: [{ behaviourTagName: examples.tag.behaviourTagName, ctaRelation: { activeCtas: [fresh] } }] };
        expect((await delta(a, tenant, '7', acted)).body).toEqual({ data: true });
        if (GALERA.length > 0) {
          await dataSourceOf(b).query('SET STATEMENT wsrep_sync_wait = 1 FOR SELECT COUNT(*) FROM sdk_user_states');
        }
        const launched = await launch(b, tenant, '7');
        expect(launched.body.data.behaviourTags.map((tag: any) => tag.ctaRelation.activeCtas)).toEqual([[fresh]]);
        expect((await delta(b, tenant, '8', acted)).body).toEqual({ data: true });
        const stored = await admin.appUsers.export('8');
        expect(stored.body.data.state.behaviourTags.map((tag) => tag.activeCtas)).toEqual([[fresh]]);
      });

      it("keeps the insights' marks of a CTA it does not know yet, so a re-sent list counts once (docs/decisions/0018-campaign-insights.md)", async () => {
        const { tenant, admin, known, fresh } = await staleAboutFresh(false);
        const at = EXAMPLE_TIME - 2 * DAY;
        const actions = (actionDoneAt: number[]) => ({ ctas: [{ ctaId: fresh, activeStateMachines: {}, actionDoneAt }] });
        expect((await delta(a, tenant, '9', actions([at]))).body).toEqual({ data: true });
        // A reinstalled device empties the list: the user keeps no state for `fresh`, only its marks.
        expect((await delta(a, tenant, '9', actions([]))).body).toEqual({ data: true });
        // A merge through B, whose catalogue does not keep `fresh`.
        const merged = await delta(b, tenant, '9', { ctas: [{ ctaId: known, activeStateMachines: { m: machine('1', EXAMPLE_TIME) } }] });
        expect(merged.body).toEqual({ data: true });
        // The other device sends its old list again.
        expect((await delta(a, tenant, '9', actions([at]))).body).toEqual({ data: true });
        const day = new Date(at).toISOString().slice(0, 10);
        const insights = await admin.insights.ofCta(fresh, { from: day, to: day });
        expect(insights.body.data.totals).toEqual({ actions: 1, resets: 0, usersReached: 1 });
      });
    });

    it('loses none of 50 racing merges for one user split across the instances', async () => {
      const tenant = tenantId();
      const ctaId = await new AdminClient(a, tenant).cta();
      const keys = Array.from({ length: 50 }, (_, index) => `machine-${index}`);
      const responses = await Promise.all(
        keys.map((key, index) =>
          delta(index % 2 === 0 ? a : b, tenant, '77', {
            ctas: [{ ctaId, activeStateMachines: { [key]: machine('1', EXAMPLE_TIME + index) } }],
          }),
        ),
      );
      expect(responses.map((response) => [response.status, response.body])).toEqual(keys.map(() => [200, { data: true }]));
      expect(Object.keys((await machinesOf(a, tenant, '77', ctaId)) ?? {}).sort()).toEqual([...keys].sort());
    });

    it('lets exactly one of racing conflicting status changes across the instances win', async () => {
      const tenant = tenantId();
      const ctaId = await new AdminClient(a, tenant).cta();
      const actions = Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? 'conclude' : 'terminate'));
      const responses = await Promise.all(
        actions.map((action, index) =>
          (index % 4 < 2 ? a : b).put(`/engine/ctas/${ctaId}/${action}`, undefined, { 'x-tenant-id': tenant }),
        ),
      );
      expect(responses.filter((response) => response.status === 200)).toHaveLength(1);
      for (const refused of responses.filter((response) => response.status !== 200)) {
        expect(refused.status).toBe(400);
        expect(refused.body).toEqual(errorBody('CTA_STATUS_UPDATE_INVALID'));
      }
    });

    it('links a CTA to exactly one of the behaviour tags racing for it across the instances', async () => {
      const tenant = tenantId();
      const ctaId = await new AdminClient(a, tenant).cta({ actions: [] });
      const body = (name: string) => ({
        behaviourTagName: name,
        description: 'race',
        exposureRule: examples.tag.exposureRule,
        ctaRelation: { shownCta: { rule: 'ANY', ctaList: [] }, hideCta: { rule: 'REST', ctaList: [] } },
        linkedCtas: [ctaId],
      });
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          (index % 2 === 0 ? a : b).post('/engine/behaviour-tags/', body(`race-${index}`), {
            'x-tenant-id': tenant,
            user: 'ops@example.com',
          }),
        ),
      );
      expect(responses.filter((response) => response.status === 200)).toHaveLength(1);
      for (const refused of responses.filter((response) => response.status !== 200)) {
        expect([refused.status, refused.body.error?.code, refused.body.error?.message]).toEqual([
          400,
          'CAMPAIGN_INVALID',
          expect.stringContaining(ctaId),
        ]);
      }
      const listed = await b.get('/engine/behaviour-tags/', { 'x-tenant-id': tenant });
      const linking = listed.body.data.behaviourTags.filter((tag: { linkedCtas: unknown[] }) => tag.linkedCtas.map(String).includes(ctaId));
      expect(linking).toHaveLength(1);
    });

    it('shows a new live CTA and a pause made through one instance on the other within CACHE_REVALIDATE_MS + 200 ms', async () => {
      const tenant = tenantId();
      const admin = new AdminClient(b, tenant);
      const first = await admin.cta();
      expect(ctaIds(await launch(a, tenant, '1'))).toEqual([first]);

      /** Launches through A until `expected` is served; answers how long that took after the change. */
      const seenAfter = async (changedAt: number, expected: string[]): Promise<number> => {
        while (Date.now() - changedAt < A_REVALIDATE_MS + 2000) {
          if (JSON.stringify(ctaIds(await launch(a, tenant, '1')).sort()) === JSON.stringify([...expected].sort())) {
            return Date.now() - changedAt;
          }
          await sleep(20);
        }
        return Number.POSITIVE_INFINITY;
      };
      const second = await admin.cta({ actions: [] });
      let changedAt = Date.now();
      await admin.move(second, 'live');
      expect(await seenAfter(changedAt, [first, second])).toBeLessThanOrEqual(A_REVALIDATE_MS + 200);
      changedAt = Date.now();
      await admin.move(first, 'pause');
      expect(await seenAfter(changedAt, [second])).toBeLessThanOrEqual(A_REVALIDATE_MS + 200);
    });

    it('runs each periodic job on one instance per interval (the lease)', async () => {
      const runs: string[] = [];
      a.service(PeriodicJobsService).register('lease-probe', async () => void runs.push('a'));
      b.service(PeriodicJobsService).register('lease-probe', async () => void runs.push('b'));
      const perInterval: string[][] = [];
      for (let interval = 0; interval < 6; interval++) {
        const before = runs.length;
        // Both instances tick, in varying order, some twice (a timer drifting, a restart).
        const ticks = interval % 2 === 0 ? [a, b, a] : [b, a, b];
        await Promise.all(ticks.map((api) => api.service(PeriodicJobsService).runLeased()));
        for (const api of ticks) {
          await api.service(PeriodicJobsService).runLeased();
        }
        perInterval.push(runs.slice(before));
        a.clock.advance(JOB_INTERVAL_MS);
        b.clock.advance(JOB_INTERVAL_MS);
      }
      expect(perInterval.map((ran) => ran.length)).toEqual([1, 1, 1, 1, 1, 1]);
    });
  },
);
